"""Teeko: rules, tiers and ranking (rules.py), compiled implicit-mode kernels (kernels.py)."""

from explorer.games.teeko.rules import Teeko  # noqa: F401  (registers the game)
