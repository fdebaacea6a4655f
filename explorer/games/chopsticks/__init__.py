"""Chopsticks: rules (rules.py), integer codes (codes.py), compiled move generation (moves.py) and implicit-mode kernels (kernels.py)."""

from explorer.games.chopsticks.rules import Chopsticks  # noqa: F401  (registers the game)
