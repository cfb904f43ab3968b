"""One module per game: searches that turn rule points into findings."""
