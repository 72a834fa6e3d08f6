"""The one place that touches the terminal: session, keys, drawing and the state-machine runner."""
