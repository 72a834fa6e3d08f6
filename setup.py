"""What pyproject.toml cannot say: the packages are found, and the top-level ``levels/``
folder (the level files a user opens from a checkout) installs as ``termgames/levels``."""

from setuptools import find_packages, setup

setup(
    # Found, not listed: a new game package ships without anyone touching this file.
    packages=[*find_packages(include=["termgames*"]), "termgames.levels"],
    package_dir={"termgames.levels": "levels"},
)
