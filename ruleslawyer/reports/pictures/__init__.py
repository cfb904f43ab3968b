"""Per-game pictures for reports: one module per game, named like its checks module."""
