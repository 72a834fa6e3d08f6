"""Write the 2048 AI's row tables to the file the package ships (``rows.bin``), after the
rules of a row or the heuristic's weights changed: ``python -m tools.g2048_tables``. A
test (tests/g2048/test_2048_tables.py) fails until the file holds what the builder makes."""

from __future__ import annotations

from termgames.g2048.ai.tablefile import PATH, write

if __name__ == "__main__":
    print(f"{PATH}: {write():,} bytes")
