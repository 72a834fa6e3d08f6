"""The code's and the suite's own rules, checked on their source, and the docs' links."""
