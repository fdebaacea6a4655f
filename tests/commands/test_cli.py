"""The core CLI as a user runs it: real subprocesses, real exit codes, no tracebacks."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import subprocess
import sys

import pytest

from explorer.games import parse_spec
from explorer.solved import build


def run(*args: str, home) -> subprocess.CompletedProcess:
    env = {"GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0", "PATH": "/usr/bin:/bin"}
    import os
    env = {**os.environ, **env}
    # 600 s: a guard against a hang, not a measure; `up` of every Chopsticks preset and the small games, compiled in
    # the child, came near 120 s under CI's load (session 27, helper H34)
    return subprocess.run([sys.executable, "-m", "explorer.cli", *args], capture_output=True, text=True, env=env, timeout=600)


@pytest.fixture
def home(tmp_path):
    return tmp_path / "state"


def test_games_lists_every_game_preset_and_parameter(home):
    out = run("games", "--format", "json", home=home)
    assert out.returncode == 0, out.stderr
    listing = {g["name"]: g for g in json.loads(out.stdout)}
    assert {"chopsticks", "tictactoe", "nim"} <= set(listing)
    assert set(listing["chopsticks"]["presets"]) == {"standard", "magic-fingers", "even-split", "rollover-even-split",
                                                     "tap-dead-transfer", "attack-only", "rollover"}
    assert {p["name"] for p in listing["chopsticks"]["parameters"]} == {"fingers", "overflow", "attack_dead", "split", "suicide", "swaps"}
    text = run("games", home=home)
    assert "chopsticks:magic-fingers" in text.stdout


def test_solve_reports_both_graphs_and_agrees_with_library(home):
    out = run("solve", "chopsticks:magic-fingers", "--format", "json", home=home)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    solved = build("chopsticks:magic-fingers")
    assert report["value"] == str(solved.value(0))
    assert report["graphs"]["reduced"]["positions"] == solved.graph.num_positions
    assert report["graphs"]["full"]["positions"] > report["graphs"]["reduced"]["positions"]
    assert sum(report["graphs"]["reduced"]["counts"].values()) == solved.graph.num_positions


def test_show_lists_every_move_with_its_value(home):
    out = run("show", "chopsticks", "A|3-1|1-1", "--format", "json", home=home)
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["key"] == "A|1-3|1-1"  # canonical form of what was typed
    game = parse_spec("chopsticks")
    successors = {game.key(m.position) for m in game.moves(game.parse("A|1-3|1-1"))}
    assert {m["to"] for m in shown["moves"]} == successors
    assert "A|1-3|1-1" in run("show", "chopsticks", "A|3-1|1-1", home=home).stdout


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_export_positions_and_edges(home, tmp_path, fmt):
    target = tmp_path / f"standard.{fmt}"
    out = run("export", "chopsticks:standard", "--format", fmt, "-o", str(target), home=home)
    assert out.returncode == 0, out.stderr
    text = target.read_text()
    if fmt == "jsonl":
        records = [json.loads(line) for line in text.splitlines()]
    else:
        records = list(csv.DictReader(io.StringIO(text)))
    solved = build("chopsticks:standard")
    assert len(records) == solved.graph.num_positions
    first = records[0]
    for column in ("key", "to_move", "value", "remoteness", "terminal", "on_cycle", "hands"):
        assert column in first
    hands = first["hands"] if fmt == "jsonl" else json.loads(first["hands"])
    assert hands == [[1, 1], [1, 1]]
    edges = run("export", "chopsticks:standard", "--format", fmt, "--edges", home=home)
    assert edges.returncode == 0
    lines = edges.stdout.strip().splitlines()
    assert len(lines) == solved.graph.num_moves + (1 if fmt == "csv" else 0)


def test_chart_covers_every_live_pair(home):
    out = run("chart", "chopsticks:magic-fingers", "--format", "json", home=home)
    assert out.returncode == 0, out.stderr
    cells = json.loads(out.stdout)
    assert len(cells) == 14 * 14  # unordered pairs with a live hand, for 5 fingers
    game = parse_spec("chopsticks:magic-fingers")
    # The start cell agrees with the solver run from the start.
    start = next(c for c in cells if c["mover"] == "1-1" and c["opponent"] == "1-1")
    assert start["value"] == str(build(game).value(0))
    text = run("chart", "chopsticks:magic-fingers", home=home).stdout
    assert "forced win" in text


@pytest.mark.parametrize("args, needle", [
    (("solve", "chess"), "unknown game 'chess'"),
    (("solve", "chopsticks:nope"), "unknown preset 'nope'"),
    (("solve", "chopsticks(fingers=1)"), "fingers=1"),
    (("solve", "chopsticks(colour=red)"), "unknown parameter 'colour'"),
    (("show", "chopsticks", "A|1-1"), "invalid chopsticks position 'A|1-1'"),
    (("show", "chopsticks", "A|9-1|1-1"), "not 9"),
    (("show", "tictactoe", "XXX/OOO/..."), "earlier win"),
    (("chart", "tictactoe"), "tictactoe offers no strategy chart: chopsticks does"),
    (("solve", "chopsticks(fingers=20)", "--max-positions", "1000"), "the limit of 1,000 positions"),
    (("export", "chopsticks", "--format", "neo4j-import"), "-o DIR"),
    # found by a stranger's run (session 6): advice that led nowhere, an option silently ignored,
    # a folder output that made its missing parents
    (("show", "tictactoe", "--implicit"), "no implicit mode"),
    (("solve", "dodgem:3x3", "--implicit", "--max-positions", "10"), "drop --max-positions"),
    (("export", "chopsticks", "--format", "neo4j-import", "-o", "/nonexistent-gg/deep/dir"), "No such file or directory"),
    (("solve", "dodgem(size=99999999999999999999)"), "it has 20 digits"),
    # argparse's own errors: one line too, naming the command's --help
    (("query", "ponghauki", "draw-levels", "--backend", "sqlite"), "invalid choice: 'sqlite'"),
    (("diff", "chopsticks", "chopsticks:rollover", "--limit", "-1"), "gamegraph diff --help"),
    (("draws", "ponghauki", "R|BB/./RR", "extra"), "unrecognized arguments: extra"),
    ((), "required: COMMAND"),
])
def test_bad_input_is_one_clear_line(home, args, needle):
    out = run(*args, home=home)
    assert out.returncode == 2
    assert needle in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [
    ("query", "tictactoe", "path", "--target", "x"),
    ("show", "nim", "--bogus"),
    ("neo4j", "status", "--bogus"),
    ("draws", "ponghauki", "R|BB/./RR", "extra"),
    ("cgt", "--value", "1", "--bogus"),
])
def test_an_argument_a_subcommand_does_not_know_names_that_subcommand_s_help(home, args):
    """`gamegraph query tictactoe path --target x` pointed at `gamegraph --help`: argparse hands a subcommand's
    unknown arguments up to the top parser. Each names its own help now."""
    out = run(*args, home=home)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert out.stderr.startswith(f"gamegraph {args[0]}: error: unrecognized arguments"), out.stderr
    assert f"(see `gamegraph {args[0]} --help`)" in out.stderr and "Traceback" not in out.stderr


def test_argparse_s_messages_are_escaped_and_bounded(home):
    """argparse quoted the arguments raw and whole: ESC[2J cleared the terminal, 100,000 characters came back."""
    for args in (("show", "nim", "--bogus", "\x1b[2J" + "é" * 50_000), ("solve", "nim", "--max-positions", "\r" * 100_000),
                 ("neo4j", "\u2028\x1b[31m")):
        out = run(*args, home=home)
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr[:500]
        assert "\x1b" not in out.stderr and "\r" not in out.stderr and "\u2028" not in out.stderr
        assert len(out.stderr) < 600 and "--help`)" in out.stderr, out.stderr


def test_failed_export_leaves_no_partial_file(home, tmp_path):
    target = tmp_path / "out.jsonl"
    out = run("export", "chopsticks(fingers=30)", "--max-positions", "100", "-o", str(target), home=home)
    assert out.returncode == 2
    assert not target.exists() and not list(tmp_path.glob("*.partial"))


@pytest.mark.slow
def test_up_prepares_every_chopsticks_preset_without_neo4j(home):
    out = run("up", "--no-ui", "--no-neo4j", home=home)
    assert out.returncode == 0, out.stderr
    from explorer.games.chopsticks.rules import Chopsticks
    for preset in Chopsticks.presets:
        assert f"chopsticks:{preset} " in out.stderr
    assert "networkx + Neo4j" not in out.stderr
    assert len(list((home / "mirrors").glob("chopsticks-*.npz"))) == len(Chopsticks.presets)
    from explorer.commands.up import SMALL_GAMES
    for spec in SMALL_GAMES:  # the classic loopy games come ready too
        assert f"{spec} " in out.stderr
        assert list((home / "mirrors").glob(f"{parse_spec(spec).name}-*.npz"))


@pytest.mark.slow
@pytest.mark.neo4j
def test_up_loads_every_preset_into_neo4j(neo4j_server, tmp_path):
    import os

    from loaders import neo4j_loader
    from loaders.settings import open_driver
    from explorer.games.chopsticks.rules import Chopsticks

    from explorer.core.settings import state_dir

    # The same state folder as the running server, so `up` finds it instead of starting another.
    env = {**os.environ, "GAMEGRAPH_PROGRESS": "0", "GAMEGRAPH_HOME": str(state_dir()),
           "NEO4J_PASSWORD": neo4j_server.password, "NEO4J_URI": neo4j_server.uri}
    out = subprocess.run([sys.executable, "-m", "explorer.cli", "up", "--no-ui"], capture_output=True, text=True,
                         env=env, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    from explorer.solved import load_or_build

    driver = open_driver(neo4j_server)
    try:
        from explorer.commands.up import SMALL_GAMES
        for spec in [f"chopsticks:{preset}" for preset in Chopsticks.presets] + SMALL_GAMES:
            solved = load_or_build(spec)  # the solve `up` kept in this state folder, not a second one (a solve is kept)
            game = neo4j_loader.game_properties(driver, neo4j_server.database, solved.graph.graph_id)
            assert game is not None and game["positions"] == solved.graph.num_positions, spec
            with driver.session(database=neo4j_server.database) as session:  # and every position and move is there
                assert neo4j_loader.count_game(session, solved.graph.graph_id) == (
                    solved.graph.num_positions, solved.graph.num_moves), spec
    finally:
        driver.close()


def one_error_line(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamegraph: error: ") and "Traceback" not in out.stderr, out.stderr
    return lines[0]


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_export_to_a_missing_folder_is_one_line(home, tmp_path, fmt):
    target = tmp_path / "missing" / f"out.{fmt}"
    line = one_error_line(run("export", "nim:small", "--format", fmt, "-o", str(target), home=home))
    assert f"cannot write {target}: No such file or directory" in line


def test_neo4j_import_into_an_existing_file_is_one_line_and_leaves_it_alone(home, tmp_path):
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "taken"
    target.write_text("mine\n")
    line = one_error_line(run("export", "nim:small", "--format", "neo4j-import", "-o", str(target), home=home))
    assert str(target) in line and "a file of that name exists" in line
    assert target.read_text() == "mine\n" and [p.name for p in target.parent.iterdir()] == ["taken"]


def test_neo4j_import_is_written_whole_and_atomically(home, tmp_path):
    folder = tmp_path / "import"
    out = run("export", "nim:small", "--format", "neo4j-import", "-o", str(folder), home=home)
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["game.csv", "moves.csv", "positions.csv", "schema.cypher",
                                                        "start.csv"]  # no temporary files left


def test_neo4j_import_refuses_a_start_position(home, tmp_path):
    """The import files hold a Game node marked complete under the game's id: only the whole game may go there."""
    folder = tmp_path / "import"
    line = one_error_line(run("export", "chopsticks", "--start", "A|1-1|1-2", "--format", "neo4j-import",
                              "-o", str(folder), home=home))
    assert "drop --start" in line
    assert not folder.exists()
    out = run("export", "chopsticks", "--start", "A|1-1|1-2", "--format", "csv", home=home)
    assert out.returncode == 0, out.stderr  # other formats still start anywhere


def test_up_builds_the_mirror_from_the_solved_graph_it_holds(tmp_path, monkeypatch):
    """`up` solves each preset once: the mirror is built from that SolvedGraph, not from a second cache read."""
    from explorer.commands import up
    from loaders import mirror

    monkeypatch.setenv("GAMEGRAPH_HOME", str(tmp_path / "state"))

    def no_second_read(*args, **kwargs):
        raise AssertionError("mirror_for read the solved graph again")

    monkeypatch.setattr(mirror, "load_or_build", no_second_read)
    up._prepare("chopsticks:standard", None, None)
    assert len(list((tmp_path / "state" / "mirrors").glob("chopsticks-*.npz"))) == 1


def test_help_and_games_import_no_heavy_package(tmp_path):
    """Start-up speed by construction (timed in bench/bench_startup.py, not here): the
    commands that need no graph library load none."""
    heavy = ("neo4j", "networkx", "scipy", "streamlit", "pandas", "graphviz", "tqdm")
    probe = ("import sys\nfrom explorer import cli\n"
             "try:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)")
    for args in (["--help"], ["games"], ["query", "--help"], ["load", "--help"], ["up", "--help"]):
        done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120,
                              env={**__import__("os").environ, "GAMEGRAPH_HOME": str(tmp_path)})
        loaded = set(done.stderr.split())
        assert "explorer" in loaded, done.stderr
        assert not loaded & set(heavy), (args, loaded & set(heavy))
        # A help text needs no arrays either: numpy alone was a quarter of a second of CPU of `--help`'s 0.45
        # (measured 2026-11-29; the commands read their limits from explorer.core.limits, not explorer.graph).
        if "--help" in args:
            assert "numpy" not in loaded, args



