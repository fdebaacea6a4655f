"""gamegraph: generate, solve, load and explore the state graphs of small games."""

__version__ = "0.1.0"
