"""Value-file solves started from the page: "Solve it here" on a game too large for a graph (issue 35: every
game opens, Dōbutsu shōgi's solved game included, from the README's main command alone).

A job is the CLI's own command, `gamegraph solve SPEC --implicit` (or `--tiered`), run in a process of its
own session, so that it outlives the page's rerun, the visitor's tab and the Streamlit server (a solve of
minutes should not die with a reload). Its output, progress bars included (GAMEGRAPH_PROGRESS=1), goes to a
log in the state folder, `jobs/<game>.log`, and its process id and start to `jobs/<game>.json` (owner-only,
written whole: explorer.core.private). The page reads them back: a job is running while its process lives,
done when the game's value file or tiers are stored (explorer.solved.stored_values: the page then opens
it), and failed otherwise, with the log's last line, the CLI's one-line refusal or error.

One job per game and state folder: a second visitor, or a second click, finds the first one. Memory is
checked before the process starts (the CLI checks again: implicit.check_memory, tiered.check_size).

Nothing here imports Streamlit: tests drive it directly.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from explorer.core import private, settings
from explorer.core.errors import GameGraphError
from explorer.games import Game

RUNNING, DONE, FAILED = "running", "done", "failed"
LOG_TAIL = 8192        # bytes of the log read for its last line
PROGRESS_WIDTH = 100   # columns of the progress bar in the log (tqdm reads COLUMNS)


@dataclass(frozen=True)
class Job:
    """A solve started from the page: its game, command, process and start (seconds since the epoch)."""

    spec: str
    command: tuple[str, ...]
    pid: int
    started: float
    log: Path

    def status(self, game: Game) -> str:
        """RUNNING while its process lives; DONE when the game's values are stored; FAILED otherwise."""
        from explorer.solved import stored_values

        if _alive(self.pid):
            return RUNNING
        return DONE if stored_values(game) else FAILED

    def last_line(self) -> str:
        """The log's last non-empty line, a progress bar's latest state included (they redraw with a carriage
        return): what the solve is doing now, or why it stopped."""
        try:
            with open(self.log, "rb") as handle:
                handle.seek(max(0, handle.seek(0, os.SEEK_END) - LOG_TAIL))
                tail = handle.read().decode("utf-8", "replace")
        except OSError:
            return ""
        parts = [p.strip() for p in re.split(r"[\r\n]", tail) if p.strip()]
        return parts[-1] if parts else ""

    def elapsed(self) -> float:
        return max(0.0, time.time() - self.started)


def _paths(game: Game) -> tuple[Path, Path]:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", game.display_name)
    return private.state_path("jobs", f"{stem}.json"), private.state_path("jobs", f"{stem}.log")


def _alive(pid: int) -> bool:
    """Whether `pid` is a live solve of ours (not a zombie, not another process that took its number after a
    restart): /proc's state and command line where there is one, else a signal 0."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            if handle.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                return False
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"explorer.cli" in handle.read()
    except FileNotFoundError:
        return False
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def current(game: Game) -> Job | None:
    """The game's latest job in the state folder, or None (none started, or its record unreadable)."""
    record, log = _paths(game)
    try:
        data = json.loads(record.read_text())
        return Job(str(data["spec"]), tuple(data["command"]), int(data["pid"]), float(data["started"]), log)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def command(game: Game) -> tuple[str, ...]:
    """The CLI's solve of the game into a value file or tiers (explorer.tiered.edgeless_flag), as run."""
    from explorer.tiered import edgeless_flag

    flag = edgeless_flag(game)
    if flag is None:
        raise GameGraphError(f"{game.display_name} cannot be solved without its moves (no ranking and un-moves); "
                             "choose smaller parameters")
    return ("gamegraph", "solve", game.display_name, flag)


def start(game: Game) -> Job:
    """Start the game's solve in the background, or return the one already running. Refused in one line
    (GameGraphError) when the game cannot be solved so, or the memory it needs is not available now."""
    job = current(game)
    if job is not None and _alive(job.pid):
        return job
    words = command(game)
    if words[-1] == "--implicit":
        from explorer.implicit import check_memory
        check_memory(game)
    record, log = _paths(game)
    private.ensure_private_dir(record.parent)
    env = {**os.environ, settings.PROGRESS_ENV: "1", "COLUMNS": str(PROGRESS_WIDTH), "PYTHONUNBUFFERED": "1"}
    with open(os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600), "wb") as out:
        # The log's first line, what the page shows until the solver's own progress comes (building a large
        # game's kernels and tables takes a while before its first progress line).
        out.write(f"$ {' '.join(words)}: started {time.strftime('%H:%M:%S')}\n".encode())
        out.flush()
        process = subprocess.Popen([sys.executable, "-m", "explorer.cli", *words[1:]], stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                   cwd=str(record.parent))
    # Reaped when it ends, so that it leaves no zombie behind in a server that runs on.
    threading.Thread(target=process.wait, name=f"solve {game.display_name}", daemon=True).start()
    job = Job(game.display_name, words, process.pid, time.time(), log)
    with private.atomic_private_file(record) as handle:
        handle.write(json.dumps({"spec": job.spec, "command": list(words), "pid": job.pid,
                                 "started": job.started}).encode())
    return job