def test_a_query_or_a_diagram_on_the_mirror_loads_no_neo4j_driver(tmp_path):
    """`gamegraph query` and `dot` on the networkx mirror import neither the neo4j driver nor the pandas it pulls in
    (0.6 s of CPU at every start, measured 1.1 s against 0.5 s): queries.api imports its Neo4j side on first use."""
    probe = ("import sys\nfrom explorer import cli\n"
             "code = cli.main(sys.argv[1:])\n"
             "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)\nsys.exit(code)")
    drawn = tmp_path / "line.dot"
    answers = {}
    for args in (["query", "tictactoe", "stats"], ["dot", "tictactoe", "shortest-win", "-o", str(drawn)]):
        done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=300,
                              env={**__import__("os").environ, "GAMEGRAPH_HOME": str(tmp_path / "home")})
        assert done.returncode == 0, done.stderr
        loaded = set(done.stderr.split())
        assert "networkx" in loaded, done.stderr  # the mirror answered
        assert not loaded & {"neo4j", "pandas"}, (args, loaded & {"neo4j", "pandas"})
        answers[args[0]] = done.stdout
    assert "[by_value] (3 rows)" in answers["query"], answers["query"]  # the query answered
    assert drawn.read_text().startswith("digraph")
    from queries import api  # and the Neo4j side is still there, on first use
    assert api.Neo4jBackend.__module__ == "queries.neo4j_backend" and callable(api.run_readonly_cypher)


