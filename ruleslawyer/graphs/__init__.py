"""networkx boards: loading, validation and pathing."""
