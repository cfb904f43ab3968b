"""Twisted Cryptids checks: one finding per rule point, plus data errors of the game file."""
