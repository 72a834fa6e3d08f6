"""The arcade's menu: every game with its best result, Enter plays one, and ``s`` opens the
scores screen (``scores.py``, loaded when first opened, so the menu's first frame waits for
nothing it does not draw)."""

from termgames.menu.launcher import Launcher, menu_rows

__all__ = ["Launcher", "menu_rows"]