# -- bad input at the edge: one line, non-zero exit (tests/support/fuzz_cli.py tries thousands more) -----
@pytest.mark.parametrize("args, message", [
    (("show", "chopsticks", ""), "invalid chopsticks position '': malformed (empty)"),
    (("solve", "chopsticks", "--start", ""), "invalid chopsticks position ''"),
    (("show", "chopsticks", "A|" + "9" * 4301 + "-1|1-1"), "too long for a position"),
    (("up", "--no-ui", "--no-neo4j", "--port", "-1"), "argument --port: -1 is out of range"),
    (("ui", "--port", "0"), "argument --port: 0 is out of range"),
    (("ui", "--host", "bad host", "--port", "8599"), "--host 'bad host' is not a host name"),
    (("certificate", "chopsticks:attack-only", "-o", "."), "cannot write .: it names a folder"),
    (("load", "chopsticks", "--batch-size", "1"), "argument --batch-size: 1 is out of range: it must be from 50"),
    (("--backend", "neo4j", "games"), "--backend comes before the command; options go after it"),
])
def test_bad_input_is_one_line_and_a_non_zero_exit(home, args, message):
    out = run(*args, home=home)
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert message in lines[-1], out.stderr  # one error line, after argparse's usage lines if any
    assert sum("error:" in line for line in lines) == 1, out.stderr


