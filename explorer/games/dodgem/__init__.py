"""Dodgem: rules and ranking (rules.py), compiled implicit-mode kernels (kernels.py)."""

from explorer.games.dodgem.rules import Dodgem  # noqa: F401  (registers the game)
