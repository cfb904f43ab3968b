"""Twist of Fate solvers: compiled kernels, the Dask tier engine, horizons, hidden cards."""
