"""The tiered solver (a package: `tiers` the declarations, `files` the tier files, `worker` the work of one
task, `dag` the Dask DAG and its progress, `reader` the tier files read back, `manager` the whole solve): a game's ranking solved tier by tier, the tier DAG run by Dask.distributed.

A game may split its ranking into tiers (offers.tiers, explorer.games.base.Tiers): every
move stays in its tier or goes to a *child* tier, and the tiers form a DAG, as in
GamesmanOne. A game without tiers is one tier, the whole ranking, so the implicit mode
(explorer.implicit) is the one-tier case of the same range solve (`implicit.solve_range`).

A tier is solved by the one compiled retrograde loop (explorer.kernels.retrograde.solve_cells)
over its index range, its children's decided positions entering the loop as *seeds*, read
from their tier files memory-mapped and read-only, a window at a time (`SeedWindows`).
Cycles inside a tier are allowed. Each tier is written to ``tier-<t>.values`` atomically and owner-only
(explorer.core.private); a tier already written is never solved again, so an interrupted
solve resumes from the tiers it finished. A tier file holds the kernel's final cell per
position (uint16, or uint32 when a remoteness needs it): the value code in the low 3 bits
(explorer.core.values.Value; 6 = no position) and the remoteness above it.
`_write_tier` and `_open_tier` are the only functions that know that layout on disk.

Dask.distributed (`dask`, `distributed` from PyPI) runs the DAG: one task per tier, given the
game's spec (parsed again in the worker) and the tier, its children's futures as its
dependencies; a loop-free tier is cut into chunks, one task each, and a merge (`forward_ranges`),
so that several workers share it. By default a LocalCluster of worker *processes* on this machine's cores, one
thread each; `scheduler=ADDRESS` (or DASK_SCHEDULER_ADDRESS) uses an existing cluster
whose workers see the same folder. docs/distributed.md says how and why.
"""

import os  # noqa: F401  (tests patch tiered.os.cpu_count)

from explorer.tiered.dag import (  # noqa: F401
    CONNECT_SECONDS, POLL_SECONDS, PROGRESS_TOPIC, SCHEDULER_VARIABLE, WORKERS_PER_CORE, _as_finished, _client,
    _connect, _DagProgress, _run_dag, check_local_workers, max_local_workers, scheduler_address)
from explorer.tiered.files import (  # noqa: F401
    CACHE_KIND, FORMAT, NO_POSITION, TierSummary, _compress_tier, _open_store,
    _open_tier, _part_path, _remove_parts, _summarize, _tier_path, _write_tier, folder_for)
from explorer.tiered.manager import _claim, _compress_all, _write_meta, solve  # noqa: F401
from explorer.tiered.reader import TieredValues, exists, open_solved, open_values, solved_exists  # noqa: F401
from explorer.tiered.tiers import (  # noqa: F401
    _is_loop_free, _require, check_size, check_tiers, edgeless_flag, supports, tier_memory, tiers_of)
from explorer.tiered.worker import (  # noqa: F401
    FORWARD_TASKS_PER_WORKER, MIN_FORWARD_CHUNK, PROGRESS_SECONDS, SEED_WINDOW_MIN, SEED_WINDOW_PASSES,
    SEED_WINDOW_SHARE, TIER_PROGRESS_STEP, _quiet_task, _solve_forward, _solve_tier_task, _warm_up, _worker_report,
    forward_ranges, merge_forward_chunks, seed_window_capacity, solve_forward_chunk, solve_tier)