def test_a_state_folder_that_is_a_file_is_one_line(tmp_path):
    (tmp_path / "state").write_text("")
    out = run("show", "nim:small", home=tmp_path / "state")  # solve keeps no state; show caches the graph
    assert out.returncode == 2 and "is a file, not a folder: set GAMEGRAPH_HOME to a folder" in out.stderr, out.stderr


def test_outputs_refuse_a_fifo_and_a_symlink_to_one(home, tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "link.json").symlink_to("pipe.json")
    for target in ("pipe.json", "link.json"):
        out = run("export", "nim:small", "-o", str(tmp_path / target), home=home)
        assert out.returncode == 2 and "it is a FIFO (named pipe), not a regular file" in out.stderr, out.stderr
    assert (tmp_path / "link.json").is_symlink() and stat.S_ISFIFO(os.lstat(tmp_path / "pipe.json").st_mode)


# -- issue 19: hard edges, each one clear line and a non-zero exit ------------------------------------
LONG_SPEC = "x" * 300
ISSUE_19_CASES = [
    # (argv, environment, what the line says)
    (("check-game", LONG_SPEC), {}, "unknown game"),
    (("check-game", LONG_SPEC + ".py"), {}, "File name too long"),
    (("solve", "chopsticks"), {"GAMEGRAPH_MEMORY": "9" * 309}, "GAMEGRAPH_MEMORY"),
    (("export", "chopsticks"), {"GAMEGRAPH_MEMORY": "9" * 400}, "GAMEGRAPH_MEMORY"),
    (("solve", "chopsticks"), {"GAMEGRAPH_MEMORY": "\u0663G"}, "GAMEGRAPH_MEMORY"),
    (("query", "toads-and-frogs", "cgt-equal", "--value", "1/0"), {}, "divides by zero"),
    (("play", "chopsticks", "--seed", "\uff13"), {}, "--seed"),
    (("play", "chopsticks", "--max-plies", "\u0663"), {}, "--max-plies"),
    (("query", "chopsticks", "stats", "--timeout", "\u0663"), {}, "--timeout"),
    (("survey", "chopsticks", "--fingers", "\u0662..\u0663"), {}, "whole numbers"),
    (("survey", "chopsticks", "--fingers", "2..3", "-o", ""), {}, "output file name is empty"),
    (("survey", "chopsticks", "--fingers", "2..3", "--range", "fingers=2..3"), {}, "given twice"),
    (("play", "chopsticks", "--opponent", "slip=1e-400"), {}, "slip=1e-400"),
    (("dot", "chopsticks", "shortest-win", "-o", "x.svg/"), {}, "names a folder"),
    (("ui", "--host", "", "--headless"), {}, "--host"),
    (("up", "--host", "", "--no-neo4j", "--no-ui"), {}, "--host"),
    (("export", "nim:small", "--format", "neo4j-import", "-o", "/"), {}, "not empty"),
]


