"""``ruleslawyer cunning-folk``: the command group and its balance command."""
