"""termgames serve (termgames/serve/): who gets in, a player's game and its bytes, the watchers."""
