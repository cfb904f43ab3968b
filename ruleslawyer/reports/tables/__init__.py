"""Designer tables a game's report shows after its findings table (one module per game)."""
