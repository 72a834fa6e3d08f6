"""The maze (termgames/maze/): generation, A*, the walk and its guide, the screen."""
