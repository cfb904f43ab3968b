"""What a Cunning Folk game that goes on is worth, and how far an answer rests on it."""
