"""The arcade as a whole: the command line, the launcher, records and scores, storms, install."""
