"""Connect Four: rules, ranking and tiers (rules.py), compiled implicit-mode kernels (kernels.py)."""

from explorer.games.connect4.rules import Connect4  # noqa: F401  (registers the game)
