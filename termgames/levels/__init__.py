"""The bundled Sokoban level collections (data only; see CREDITS)."""
