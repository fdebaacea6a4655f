"""Dōbutsu shōgi: rules (rules.py), the perfect ranking shared by rules and kernels (ranking.py),
compiled implicit-mode kernels (kernels.py)."""

from explorer.games.dobutsu.rules import Dobutsu  # noqa: F401  (registers the game)
