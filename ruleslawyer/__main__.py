from ruleslawyer.cli import main

main()
