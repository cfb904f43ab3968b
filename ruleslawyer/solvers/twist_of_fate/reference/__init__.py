"""The plain reference solvers the fast Twist of Fate solvers are tested against."""