@pytest.mark.parametrize("argv, env, needle", ISSUE_19_CASES, ids=[" ".join(c[0])[:40] for c in ISSUE_19_CASES])
def test_issue_19_reproductions_are_one_clear_line(home, tmp_path, argv, env, needle):
    full = {**os.environ, "GAMEGRAPH_HOME": str(home), "GAMEGRAPH_PROGRESS": "0", **env}
    out = subprocess.run([sys.executable, "-m", "explorer.cli", *argv], capture_output=True, text=True, env=full,
                         timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert out.returncode not in (0, 70), (out.returncode, out.stderr)
    line, = out.stderr.strip().splitlines()
    assert needle in line and "internal error" not in line and "Traceback" not in line
    assert not (tmp_path / "x.svg").exists()


def test_show_answers_when_the_cache_cannot_be_written(home, monkeypatch, capsys):
    """A full disk (ENOSPC from the cache writer): the answer, and one line on stderr saying why it is not cached."""
    import errno

    from explorer.solved import graph as solved  # the cache writer
    from explorer.cli import main

    monkeypatch.setenv("GAMEGRAPH_HOME", str(home))

    def full_disk(*_args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(solved, "_write", full_disk)
    assert main(["show", "nim:small", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["key"] == "A|1-2-3"
    line, = captured.err.strip().splitlines()
    assert line.startswith("gamegraph: note: answered without the cache") and "No space left on device" in line
    assert not list(home.glob("graphs/*.npz"))


def test_neo4j_import_goes_only_into_a_new_or_empty_folder(home, tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine\n")
    line = one_error_line(run("export", "nim:small", "--format", "neo4j-import", "-o", str(full), home=home))
    assert "not empty" in line and [p.name for p in full.iterdir()] == ["keep.txt"]
    (tmp_path / "empty").mkdir()
    assert run("export", "nim:small", "--format", "neo4j-import", "-o", str(tmp_path / "empty"), home=home).returncode == 0
    assert (tmp_path / "empty" / "positions.csv").exists()


def test_sigterm_mid_solve_leaves_no_half_written_folder(tmp_path):
    """SIGTERM while the implicit mode writes its value file: one line, exit 143, and the partial
    folder removed (the solve unwinds as on Ctrl-C instead of dying where it stands)."""
    import signal
    import time

    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path), "GAMEGRAPH_PROGRESS": "0"}
    # The same compiled kernels on a small board first: the signal must reach the solve, not numba's
    # first compilation (a signal in a ctypes callback is reported by Python, not raised).
    assert run("solve", "dodgem:3x3", "--implicit", home=tmp_path).returncode == 0
    solve = subprocess.Popen([sys.executable, "-m", "explorer.cli", "solve", "dodgem:5x5", "--implicit"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                             stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob("implicit/.*partial")) and time.monotonic() < deadline and solve.poll() is None:
        time.sleep(0.1)
    assert list(tmp_path.glob("implicit/.*partial")), "the solve began writing"
    time.sleep(1.0)  # into the solve itself
    solve.send_signal(signal.SIGTERM)
    out, err = solve.communicate(timeout=120)
    assert solve.returncode == 143 and err.strip().splitlines() == ["gamegraph: interrupted"], err
    assert not list(tmp_path.glob("implicit/.*partial"))
    assert len(list(tmp_path.glob("implicit/dodgem-*"))) == 1  # 3x3's value file only


def test_a_sigterm_after_the_command_is_done_ends_the_process_without_a_traceback(tmp_path):
    """SIGTERM that comes once main() has returned (the interpreter shutting down: the CLI fuzz sent one 0.91 s into
    an export, as it ended) used to raise Terminated where nothing catches it: a traceback under exit status 0. Sent
    here at that moment on purpose: the process ends as SIGTERM ends it, no traceback, its answer written."""
    script = ("import os, signal, sys, time; from explorer.cli import main; code = main(['games']); sys.stdout.flush(); "
              "os.kill(os.getpid(), signal.SIGTERM); time.sleep(5); sys.exit(code)")
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path), "GAMEGRAPH_PROGRESS": "0"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert "Traceback" not in done.stderr and "Terminated" not in done.stderr, done.stderr
    assert done.returncode == -15 and "tictactoe" in done.stdout, (done.returncode, done.stderr)


@pytest.mark.parametrize("command", ["show", "play"])
def test_a_game_too_large_for_a_graph_is_refused_naming_its_value_file(home, command):
    """show and play take no --max-positions: the refusal names the solve that makes the value file they
    read instead (Dōbutsu shōgi: its ranking is over 2**31, but its folded half is not), or smaller
    parameters for a game without one. At once, without a traceback, and nothing built."""
    done = run(command, "dobutsu", home=home)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "gamegraph solve dobutsu --implicit" in done.stderr
    assert "--max-positions" not in done.stderr and f"`{command}` then reads" in done.stderr
    done = run(command, "toads-and-frogs(board=TTTTTTTTTT..........FFFFFFFFFF)", home=home)
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "--max-positions" not in done.stderr


@pytest.mark.parametrize("spec, typed", [("tictactoe", "X../.O./..."), ("tictactoe", "..X/.O./..."),
                                         ("connect4:small", "..../..../..../X...")])
def test_show_names_each_move_as_played_on_the_board_typed(home, spec, typed):
    """A position typed in another orientation than the stored one: every move listed is a move of the
    typed board, reaching exactly the result printed beside it (not its mirror image)."""
    game = parse_spec(spec)
    done = run("show", spec, typed, home=home)
    assert done.returncode == 0, done.stderr
    board = game.parse(typed)
    legal = {(m.label, game.format(m.position)) for m in game.moves(board)}
    table = done.stdout.split("remoteness\n", 1)[1].split("\n\n", 1)[0]
    rows = [line[2:].split() for line in table.splitlines()]
    assert rows
    for row in rows:
        at = next(i for i, token in enumerate(row) if "/" in token)  # the result: a board in the notation
        assert (" ".join(row[:at]), row[at]) in legal, row
