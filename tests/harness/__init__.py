"""What the tests share: the pty harness, the in-memory drivers, servers, stores and boards.

Helpers live here, never in a test module (tests/rules/test_suite_rules.py)."""
