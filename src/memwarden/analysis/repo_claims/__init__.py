"""Statements a memory or instruction file makes about its repository, and what the repository says.

`mentions.py` finds them in a file's text (paths, commands, symbols), `manifests.py` reads what the
repository defines (scripts and targets, lockfiles), `history.py` is the one reader of the git history
these checks compare against (one batch call each for what they need, built once per run).
"""
