"""``ruleslawyer kaelyfos``: the command group and its text renderings."""
