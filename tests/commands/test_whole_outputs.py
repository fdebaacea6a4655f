"""Issue 40, round two: outputs appear whole or not at all and keep their mode; caches that are no files are
refused; `survey` refuses ranges it cannot use; a full disk is one line.

- `export --format neo4j-import -o DIR` fills a hidden sibling of DIR and renames it into place at the end:
  an error, SIGINT, SIGTERM or a full disk leaves no DIR (it left DIR with moves.csv only), and what a SIGKILL
  leaves is removed by the next run (explorer.core.files.output_folder, remove_stale_partials);
- a file replaced keeps its mode (0600 stayed 0600? it became 0644), a symlink's target too, and a read-only
  one is refused without --force (export, dot, certificate, survey, cgt --thermograph: explorer.core.files.output_file);
- a FIFO at a cache path blocked `query ... stats` for ever: one line now (explorer.core.private.cache_path);
- `survey --fingers 99999999..99999999` said "0 rule sets", `--fingers 1..3` dropped 1, `--range overflow=1..2`
  and `survey nim --range heaps=1..3` were ignored: each is one line naming the parameter and what it allows;
- a full disk met by survey's cache or by numba saving its own was an internal error.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run(home, *argv: str, env: dict | None = None, timeout: float = 180) -> subprocess.CompletedProcess:
    full = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0", "NEO4J_URI": "bolt://127.0.0.1:1",
            **(env or {})}
    full.pop("NEO4J_PASSWORD", None)
    return subprocess.run([sys.executable, "-m", "explorer.cli", *argv], capture_output=True, text=True, env=full,
                          timeout=timeout, cwd=REPO, stdin=subprocess.DEVNULL)


def one_line(out: subprocess.CompletedProcess, needle: str, code: int = 2) -> str:
    assert out.returncode == code, (out.returncode, out.stdout[-300:], out.stderr[-2000:])
    lines = [line for line in out.stderr.strip().splitlines() if line]
    assert len(lines) == 1, out.stderr
    assert needle in lines[0] and "Traceback" not in out.stderr and "internal error" not in lines[0], lines[0]
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


# -- nothing half-written -------------------------------------------------------------------------------
# A child that runs the CLI with the game.csv writer held for a minute, once moves.csv is written: the signal
# then lands in the middle of the folder's writing, every time.
HELD = """
import signal, sys, time
# SIGINT as a terminal gives it: a runner that starts the suite in the background (`cmd &`) starts it with SIGINT
# ignored, which Python then leaves so (no KeyboardInterrupt): ci15 waited 60 s on the held export
signal.signal(signal.SIGINT, signal.default_int_handler)
import loaders.neo4j_import as imp
written = imp._write
def held(path, *args, **kwargs):
    print("HELD", flush=True)
    time.sleep(60)
    return written(path, *args, **kwargs)
