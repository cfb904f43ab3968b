"""The rulebook text and its coverage: the shipped rulebooks, a designer's own,
the rule points' quotes in them, and what covers each sentence."""
