"""A solved game: its one home (`storage`: how it is stored, solved or opened, kept and read), the solved graph
of the edge mode and its cache (`graph`), and a part of a value file materialised as a small graph (`part`).

    from explorer.solved import open_solved, solve
    solved = open_solved("tictactoe")          # a SolvedGame: value, remoteness, record, moves, line
"""

from explorer.solved.graph import (  # noqa: F401
    CACHE_FORMAT, CACHE_KIND, SolvedGraph, build, cache_path, is_kept, keep, load_or_build)
from explorer.solved.part import (  # noqa: F401
    PART_DIRECTIONS, PART_MAX_POSITIONS, PART_MAX_RADIUS, PartGraph, SolvedPart, materialise, part_id)
from explorer.solved.storage import (  # noqa: F401
    GRAPH, GRAPH_FIRST, GRAPH_ONLY, IMPLICIT, TIERED, VALUES, VALUES_ONLY, SolvedGame, advice, choose,
    edgeless_kind, open_graph, open_solved, refuse_graph, solve, solve_seconds, solve_time, stored_values, too_large_for_a_graph)
