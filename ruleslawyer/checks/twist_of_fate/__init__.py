"""Twist of Fate's checks: each rule point searched from the real start of a game."""
