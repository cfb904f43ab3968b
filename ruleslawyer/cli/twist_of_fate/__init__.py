"""``ruleslawyer twist-of-fate``: the command group, its rounds options and balance."""
