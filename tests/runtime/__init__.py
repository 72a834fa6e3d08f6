"""The runtime (termgames/runtime/): the terminal, the screen stack, keys, layout and drawing."""
