"""Sokoban: push every box onto a goal."""
