"""gamegraph: generate, solve, load and explore the state graphs of small games.

The Python API (docs/python.md) is this package's own names, loaded on first use so that importing any
module of the package stays cheap (`gamegraph --help`):

    import explorer as gg
    gg.open("tictactoe").value()        # Value.TIE

A game module (a plug-in) imports what it needs from `explorer.plugin` (docs/your-own-game.md).
"""

__version__ = "0.1.0"

_API = ("Board", "Line", "Solved", "Value", "game_names", "open", "solve")
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        from explorer import api

        return getattr(api, name)
    raise AttributeError(f"module 'explorer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
