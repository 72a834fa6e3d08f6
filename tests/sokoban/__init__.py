"""Sokoban (termgames/sokoban/): its level format, rules, solver, hints, screen and --solve."""
