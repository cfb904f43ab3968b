"""The Cunning Folk claim stage: who knows what, what an answer leaves, runs planned by
their runner."""
