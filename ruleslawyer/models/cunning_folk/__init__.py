"""Cunning Folk: the village, the state machine, logs and records, and the rule points."""
