"""termgames' tests, laid out like the code: a folder per wing, the shared helpers in harness/."""
