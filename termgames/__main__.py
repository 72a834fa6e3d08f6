"""Entry point for ``python -m termgames``."""

from termgames.cli import main

if __name__ == "__main__":
    main()
