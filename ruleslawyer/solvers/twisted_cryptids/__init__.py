"""Twisted Cryptids solvers: hidden Stacks, Hiding Spot placement, records, advice, balance."""
