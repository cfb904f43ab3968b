"""The pruned paranoid solver for Twist of Fate: alpha-beta with a transposition table."""
