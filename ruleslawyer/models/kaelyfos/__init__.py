"""Unsettled: Kaelyfos: the state, how a behaviour card resolves, its files and rule points."""
