"""Scripts that measure termgames and print tables, each run from the project's root as
``python -m benchmarks.NAME`` (so ``termgames`` and the tests' harness in ``tests``
import as they do for pytest, with no path set by hand)."""
