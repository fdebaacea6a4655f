"""Whole-graph analyses built on a solved graph: why draws hold, and how two rule sets differ."""