imp._write = held
from explorer.cli import main
sys.exit(main(sys.argv[1:]))
"""


def held_export(home: Path, out: Path) -> subprocess.Popen:
    env = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0"}
    child = subprocess.Popen([sys.executable, "-c", HELD, "export", "chopsticks", "--format", "neo4j-import",
                              "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                             cwd=REPO)
    assert child.stdout.readline().strip() == "HELD", child.communicate(timeout=60)
    partial, = [p for p in out.parent.iterdir() if p.name.endswith(".partial")]  # the folder being filled
    assert (partial / "moves.csv").exists() or (partial / "positions.csv").exists()
    assert not out.exists()  # nobody sees the half-written folder under its name
    return child


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_an_interrupted_neo4j_import_export_leaves_no_folder(tmp_path, sig, code):
    out = tmp_path / "import"
    child = held_export(tmp_path / "home", out)
    child.send_signal(sig)
    _, err = child.communicate(timeout=60)
    assert child.returncode == code, err
    assert err.strip().splitlines()[-1] == "gamegraph: interrupted"
    assert not out.exists() and leftovers(tmp_path) == []


def test_what_a_killed_export_leaves_is_removed_by_the_next_run(tmp_path):
    out = tmp_path / "import"
    child = held_export(tmp_path / "home", out)
    child.kill()
    child.communicate(timeout=60)
    assert len(leftovers(tmp_path)) == 1 and not out.exists()  # SIGKILL: nothing can run on the way out
    done = run(tmp_path / "home", "export", "chopsticks", "--format", "neo4j-import", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["game.csv", "moves.csv", "positions.csv", "schema.cypher",
                                                     "start.csv"]
    assert leftovers(tmp_path) == []
    assert f"--nodes=Position={out.resolve()}/positions.csv" in done.stderr  # the command names the real folder


def test_a_full_disk_during_a_neo4j_import_export_leaves_no_folder_and_one_line(tmp_path, monkeypatch, capsys):
    import loaders.neo4j_import as imp
    from explorer.cli import main
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    written = imp._write

    def full(path, *args, **kwargs):  # game.csv meets the full disk after moves.csv and positions.csv
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
    monkeypatch.setattr(imp, "_write", full)
    (tmp_path / "empty").mkdir(mode=0o750)
    for out in (tmp_path / "import", tmp_path / "empty"):
        assert main(["export", "chopsticks", "--format", "neo4j-import", "-o", str(out)]) == 2
        line = capsys.readouterr().err.strip()
        assert "\n" not in line and "No space left on device" in line and str(out) in line and ".partial" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "home"]
    assert list((tmp_path / "empty").iterdir()) == []
    monkeypatch.setattr(imp, "_write", written)
    assert main(["export", "chopsticks", "--format", "neo4j-import", "-o", str(tmp_path / "empty")]) == 0
    assert stat.S_IMODE((tmp_path / "empty").stat().st_mode) == 0o750  # the empty folder's mode is kept
    assert len(list((tmp_path / "empty").iterdir())) == 5


def test_a_full_disk_met_by_the_survey_cache_is_a_note_and_the_answer(tmp_path, monkeypatch, capsys):
    from explorer.cli import main
    from explorer.core import private
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))

    def full(path):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
    monkeypatch.setattr(private, "atomic_private_file", full)
    assert main(["survey", "chopsticks", "--fingers", "2..3", "--no-cache"]) == 0
    out, err = capsys.readouterr()
    assert "rule sets: first player wins" in out
    note, = err.strip().splitlines()  # said once, not once per rule set
    assert note.startswith("gamegraph: note: surveyed without the cache") and "No space left" in note


def test_a_full_disk_anywhere_else_is_one_line(tmp_path, monkeypatch, capsys):
    """numba saving its cache (or any library's write) meets the disk outside gamegraph's writers."""
    from explorer import cli
    from explorer.commands import core
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))

    def numba_saves(args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/x/numba/retrograde.solve_cells-1.py311.nbi")
    monkeypatch.setattr(core, "cmd_solve", numba_saves)
    assert cli.main(["solve", "nim:small"]) == 2
    line = capsys.readouterr().err.strip()
    assert line.startswith("gamegraph: error: the disk is full writing '/x/numba/") and "\n" not in line


# -- modes kept, read-only refused ----------------------------------------------------------------------
OUTPUTS = [
    ("export", ["export", "nim:small", "-o", "{out}"]),
    ("certificate", ["certificate", "nim:small", "-o", "{out}"]),
    ("dot", ["dot", "nim:small", "shortest-win", "-o", "{out}"]),
    ("survey", ["survey", "chopsticks", "--fingers", "2..3", "-o", "{out}"]),
    ("cgt", ["cgt", "domineering(rows=2,cols=3)", "--thermograph", "{out}"]),
]
SUFFIX = {"export": ".jsonl", "certificate": ".json", "dot": ".dot", "survey": ".txt", "cgt": ".svg"}


@pytest.mark.parametrize("command, argv", OUTPUTS, ids=[c for c, _ in OUTPUTS])
def test_an_existing_output_keeps_its_mode_and_a_read_only_one_needs_force(tmp_path, monkeypatch, capsys,
                                                                             command, argv):
    from explorer.cli import main
    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "home"))
    old = os.umask(0o022)
    try:
        private_file = tmp_path / f"private{SUFFIX[command]}"
        private_file.write_text("old")
        private_file.chmod(0o600)
        assert main([a.format(out=private_file) for a in argv]) == 0
        assert stat.S_IMODE(private_file.stat().st_mode) == 0o600 and private_file.read_text() != "old"

        target = tmp_path / "target"
        target.write_text("old")
        target.chmod(0o640)
        link = tmp_path / f"link{SUFFIX[command]}"
        link.symlink_to(target)
        assert main([a.format(out=link) for a in argv]) == 0
        assert link.is_symlink() and stat.S_IMODE(target.stat().st_mode) == 0o640 and target.read_text() != "old"

        read_only = tmp_path / f"read-only{SUFFIX[command]}"
        read_only.write_text("old")
        read_only.chmod(0o444)
        capsys.readouterr()
        assert main([a.format(out=read_only) for a in argv]) == 2
        line = capsys.readouterr().err.strip()
        assert "\n" not in line and "read-only" in line and "--force" in line, line
        assert read_only.read_text() == "old"
        assert main([a.format(out=read_only) for a in argv] + ["--force"]) == 0
        assert read_only.read_text() != "old" and stat.S_IMODE(read_only.stat().st_mode) == 0o444
    finally:
        os.umask(old)


# -- a cache path that is no file ------------------------------------------------------------------------
def test_a_fifo_at_a_cache_path_is_one_line_and_never_blocks(tmp_path, monkeypatch):
    from explorer.games import parse_spec
    from explorer.solved import cache_path as graph_path
    from loaders.mirror import mirror_path

    home = tmp_path / "home"
    assert run(home, "solve", "nim:small").returncode == 0
    monkeypatch.setenv("GAMEGRAPH_HOME", str(home))
    game = parse_spec("nim:small")
    fifo, graph = mirror_path(game), graph_path(game, game.has_symmetry())
    assert graph.exists() and not fifo.exists()
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    began = time.monotonic()
    line = one_line(run(home, "query", "nim:small", "stats", timeout=120), "FIFO")
    assert str(fifo) in line and time.monotonic() - began < 120
    graph.unlink()
    os.mkfifo(graph)
    one_line(run(home, "show", "nim:small", timeout=120), "FIFO")
    assert stat.S_ISFIFO(fifo.stat().st_mode) and stat.S_ISFIFO(graph.stat().st_mode)  # left for the user


def test_a_fifo_inside_a_folder_cache_is_one_line_and_never_blocks(tmp_path, monkeypatch):
    """An implicit value folder's meta.json as a FIFO blocked `show` for ever: one line naming it, for `show`
    and for `solve` (which would have replaced it), and the FIFO left for the user."""
    from explorer.games import parse_spec
    from explorer.implicit import folder_for

    home = tmp_path / "home"
    assert run(home, "solve", "dodgem:3x3", "--implicit").returncode == 0
    monkeypatch.setenv("GAMEGRAPH_HOME", str(home))
    meta = folder_for(parse_spec("dodgem:3x3")) / "meta.json"
    meta.unlink()
    os.mkfifo(meta)
    for argv in (["show", "dodgem:3x3"], ["solve", "dodgem:3x3", "--implicit"]):
        line = one_line(run(home, *argv, timeout=120), "FIFO")
        assert str(meta) in line, line
    assert stat.S_ISFIFO(meta.stat().st_mode)


# -- survey ranges -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, needles", [
    (["chopsticks", "--fingers", "99999999..99999999"], ["fingers", "from 2 to"]),
    (["chopsticks", "--fingers", "1..3"], ["fingers", "from 2 to"]),
    (["chopsticks", "--range", "overflow=1..2"], ["overflow", "cutoff, rollover", "whole-number parameters are fingers"]),
    (["chopsticks", "--range", "suicide=0..1"], ["suicide", "true or false"]),
    (["nim", "--range", "heaps=1..3"], ["heaps", "no whole-number parameter"]),
    (["domineering", "--range", "rows=0..2"], ["rows", "from 1 to 8"]),
])
def test_survey_refuses_a_range_it_cannot_use(tmp_path, argv, needles):
    line = one_line(run(tmp_path / "home", "survey", *argv), needles[0])
    for needle in needles:
        assert needle in line, line


def test_survey_refuses_a_value_no_rule_set_can_take(monkeypatch):
    """A value inside the declared bounds that the game's own validate() refuses in every combination."""
    import dataclasses

    from explorer.analysis import survey
    from explorer.core.errors import InvalidParameter
    from explorer.games import game_class

    cls = game_class("domineering")
    real = cls.Params.validate

    def validate(self):
        if self.rows == 2:
            raise InvalidParameter("rows=2 is not played here")
        real(self)
    monkeypatch.setattr(cls.Params, "validate", validate)
    with pytest.raises(InvalidParameter, match=r"rows=1\.\.3: domineering has no rule set with rows=2 \(rows=2 is "
                                               r"not played here\)"):
        survey.grid("domineering", {"rows": range(1, 4)})
    assert {g.params.rows for g in survey.grid("domineering", {"rows": range(3, 5)})} == {3, 4}
    assert dataclasses.is_dataclass(cls.Params)


# -- nothing outside the state folder ----------------------------------------------------------------------
def test_a_tiered_solve_leaves_nothing_in_the_temporary_folder(tmp_path):
    """Dask's scheduler and nanny made dask-scratch-space (two lock files) in the system's temporary folder."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = run(tmp_path / "home", "solve", "dodgem:3x3", "--tiered", "--workers", "1",
               env={"TMPDIR": str(scratch)}, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert list(scratch.iterdir()) == []
    assert (tmp_path / "home" / "dask" / "dask-scratch-space").is_dir()


@pytest.mark.parametrize("stop, code", [(KeyboardInterrupt, 130), ("Terminated", 143)])
def test_an_interrupt_while_the_arguments_are_parsed_is_one_line(monkeypatch, capsys, stop, code):
    """The fuzz's signals at a random moment found a SIGINT or SIGTERM during argument parsing escaping as a
    KeyboardInterrupt traceback (the command's own run already said `gamegraph: interrupted`)."""
    from explorer import cli
    stop = cli.Terminated if stop == "Terminated" else stop

    def interrupted(*args, **kwargs):
        raise stop()
    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["games"]) == code
    assert capsys.readouterr().err == "gamegraph: interrupted\n"
