"""Kaelyfos solvers: the crew's advice and the designer's table of behaviour cards."""
