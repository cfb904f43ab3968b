"""The ``ruleslawyer`` command line (click). Game groups load only when called."""
