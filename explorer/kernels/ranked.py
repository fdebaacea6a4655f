"""The base of a ranked (implicit) game's kernels module: its cached wrappers around the shared kernels,
written once here and bound to each game's own functions.

A game with a perfect ranking gives `predecessors`, `valid`, `move_count`, `terminal` and
`labelled_successors` (explorer.games.base.ImplicitKernels). Its kernels module then ends with

    solve, moves_of, terminal_of = cached_wrappers(globals(), "solve", "moves_of", "terminal_of")

which gives it `solve` (the one retrograde loop, explorer.kernels.retrograde.solve_cells),
`forward` (a loop-free tier's one pass, forward_cells) and `moves_of`/`terminal_of` (the batch helpers
of explorer.kernels.implicit), each `@njit(cache=True)` and each calling that module's functions.

Why not a closure (a factory returning `@njit` functions that close over the game's functions): numba
keys a closure's cache entry by the pickle of what it closes over, and a compiled function pickles with
a fresh uuid in every process, so it would compile again in each one (docs/kernels.md). Here each
wrapper is the template below, a plain function, rebuilt with the game module's globals (so the names
`predecessors`, `terminal`, ... are the game's, resolved by numba at compile time as for a function
written there) and with the game module's file as its source file: numba (and explorer.kernels.cache)
files its cache beside the game's other kernels, under `kernels.solve-<line>`, stamped with the game
module's source, and the same bytecode in two games never shares an index. The templates' own callees
(`solve_cells`, ...) are put into the game module under the same names when it lacks them.

The uncached fallbacks for a game that does not call this (a plugin): retrograde.implicit_wrapper,
retrograde.forward_wrapper and implicit.batch_wrappers, compiled once per process.
"""

from __future__ import annotations

import types

from explorer.kernels import njit
from explorer.kernels.implicit import map_successors, map_terminal
from explorer.kernels.retrograde import forward_cells, implicit_initial, solve_cells

# Stand-ins for the names each template reads from its game's module (bound by `cached_wrappers`).
predecessors = valid = move_count = terminal = labelled_successors = None


def solve(ctx, max_unmoves, cells, queue, state, budget, lo, seeds, seed_runs):
    """The one retrograde kernel with these un-moves, compiled once and cached (ImplicitKernels.solve):
    the implicit mode, and each tier of the tiered solver (explorer.tiered)."""
    return solve_cells(implicit_initial, predecessors, valid, move_count, terminal, ctx, max_unmoves, cells, queue,
                       state, budget, lo, seeds, seed_runs)


def forward(ctx, max_moves, lo, cells, child_lo, child_cells, status):
    """The one-pass solve of a loop-free tier with these moves, compiled once and cached (ImplicitKernels.forward)."""
    return forward_cells(labelled_successors, valid, terminal, ctx, max_moves, lo, cells, child_lo, child_cells,
                         status)


def moves_of(ctx, max_moves, codes, sources, targets, labels):
    """Every move of many indices (ImplicitKernels.moves_of), cached."""
    return map_successors(labelled_successors, ctx, max_moves, codes, sources, targets, labels)


def terminal_of(ctx, codes, out):
    """The terminal value of many indices (ImplicitKernels.terminal_of), cached."""
    map_terminal(terminal, ctx, codes, out)


TEMPLATES = {"solve": (solve, True), "forward": (forward, True), "moves_of": (moves_of, False),
             "terminal_of": (terminal_of, False)}  # name: (template, parallel)
_CALLEES = {"solve_cells": solve_cells, "implicit_initial": implicit_initial, "forward_cells": forward_cells,
            "map_successors": map_successors, "map_terminal": map_terminal}


def cached_wrappers(namespace: dict, *names: str) -> tuple:
    """The wrappers `names` (of TEMPLATES) of a game's kernels module, given as its `globals()`, in that
    order; called at its top level after its own functions, the result bound to the same names. Each is
    `@njit(cache=True, nogil=True)` (and `parallel=True` for the solves), reading the module's `predecessors`, `valid`, `move_count`,
    `terminal` and `labelled_successors`. Raises ValueError for an unknown name, and when the module
    already binds a name the wrappers need to something else."""
    unknown = [name for name in names if name not in TEMPLATES]
    if unknown:
        raise ValueError(f"no wrapper template {', '.join(unknown)}: choose among {', '.join(TEMPLATES)}")
    for name, callee in _CALLEES.items():
        if namespace.setdefault(name, callee) is not callee:
            raise ValueError(f"{namespace['__name__']} binds {name} to something else than the shared kernel")
    made = []
    for name in names:
        template, parallel = TEMPLATES[name]
        code = template.__code__.replace(co_filename=namespace["__file__"])
        function = types.FunctionType(code, namespace, name)
        function.__doc__ = template.__doc__
        function.__qualname__ = name
        made.append(njit(cache=True, nogil=True, parallel=parallel)(function))
    return tuple(made)
