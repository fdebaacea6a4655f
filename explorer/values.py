"""The old home of `Value` (`from explorer.values import Value`, an earlier tutorial's import): it still works.
A game module imports everything it needs from `explorer.plugin` now (docs/your-own-game.md)."""

from explorer.core.values import UNSOLVED, Value  # noqa: F401

__all__ = ["Value"]
