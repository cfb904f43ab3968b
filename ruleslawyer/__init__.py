"""ruleslawyer: model tabletop games formally and find the holes in their rulebooks."""

__version__ = "0.1.0"
