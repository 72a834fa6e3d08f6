"""``termgames replay``: a recorded game (asciicast v2 or v1) played in the terminal."""
