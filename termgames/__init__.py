"""termgames: a terminal arcade of classic games rebuilt as real software."""

__version__ = "0.1.0"
