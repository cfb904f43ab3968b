"""Twist of Fate: the rules as pure functions, its files and its rule points."""
