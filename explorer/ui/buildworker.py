"""Child process of the page's registry (explorer/ui/builds.py): build one graph into the cache, then exit.

Usage: python -m explorer.ui.buildworker GRAPH_ID MAX_POSITIONS ADDRESS_SPACE_BYTES

The address space is capped (RLIMIT_AS), so a build that outgrows its
estimate fails with MemoryError here, reported in one line, instead of
pushing the machine into swap or the OOM killer. Exit 0 when the cache holds
the graph; 2 with one line on stderr otherwise.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    graph_id, max_positions, address_space = argv[0], int(argv[1]), int(argv[2])
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or address_space < hard:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, hard))
    except (ImportError, ValueError, OSError):
        pass  # no limit on this platform: the estimate alone guards the memory
    from explorer.core.errors import GameGraphError
    from explorer.graph import parse_graph_id
    from explorer.core.limits import human_bytes
    from explorer.solved import load_or_build
    try:
        game, symmetric = parse_graph_id(graph_id)
        load_or_build(game, symmetry=symmetric, max_positions=max_positions)
    except GameGraphError as exc:
        print(f"gamegraph: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"gamegraph: error: {graph_id} is too large: building it ran out of the "
              f"{human_bytes(address_space)} of memory the page allows a build", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
