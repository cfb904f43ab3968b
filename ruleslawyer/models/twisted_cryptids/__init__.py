"""Twisted Cryptids: the round structure, the game file and the rule points."""
