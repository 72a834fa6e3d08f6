"""termgames: a terminal arcade of classic games rebuilt as real software."""

import warnings

__version__ = "0.1.0"

# cryptography 51 deprecates DSA, which asyncssh (2.24, for `termgames serve`) still names
# as it is imported: a warning for asyncssh's authors, not for whoever starts the arcade,
# whose first lines must be its own. Set here, before anything can import asyncssh.
warnings.filterwarnings("ignore", message="DSA is deprecated", module="asyncssh")
