"""Cunning Folk solvers: Z3 deduction, exact world counts, advice, elder runs, balance."""
