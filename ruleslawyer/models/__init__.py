"""One module per game: immutable state, pure step functions and rule points."""
