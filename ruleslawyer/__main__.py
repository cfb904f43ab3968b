from ruleslawyer.cli.main import main

main()
