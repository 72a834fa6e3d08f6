"""Reversi (termgames/reversi/): its rules, engine, computer players, screen and trainer."""
