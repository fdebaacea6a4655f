"""Fuzz the gamegraph command line: invalid and edge-case invocations of every subcommand.

Each case runs in a process of its own, with a per-case timeout: by default a
fork of this process (which has imported gamegraph already, so a case costs
milliseconds, not the interpreter's start-up), or with ``--mode exec`` a fresh
``python -m explorer.cli``. Every case is classified:

  traceback  a Python traceback, or the CLI's last-resort "internal error" line, was printed
  exit-0     an input that is certainly invalid was accepted (exit status 0)
  hang       the case ran past its timeout and was killed (its own time: the wall time less the time it
             waited for a core, so a busy machine does not turn a slow case into a hang; at most
             WALL_LIMIT times the timeout of wall time)
  clobbered  an output path that is not a regular file (FIFO, device, folder, or a
             symlink to one) was replaced or changed
  half-written  an output (a file or a neo4j-import folder) or a state folder was left
             incomplete, or a temporary `*.partial` of a finished write stayed behind
  mode-changed  an existing output file lost its mode, or a read-only one was replaced
             without --force
  stray-write  (for the whole run) a file or folder appeared outside the work folder and
             the state folders: the system's temporary folders and HOME are compared
             before and after (the script; `run_fuzz(strays=[])`)
  ok         anything else (edge cases may succeed or fail, as long as they say so in words)

The cases are generated in a fixed order from fixed data; ``--count`` takes a
stratified sample (every command keeps its share) chosen by ``--seed``, so a
run is reproducible. Cases that talk to Neo4j use NEO4J_URI and NEO4J_PASSWORD
from the environment when ``--neo4j`` is given (nothing is written there but a
few small test games), else a closed port. No case starts a Neo4j server or a
Streamlit UI: every ``neo4j start`` points at a port this harness holds busy.

    .venv/bin/python -m tests.support.fuzz_cli                          # every case
    .venv/bin/python -m tests.support.fuzz_cli --count 300 --seed 7     # a sample
    .venv/bin/python -m tests.support.fuzz_cli --neo4j --json report.json
    .venv/bin/python -m tests.support.fuzz_cli --list | head            # the cases, not run

Exit status 1 when any case failed. docs/reliability.md has the figures.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import shutil
import signal
import socket
import stat
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

REPO = Path(__file__).resolve().parents[2]
BIG = "9" * 4301             # one digit past Python's int() conversion limit
HUGE_TEXT = "x" * 100_000
TRACEBACK = "Traceback (most recent call last)"
INTERNAL = "internal error"
COMMANDS = ("games", "solve", "show", "export", "chart", "load", "verify", "neo4j", "query", "dot",
            "certificate", "check-certificate", "ui", "up", "check-game", "play", "survey", "cgt")
GAMES_OK = ("chopsticks", "chopsticks:attack-only", "tictactoe", "nim:small")


@dataclass
class Case:
    command: str                  # the subcommand ("" when there is none)
    argv: list                    # str or bytes (bytes: not UTF-8, as a shell can pass)
    invalid: bool                 # the input is wrong: the exit status must not be 0
    group: str                    # what is being tried, for the report
    env: dict = field(default_factory=dict)        # overrides of the base environment; None removes
    files: dict = field(default_factory=dict)      # relative path -> bytes, written before the run
    memory_limit: int | None = None                # bytes the case may add to its address space (RLIMIT_AS)
    timeout: float | None = None                   # seconds, when the run's default is too short
    watch: tuple = ()                              # fixture names that must keep their file type
    prepare: Any = None        # called in the harness just before the run (makes the case's own files)
    check: Any = None          # called after the run with (code, stdout, stderr): a verdict, or None when fine
    signal: tuple | None = None                    # (signal number, seconds after the start) sent to the case

    def describe(self) -> str:
        shown = " ".join(_short(a) for a in self.argv)
        env = " ".join(f"{k}={_short(v)}" for k, v in self.env.items())
        limit = f" [address space +{self.memory_limit >> 20} MB]" if self.memory_limit else ""
        sent = f" [{signal.Signals(self.signal[0]).name} after {self.signal[1]:.2f} s]" if self.signal else ""
        return f"{env + ' ' if env else ''}gamegraph {shown}{limit}{sent}"


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value) if isinstance(value, bytes) else str(value)
    text = text if text and not any(c.isspace() for c in text) else repr(text)
    # Long values keep both ends: the start says what it is, the end tells file names apart.
    return text if len(text) <= limit else f"{text[:16]}...{text[-(limit - 34):]}<{len(text)} chars>"


@dataclass
class Result:
    case: Case
    code: int | None
    seconds: float
    stdout: str
    stderr: str
    verdict: str


# -- fixtures ----------------------------------------------------------------------------
class Fixtures:
    """The work folder: a shared state folder (warm caches), special files, broken state folders."""

    def __init__(self, work: Path, neo4j_uri: str, neo4j_password: str | None):
        self.work = work
        self.home = work / "home"
        self.home.mkdir()
        self.busy = socket.socket()  # held listening: `neo4j start` and `ui` find the port taken
        self.busy.bind(("127.0.0.1", 0))
        self.busy.listen(1)
        self.busy_port = self.busy.getsockname()[1]
        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))
        self.closed_port = closed.getsockname()[1]
        closed.close()  # nothing listens there: a connection is refused at once
        self.neo4j_uri = neo4j_uri or f"bolt://127.0.0.1:{self.closed_port}"
        self.neo4j_password = neo4j_password or "fuzz-password-nobody-uses"
        self.special: dict[str, str] = {}  # watched name -> expected type ("fifo", "dir", "chr", "link")
        self.certificates: list[dict] = []
        self._make_special_files()
        self._make_homes()

    def path(self, name: str) -> str:
        return str(self.work / name)

    def base_env(self) -> dict[str, str]:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/root"),
               "LANG": "C.UTF-8", "GAMEGRAPH_HOME": str(self.home), "GAMEGRAPH_PROGRESS": "0",
               "NEO4J_URI": self.neo4j_uri, "NEO4J_PASSWORD": self.neo4j_password,
               "GAMEGRAPH_NEO4J_HEAP": "512m", "GAMEGRAPH_NEO4J_PAGECACHE": "64m"}
        if os.environ.get("PYTHONPATH"):
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        return env

    def _make_special_files(self) -> None:
        w = self.work
        for name in ("fifo", "fifo.json", "fifo.dot", "fifo.jsonl", "fifo.svg"):
            os.mkfifo(w / name)
            self.special[name] = "fifo"
        for name in ("dir", "dir.json", "dir.dot", "dir.jsonl"):
            (w / name).mkdir()
            self.special[name] = "dir"
        for link, target in (("link-fifo.json", "fifo.json"), ("link-fifo.dot", "fifo.dot"),
                             ("link-dir.json", "dir.json"), ("link-dir.dot", "dir.dot"),
                             ("link-fifo.jsonl", "fifo.jsonl")):
            os.symlink(target, w / link)
            self.special[link] = "link"
        os.symlink("missing-target.json", w / "dangling.json")
        if os.geteuid() == 0:  # a null device of our own, in the work folder (never the real /dev/null)
            for name in ("chardev.json", "chardev.dot", "chardev.jsonl"):
                os.mknod(w / name, stat.S_IFCHR | 0o666, os.makedev(1, 3))
                self.special[name] = "chr"
        (w / "regular.txt").write_text("a regular file\n")
        (w / "full-dir").mkdir()  # an output folder that is not empty: a folder output must not go there
        (w / "full-dir" / "keep.txt").write_text("somebody's file\n")
        foreign = w / "foreign-home"  # somebody's folder given as GAMEGRAPH_HOME: refused, never written
        foreign.mkdir(mode=0o755)
        (foreign / "notes.txt").write_text("mine\n")
        (w / "existing.json").write_text("{}\n")
        with open(w / "sparse-1g.json", "wb") as handle:  # 1 GB of zero bytes, no disk used
            handle.truncate(1 << 30)

    def _make_homes(self) -> None:
        """State folders broken in one way each (password file, pid file, the folder itself)."""
        def home(name: str, files: dict[str, Any]) -> None:
            root = self.work / "homes" / name
            (root / "neo4j").mkdir(parents=True)
            for rel, content in files.items():
                path = root / rel
                if content == "dir":
                    path.mkdir()
                elif content == "fifo":
                    os.mkfifo(path)
                elif content == "sparse":
                    with open(path, "wb") as handle:
                        handle.truncate(1 << 30)
                else:
                    path.write_bytes(content)

        good_password = self.neo4j_password.encode() + b"\n"
        self.broken_homes = {
            "password-dir": {"neo4j/password": "dir"},
            "password-not-utf8": {"neo4j/password": b"\xff\xfe\xfa password"},
            "password-fifo": {"neo4j/password": "fifo"},
            "password-empty": {"neo4j/password": b""},
            "password-huge": {"neo4j/password": "sparse"},
            "password-binary": {"neo4j/password": bytes(range(256))},
            "pid-20-digits": {"neo4j/neo4j.pid": b"98765432109876543210\n", "neo4j/password": good_password},
            "pid-4301-digits": {"neo4j/neo4j.pid": BIG.encode(), "neo4j/password": good_password},
            "pid-negative": {"neo4j/neo4j.pid": b"-1\n", "neo4j/password": good_password},
            "pid-zero": {"neo4j/neo4j.pid": b"0\n", "neo4j/password": good_password},
            "pid-text": {"neo4j/neo4j.pid": b"hello\n", "neo4j/password": good_password},
            "pid-not-utf8": {"neo4j/neo4j.pid": b"\xff\xfe\n", "neo4j/password": good_password},
            "pid-dir": {"neo4j/neo4j.pid": "dir", "neo4j/password": good_password},
            "pid-fifo": {"neo4j/neo4j.pid": "fifo", "neo4j/password": good_password},
            "pid-huge": {"neo4j/neo4j.pid": "sparse", "neo4j/password": good_password},
            "pid-of-init": {"neo4j/neo4j.pid": b"1\n", "neo4j/ready": b"bolt://127.0.0.1:1\n",
                            "neo4j/password": good_password},
            "ready-dir": {"neo4j/neo4j.pid": b"1\n", "neo4j/ready": "dir", "neo4j/password": good_password},
            "lock-dir": {"neo4j/lock": "dir", "neo4j/password": good_password},
            "neo4j-is-file": {},
            "graphs-is-file": {},
        }
        for name, files in self.broken_homes.items():
            home(name, files)
        shutil.rmtree(self.work / "homes" / "neo4j-is-file" / "neo4j")
        (self.work / "homes" / "neo4j-is-file" / "neo4j").write_text("not a folder\n")
        (self.work / "homes" / "graphs-is-file" / "graphs").write_text("not a folder\n")
        (self.work / "homes" / "graphs-is-file" / "mirrors").write_text("not a folder\n")

    def make_certificates(self) -> None:
        """Valid certificates of small games (built in this process, into the shared state folder)."""
        os.environ["GAMEGRAPH_HOME"] = str(self.home)
        from explorer.certificate import certificate
        from explorer.solved import load_or_build

        _as_a_fresh_process()  # small games on the plain path: no compiled thread pool before the forks
        for spec, position in (("chopsticks:attack-only", None), ("tictactoe", None), ("nim:small", None),
                               ("tictactoe", "XO./.X./..."), ("chopsticks", None), ("nim:small", "A|1-2-2")):
            solved = load_or_build(spec)
            try:
                self.certificates.append(certificate(solved, position or solved.graph.key(0)))
            except Exception:  # noqa: BLE001 - a position the certificate cannot back is simply skipped
                continue

    def check_special(self) -> list[str]:
        """Names of watched special files whose type changed (and restores them)."""
        changed = []
        for name, kind in self.special.items():
            path = self.work / name
            try:
                mode = os.lstat(path).st_mode
            except FileNotFoundError:
                mode = 0
            actual = ("fifo" if stat.S_ISFIFO(mode) else "dir" if stat.S_ISDIR(mode) else
                      "chr" if stat.S_ISCHR(mode) else "link" if stat.S_ISLNK(mode) else "other")
            if actual != kind or (kind == "link" and not _link_target_intact(path)):
                changed.append(name)
        return changed

    def restore_special(self) -> None:
        for name, kind in self.special.items():
            path = self.work / name
            if path.is_symlink() or path.is_file():
                path.unlink()
            elif path.is_dir() and kind != "dir":
                shutil.rmtree(path)
        for name in list(self.special):  # recreate what is missing
            path = self.work / name
            if os.path.lexists(path):
                continue
            kind = self.special[name]
            if kind == "fifo":
                os.mkfifo(path)
            elif kind == "dir":
                path.mkdir()
            elif kind == "chr":
                os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        for name, kind in self.special.items():
            if kind == "link" and not os.path.lexists(self.work / name):
                target = name.removeprefix("link-")
                os.symlink(target, self.work / name)
        for name, kind in self.special.items():  # a symlink's target may have been replaced
            if kind == "link":
                target = self.work / name.removeprefix("link-")
                if target.is_file():
                    target.unlink()
                    self.restore_special()
                    return

    def close(self) -> None:
        self.busy.close()


def _link_target_intact(path: Path) -> bool:
    target = path.parent / os.readlink(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISDIR(mode) or stat.S_ISCHR(mode)


# -- the cases ---------------------------------------------------------------------------
BAD_SPECS = [
    "", " ", "nosuch", "chopsticks:nosuch", "chopsticks(fingers=1)", "chopsticks(fingers=101)",
    f"chopsticks(fingers={'9' * 5000})", "chopsticks(fingers=abc)", "chopsticks(fingers=5", "chopsticks(bogus=1)",
    "chopsticks(fingers=4,fingers=4)", "chopsticks(overflow=maybe)", "chopsticks(attack_dead=perhaps)",
    "chopsticks(split=)", "chopsticks(fingers=-5)", "chopsticks(fingers=5.5)", "nim(heaps=)", "nim(heaps=1--2)",
    "nim(heaps=-1)", "nim(heaps=1-2-3-4-5-6-7-8-9-10-11-12-13)", f"nim(heaps={BIG})", "nim(heaps=1001)",
    "nim(heaps=1000-1000-1000)", "tictactoe(size=4)", HUGE_TEXT, "chopsticks:" + "a" * 10_000, "chöpsticks",
    "\u0663", b"chopsticks\xff", "chopsticks;rm -rf /", "chopsticks(fingers=5)(fingers=6)", "chopsticks:standard:x",
    "chopsticks(fingers=5,)x", "nim(heaps=1-2-3", "nim(heaps=" + "1-" * 3000 + "1)", "chopsticks(\x00)",
    "chopsticks(fingers=\u0662\u0662\u0662)",
]
EDGE_SPECS = ["chopsticks()", " chopsticks ", "chopsticks(fingers=0005)", "chopsticks(fingers=\u0665)",
              "CHOPSTICKS", "nim(heaps=0)", "chopsticks(fingers=1_0)", "chopsticks:magic-fingers(fingers=3)"]
BAD_POSITIONS = {
    "chopsticks": ["", " ", "A|1-1", f"A|{BIG}-1|1-1", f"A|1-1|1-{'1' * 5000}", "Z|1-1|1-1", "A|5-5|1-1",
                   "A|1-1|0-0", "A|-1-1|1-1", "A|1-1|1-1|1-1", HUGE_TEXT, b"A|1-1|1-1\xff", "A|1-1|1-1\x00",
                   "A|1.0-1|1-1", "A|1e3-1|1-1", "AB|1-1|1-1", f"A|{'0' * 5000}1-1|1-1", "\u0663|1-1|1-1",
                   "A|99999999999999999999-1|1-1", "A|\u0661-\u0661|1-1\u0661"],
    "tictactoe": ["", "XXXXXXXXX", "X" * 4301, "XO./.../..", "XOX/OXO/XOXX", "OOO/XX./XX.", "abc/def/ghi",
                  HUGE_TEXT, b"\xff\xfe........."],
    "nim:small": ["", f"A|{BIG}-2-3", "A|1-2", "A|1-2-3-4", "A|9-9-9", "A|-1-2-3", "A|" + "1-" * 5000 + "1",
                  "C|1-2-3", HUGE_TEXT],
}
EDGE_POSITIONS = {"chopsticks": ["a|1-1|1-1", " A | 1 - 1 | 1 - 1 ", "A|4-4|4-4", "B|1-1|1-1", "A|01-1|1-1",
                                 "A|0-1|0-1", "A|4-3|2-1"],
                  "tictactoe": ["x../.../...", "X.O/.X./..O", "XXX/OO./..."], "nim:small": ["A|0-0-0", "B|1-2-3"]}
BAD_INTS = ["0", "-1", "abc", "", " ", BIG, "1e3", "1.5", "nan", "99999999999999999999", "\u0663", "0x10", "+-1"]
BAD_FLOATS = ["0", "-1", "abc", "nan", "inf", "-inf", "1e309", BIG, "", "1e-320", "86401", "0x10"]
BAD_PORTS = ["-1", "0", "65536", "70000", "abc", "", BIG, "99999999999999999999", "1.5", "8501x"]
BAD_HOSTS = ["bad host", "256.1.1.1", "", "x" * 1000, "-1", "nonexistent.invalid", "::zz", "8.8.8.8",
             "127.0.0.1:8501", "http://127.0.0.1"]


def output_targets(fx: Fixtures, suffix: str) -> list[tuple[str | bytes, bool, tuple]]:
    """(-o value, certainly invalid, watched fixtures) for an output of the given suffix."""
    targets: list[tuple[str | bytes, bool, tuple]] = [
        (".", True, ()), ("/", True, ()), ("..", True, ()), ("", True, ()), (fx.path("dir") + "/", True, ()),
        (fx.path("fifo" + suffix), True, ("fifo" + suffix,)),
        (fx.path("dir" + suffix), True, ("dir" + suffix,)),
        (fx.path("missing-folder/out" + suffix), True, ()),
        (fx.path("regular.txt/out" + suffix), True, ()),
        ("x" * 300 + suffix, True, ()),
        (fx.path("dangling.json") if suffix == ".json" else fx.path("out-edge" + suffix), False, ()),
        (fx.path("existing.json") if suffix == ".json" else fx.path("out2" + suffix), False, ()),
        (os.fsencode(fx.path("out-\xff")) .replace(b"\xc3\xbf", b"\xff") + suffix.encode(), False, ()),
        ("/proc/version", True, ()),
    ]
    if ("link-fifo" + suffix) in fx.special:
        targets.append((fx.path("link-fifo" + suffix), True, ("link-fifo" + suffix, "fifo" + suffix)))
    if ("link-dir" + suffix) in fx.special:
        targets.append((fx.path("link-dir" + suffix), True, ("link-dir" + suffix,)))
    if ("chardev" + suffix) in fx.special:
        targets.append((fx.path("chardev" + suffix), True, ("chardev" + suffix,)))
    return targets


def env_cases(fx: Fixtures) -> list[tuple[dict, bool, str]]:
    """(environment overrides, certainly invalid, group) for state-folder and Neo4j settings."""
    homes = fx.work / "homes"
    cases: list[tuple[dict, bool, str]] = [
        ({"GAMEGRAPH_HOME": fx.path("regular.txt")}, True, "home is a file"),
        ({"GAMEGRAPH_HOME": fx.path("regular.txt") + "/sub"}, True, "home under a file"),
        ({"GAMEGRAPH_HOME": fx.path("fifo")}, True, "home is a FIFO"),
        ({"GAMEGRAPH_HOME": "/proc/fuzz-home"}, True, "home not writable"),
        ({"GAMEGRAPH_HOME": "/proc/version"}, True, "home is a read-only file"),
        ({"GAMEGRAPH_HOME": "x" * 5000}, True, "home path too long"),
        ({"GAMEGRAPH_HOME": str(homes / "neo4j-is-file")}, False, "state neo4j is a file"),
        ({"GAMEGRAPH_HOME": str(homes / "graphs-is-file")}, False, "state graphs is a file"),
        ({"NEO4J_URI": "bolt://127.0.0.1:70000"}, True, "NEO4J_URI port 70000"),
        ({"NEO4J_URI": "bolt://127.0.0.1:-1"}, True, "NEO4J_URI port -1"),
        ({"NEO4J_URI": "bolt://127.0.0.1:abc"}, True, "NEO4J_URI port abc"),
        ({"NEO4J_URI": "http://127.0.0.1:7474"}, True, "NEO4J_URI scheme http"),
        ({"NEO4J_URI": "bolt://"}, True, "NEO4J_URI no host"),
        ({"NEO4J_URI": "bolt://[::1"}, True, "NEO4J_URI bad IPv6"),
        ({"NEO4J_URI": "x" * 10_000}, True, "NEO4J_URI huge"),
        ({"NEO4J_URI": f"bolt://127.0.0.1:{BIG}"}, True, "NEO4J_URI port 4301 digits"),
        ({"NEO4J_URI": "bolt://nonexistent.invalid:7687"}, True, "NEO4J_URI host does not resolve"),
        ({"NEO4J_PASSWORD": "short"}, True, "NEO4J_PASSWORD too short"),
        ({"NEO4J_DATABASE": "nosuch"}, True, "NEO4J_DATABASE missing"),
        ({"NEO4J_DATABASE": "`; MATCH (n) DETACH DELETE n"}, True, "NEO4J_DATABASE injection"),
        ({"NEO4J_USER": "nobody-fuzz"}, True, "NEO4J_USER unknown"),
        ({"GAMEGRAPH_PROGRESS": "maybe"}, False, "GAMEGRAPH_PROGRESS odd"),
    ]
    for name in fx.broken_homes:
        if name.startswith("password"):
            cases.append(({"GAMEGRAPH_HOME": str(homes / name), "NEO4J_PASSWORD": None}, True, f"state {name}"))
        elif name not in ("neo4j-is-file", "graphs-is-file"):
            cases.append(({"GAMEGRAPH_HOME": str(homes / name)}, False, f"state {name}"))
    return cases


def certificate_files(fx: Fixtures) -> Iterator[tuple[str, bytes, bool, str]]:
    """(file name, content, certainly invalid, group) for check-certificate."""
    yield "not-utf8.json", b'\xff\xfe{"format": "gamegraph-certificate"}', True, "not UTF-8"
    yield "latin1.json", '{"format": "gamegraph-certificate", "game": "chöpsticks"}'.encode("latin-1"), True, "not UTF-8"
    yield "binary.json", random.Random(1).randbytes(4096), True, "binary"
    yield "empty.json", b"", True, "empty"
    yield "deep-list.json", b"[" * 100_000 + b"]" * 100_000, True, "100,000-deep JSON"
    yield "deep-object.json", b'{"a":' * 100_000 + b"1" + b"}" * 100_000, True, "100,000-deep JSON"
    yield "bigint.json", b"9" * 5000, True, "5,000-digit JSON"
    yield "null.json", b"null", True, "not an object"
    yield "list.json", b"[]", True, "not an object"
    yield "string.json", b'"gamegraph-certificate"', True, "not an object"
    yield "nan.json", b'{"format": NaN}', True, "NaN"
    yield "truncated.json", b'{"format": "gamegraph-certificate", "version": 1, "game": "chop', True, "truncated"
    yield "bom.json", b"\xef\xbb\xbf{}", True, "BOM"
    yield "surrogate.json", b'{"format": "\\ud800"}', True, "lone surrogate"
    for cert in fx.certificates[:3]:
        for name, value in (("version", True), ("version", 1.0), ("version", "1"), ("version", 2), ("version", None),
                            ("version", int(BIG[:20]))):
            forged = dict(cert, **{name: value})
            edge = type(value) is float  # 1.0: a JSON number equal to 1 (refused, but arguable)
            yield f"version-{value!r}.json", json.dumps(forged).encode(), not edge, f"version {value!r}"
        big = json.dumps(dict(cert, version=1)).replace('"version": 1', '"version": ' + "1" * 5000)
        yield "version-5000-digits.json", big.encode(), True, "5,000-digit JSON"
        yield "position-4301.json", json.dumps(dict(cert, position=f"A|{BIG}-1|1-1")).encode(), True, \
            "4,301-digit position"
        yield "position-huge.json", json.dumps(dict(cert, position=HUGE_TEXT)).encode(), True, "100,000-char position"
    from tests.support.certificate_forgery import type_swaps
    rng = random.Random(2)
    for index, cert in enumerate(fx.certificates):
        swaps = list(type_swaps(cert))
        for label, forged, invalid in rng.sample(swaps, min(len(swaps), 100)):
            yield f"cert{index}-{label}.json", json.dumps(forged).encode(), invalid, "wrong field type"
        yield f"cert{index}-valid.json", json.dumps(cert).encode(), False, "valid certificate"


LONG_SPECS = ["x" * 256, "x" * 300 + ".py", "chopsticks:" + "a" * 300, "a/" * 200 + "game.py",
              "nim(heaps=" + "1-" * 200 + "1)", "chopsticks(" + "fingers=5," * 100 + ")"]
HUGE_ENV_VALUES = {"GAMEGRAPH_MEMORY": ["9" * 309, "9" * 5000, "1e400", "\u0663G", "\uff14G", "inf", "1" + "0" * 30 + "T"],
                   "GAMEGRAPH_KERNELS_FROM": ["9" * 400, "\u0663", "-1", "1e9"]}
NON_ASCII_DIGITS = ["\u0663", "\uff13", "\u0662\u0662", "\u0967", "1\u0663"]
PLUGIN_MODULES = {  # file name -> a game module missing a part, or raising on import
    "no_params.py": b"from explorer.games import Game\nclass G(Game):\n    name = 'fuzz-no-params'\n",
    "no_description.py": b"from explorer.games import Game, Params\nimport dataclasses\n"
                         b"@dataclasses.dataclass(frozen=True)\nclass P(Params):\n    pass\n"
                         b"class G(Game):\n    name = 'fuzz-no-description'\n    Params = P\n",
    "params_not_dataclass.py": b"from explorer.games import Game\nclass G(Game):\n    name = 'fuzz-bad-params'\n"
                               b"    description = 'x'\n    Params = dict\n",
    "empty_name.py": b"from explorer.games import Game\nclass G(Game):\n    name = ''\n",
    "no_game.py": b"x = 1\n",
    "base_exception.py": b"raise BaseException('boom')\n",
    "keyboard_interrupt.py": b"raise KeyboardInterrupt\n",
    "system_exit_0.py": b"import sys\nsys.exit(0)\n",
    "generator_exit.py": b"raise GeneratorExit\n",
    "syntax_error.py": b"def (\n",
    "not_utf8.py": b"name = '\xff'\n",
}
DEGENERATE_SPECS = ["domineering(rows=1,cols=1)", "domineering(rows=1,cols=2)", "domineering(rows=2,cols=1,first=horizontal)",
                    "nim(heaps=0)", "nim(heaps=0-0-0)", "toads-and-frogs(board=.)", "toads-and-frogs(board=T)",
                    "dodgem(size=2)", "chopsticks(fingers=2)", "chopsticks(fingers=2,split=none)"]


def edge_cases(fx: Fixtures) -> Iterator[tuple[str, list, bool, str, dict]]:
    """(command, argv, certainly invalid, group, extra) for the classes of issue 19: long specs, huge numeric
    environment values, non-ASCII digits, plugin modules missing parts, degenerate boards, a foreign state
    folder, and the inputs it found accepted (survey -o '', a range given twice, slip=1e-400, x.svg/)."""
    for spec in LONG_SPECS:
        for command in ("check-game", "solve", "show", "cgt", "export"):
            yield command, [spec], True, "long spec", {}
    for variable, values in HUGE_ENV_VALUES.items():
        for value in values:
            for command, argv in (("solve", ["chopsticks"]), ("export", ["nim:small"]), ("show", ["nim:small"])):
                # `solve` always builds and reads the budget; export and show may answer from the cache, and
                # the kernels' threshold is read for large graphs only: those must not crash, and may succeed.
                invalid = variable == "GAMEGRAPH_MEMORY" and command == "solve"
                yield command, argv, invalid, f"huge or odd {variable}", {"env": {variable: value}}
    for digits in NON_ASCII_DIGITS:
        yield "play", ["chopsticks", "--seed", digits], True, "non-ASCII digits", {}
        yield "play", ["chopsticks", "--max-plies", digits], True, "non-ASCII digits", {}
        yield "query", ["chopsticks", "stats", "--timeout", digits], True, "non-ASCII digits", {}
        yield "survey", ["chopsticks", "--fingers", f"{digits}..3"], True, "non-ASCII digits", {}
        yield "solve", ["chopsticks", "--max-positions", digits], True, "non-ASCII digits", {}
        yield "show", [f"chopsticks(fingers={digits})"], True, "non-ASCII digits", {}
        yield "solve", ["chopsticks"], True, "non-ASCII digits", {"env": {"GAMEGRAPH_MEMORY": f"{digits}G"}}
    for name, content in PLUGIN_MODULES.items():
        rel = f"plugins/{name}"
        files = {"files": {rel: content}}
        yield "games", ["--game-module", fx.path(rel)], True, "plugin module", files
        yield "check-game", [fx.path(rel)], True, "plugin module", files
        yield "games", [], True, "plugin module (GAMEGRAPH_GAME_MODULES)", dict(files, env={"GAMEGRAPH_GAME_MODULES": fx.path(rel)})
    for spec in DEGENERATE_SPECS:
        slow = {"timeout": 60}  # valid games, some loading numba's kernels: seconds on a loaded machine
        for command, tail in (("solve", []), ("show", []), ("export", []), ("check-game", [])):
            yield command, [spec, *tail], False, "degenerate board", slow
        if not spec.startswith(("dodgem", "chopsticks")):
            yield "cgt", [spec], False, "degenerate board", slow
    for command, argv in (("show", ["chopsticks"]), ("neo4j", ["stop"]), ("neo4j", ["status"]),
                          ("export", ["nim:small", "--format", "neo4j-import", "-o", fx.path("import-foreign")]),
                          ("query", ["nim:small", "stats"])):
        yield command, argv, True, "foreign state folder", {"env": {"GAMEGRAPH_HOME": fx.path("foreign-home")}}
    for target in ("/", fx.path("full-dir"), fx.work.as_posix()):
        yield "export", ["nim:small", "--format", "neo4j-import", "-o", target], True, "neo4j-import into a non-empty folder", {}
    yield "survey", ["chopsticks", "--fingers", "2..3", "-o", ""], True, "survey output", {}
    yield "survey", ["chopsticks", "--fingers", "2..3", "--range", "fingers=2..3"], True, "range given twice", {}
    yield "survey", ["chopsticks", "--range", "fingers=2..3", "--range", "fingers=3..4"], True, "range given twice", {}
    for slip in ("slip=1e-400", "slip=nan", "slip=inf", "slip=\u0660.5", "slip=" + "0." + "0" * 400 + "1"):
        yield "play", ["chopsticks", "--opponent", slip], True, "bad --opponent", {}
    for name, tail in (("x.svg", "/"), ("x.dot", "/"), ("x.png", "/.")):  # appended: fx.path() would drop them
        yield "dot", ["chopsticks:attack-only", "shortest-win", "-o", fx.path(name) + tail], True, \
            "diagram name ends in /", {}
    for value in ("1/0", "0/0", "1/" + "0" * 11, "\u0661/2"):
        yield "query", ["toads-and-frogs", "cgt-equal", "--value", value], True, "bad --value", {}


# -- issue 40, round two: generators of fresh inputs -----------------------------------------------------------
# Each class draws its inputs from a random.Random(seed): the same seed gives the same cases, another seed others.
# Their files live in the work folder, one name per case, so cases never share one.
IMPORT_FILES = ("game.csv", "moves.csv", "positions.csv", "schema.cypher", "start.csv")
SIGNAL_SPECS = ("chopsticks", "chopsticks:attack-only", "tictactoe", "nim:small", "nim", "dodgem",
                "toads-and-frogs", "chopsticks(fingers=6)")
SMALL_SPECS = ("chopsticks:attack-only", "tictactoe", "nim:small", "chopsticks")
WON_SPECS = ("chopsticks:attack-only", "nim:small")  # a winning line to draw (tictactoe and chopsticks are draws)


def _partials(folder: Path, name: str | None = None) -> list[str]:
    """The temporary files in `folder` (of the target `name` only, when given: other cases write beside it)."""
    try:
        return [p.name for p in folder.iterdir() if p.name.endswith(".partial")
                and (name is None or p.name.startswith(f".{name[:64]}."))]
    except OSError:
        return []


def _import_folder_whole_or_absent(out: Path, code: int | None, allow_partial: bool = False):
    """The check of a neo4j-import folder: absent, or every file there and the command said it succeeded."""
    def check(*_):
        if not allow_partial and _partials(out.parent, out.name):
            return "half-written"
        if not os.path.lexists(out):
            return None
        if not out.is_dir():
            return "half-written"
        names = sorted(p.name for p in out.iterdir())
        if names != list(IMPORT_FILES) or any((out / n).stat().st_size == 0 for n in names):
            return "half-written"
        return None
    return check


def _file_whole_or_absent(out: Path):
    """A file output on a full disk: absent after a failure, and no temporary file left beside it."""
    def check(code, stdout, stderr):
        if _partials(out.parent, out.name):
            return "half-written"
        if code != 0 and out.exists():
            return "half-written"
        if code == 0 and out.exists() and out.stat().st_size == 0:
            return "half-written"
        return None
    return check


def _state_folder_whole_or_absent(home: Path):
    def check(*_):
        marker = home / ".gamegraph-state"
        if home.exists() and (not marker.exists() or marker.stat().st_size == 0):
            return "half-written"
        return None
    return check


def _mode_kept(path: Path, mode: int, content: bytes | None):
    """An existing output: its mode kept; `content` (for a read-only file without --force): left as it was."""
    def check(code, stdout, stderr):
        try:
            actual = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            return "mode-changed"
        if actual != mode:
            return "mode-changed"
        if content is not None and path.read_bytes() != content:
            return "mode-changed"
        return None
    return check


def _make_file(path: Path, mode: int, content: bytes = b"old\n", link_from: Path | None = None):
    def prepare():
        for old in (path, link_from):
            if old is not None and os.path.lexists(old):
                os.unlink(old)
        path.write_bytes(content)
        os.chmod(path, mode)
        if link_from is not None:
            os.symlink(path, link_from)
    return prepare


def _fifo_at_cache(fx: "Fixtures", home: Path, kind: str, spec: str):
    """Make a fresh state folder `home` with a FIFO where `kind`'s cache of `spec` would be."""
    def prepare():
        saved = os.environ.get("GAMEGRAPH_HOME")
        os.environ["GAMEGRAPH_HOME"] = str(home)
        try:
            from explorer.games import parse_spec
            game = parse_spec(spec)
            if kind == "mirror":
                from loaders.mirror import mirror_path
                path = mirror_path(game)
            elif kind == "graph":
                from explorer.solved import cache_path
                path = cache_path(game, game.has_symmetry())
            else:
                from explorer.analysis.survey import _cache_file
                path = _cache_file(game)
            path.parent.mkdir(parents=True, exist_ok=True)
            if not os.path.lexists(path):
                os.mkfifo(path)
        finally:
            if saved is None:
                os.environ.pop("GAMEGRAPH_HOME", None)
            else:
                os.environ["GAMEGRAPH_HOME"] = saved
    return prepare


class FullDisk:
    """A small filesystem (a tmpfs root mounted for the run) kept all but full: before each case, a filler file
    is grown or cut so that a random few KiB stay free."""

    def __init__(self, root: Path):
        self.root = root
        self.filler = root / "filler"

    def leave_free(self, free: int, clear: bool = True):
        def prepare():
            if clear:
                for entry in self.root.iterdir():
                    if entry != self.filler:
                        shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() and not entry.is_symlink() \
                            else entry.unlink()
            info = os.statvfs(self.root)
            available = info.f_bavail * info.f_frsize
            size = self.filler.stat().st_size if self.filler.exists() else 0
            target = max(0, size + available - free)
            if target < size:
                os.truncate(self.filler, target)
            else:
                with open(self.filler, "ab") as handle:
                    chunk = b"\0" * (1 << 16)
                    while size < target:
                        try:
                            handle.write(chunk[:min(len(chunk), target - size)])
                            handle.flush()
                        except OSError:
                            break
                        size += min(len(chunk), target - size)
        return prepare


def fresh_cases(fx: "Fixtures", seed: int) -> Iterator[Case]:
    """Issue 40's second round as generators: interrupted folder outputs (SIGINT, SIGTERM at a random moment;
    SIGKILL, then the next run), outputs replacing files of random modes (0600, 0640 through a symlink,
    read-only with and without --force), FIFOs at cache paths, survey ranges no rule set can use (drawn from
    each game's own declaration), and, with --full-disk, every writer on a disk with a random few KiB free."""
    import dataclasses

    from explorer.games import game_class
    from explorer.games.base import type_name

    rng = random.Random(seed * 7919 + 40)
    root = fx.work / "fresh"
    root.mkdir(exist_ok=True)

    def name(stem: str) -> Path:
        return root / f"{stem}-{rng.randrange(10**9):09d}"

    # Interrupted neo4j-import exports: a signal at a random moment of the command.
    for i in range(40):
        sig = rng.choice((signal.SIGINT, signal.SIGTERM))
        out = name("import")
        spec = rng.choice(SIGNAL_SPECS)
        yield Case("export", ["export", spec, "--format", "neo4j-import", "-o", str(out)], False,
                   "interrupted neo4j-import", signal=(int(sig), round(rng.uniform(0.25, 2.5), 3)),
                   check=_import_folder_whole_or_absent(out, None), timeout=60)
    # SIGKILL, then the same command again: the second must find no temporary folder left behind.
    for i in range(10):
        out = name("killed")
        spec = rng.choice(SIGNAL_SPECS)
        argv = ["export", spec, "--format", "neo4j-import", "-o", str(out)]
        pair = (f"kill-pair-{i}",)
        yield Case("export", argv, False, "killed neo4j-import", signal=(int(signal.SIGKILL), round(rng.uniform(0.1, 2), 3)),
                   check=_import_folder_whole_or_absent(out, None, allow_partial=True), watch=pair, timeout=60)
        yield Case("export", argv, False, "rerun after a kill", check=_import_folder_whole_or_absent(out, None),
                   watch=pair, timeout=120,
                   prepare=lambda out=out: shutil.rmtree(out, ignore_errors=True) if out.is_dir() else None)
    # Library settings gamegraph runs under or passes on (session 18): numba's thread count, threading layer
    # and its priority (read by the CLI's first check, so a forked case exercises it too), and every Streamlit
    # option of a type click reads (`ui` refuses a value before its server starts; one it let through would
    # serve until the timeout, a hang).
    from streamlit import config as streamlit_config

    def word() -> str:  # never a number, a truth value, a layer or a log level: "zz" starts none of them
        return "zz" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_-") for _ in range(rng.randrange(1, 9)))

    for i in range(12):
        count = rng.choice(("0", f"-{rng.randrange(1, 99)}", "9" * rng.randrange(7, 40), word(),
                            f"{rng.randrange(1, 9)}.{rng.randrange(10)}", f"{rng.randrange(2, 9)}e{rng.randrange(2, 9)}"))
        yield Case("solve", ["solve", rng.choice(SMALL_SPECS)], True, "numba thread count",
                   env={"NUMBA_NUM_THREADS": count}, timeout=60)
        yield Case("solve", ["solve", rng.choice(SMALL_SPECS)], True, "numba threading layer",
                   env={"NUMBA_THREADING_LAYER": word()}, timeout=60)
        layers = ["tbb", "omp", "workqueue"]
        rng.shuffle(layers)
        at = rng.randrange(3)
        layers[at] = rng.choice((word(), layers[(at + 1) % 3]))  # one unknown, or another repeated
        yield Case("solve", ["solve", rng.choice(SMALL_SPECS)], True, "numba layer priority",
                   env={"NUMBA_THREADING_LAYER_PRIORITY": " ".join(layers)}, timeout=60)
    typed = sorted((option for option in streamlit_config.get_config_options().values()
                    if option.env_var and option.type in (int, float, bool) and not option.multiple),
                   key=lambda option: option.key)
    for i in range(20):
        option = rng.choice(typed) if i % 4 else streamlit_config.get_config_options()["logger.level"]
        yield Case("ui", ["ui", "--port", str(rng.randrange(20000, 60000))], True, "Streamlit setting",
                   env={option.env_var: word()}, timeout=60)
    # Existing outputs: their mode is kept; a read-only one needs --force.
    writers = [
        ("export", lambda spec, out: ["export", spec, "-o", out], ".jsonl"),
        ("certificate", lambda spec, out: ["certificate", spec, "-o", out], ".json"),
        ("dot", lambda spec, out: ["dot", rng.choice(WON_SPECS), "shortest-win", "-o", out], ".dot"),
        ("survey", lambda spec, out: ["survey", "chopsticks", "--fingers", "2..3", "-o", out], ".txt"),
    ]
    for i in range(60):
        command, argv_of, suffix = rng.choice(writers)
        spec = rng.choice(SMALL_SPECS)
        kind = rng.choice(("private", "group", "link", "read-only", "read-only-forced", "odd"))
        target = Path(str(name(f"mode-{command}")) + suffix)
        content = bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 40)))
        if kind == "private":
            mode, given = 0o600, target
        elif kind == "group":
            mode, given = 0o640, target
        elif kind == "odd":
            mode, given = rng.choice((0o604, 0o660, 0o606, 0o644, 0o664, 0o700)), target
        elif kind == "link":
            mode, given = rng.choice((0o640, 0o600, 0o604)), Path(str(name("link")) + suffix)
        else:
            mode, given = rng.choice((0o444, 0o400, 0o440, 0o404)), target
        argv = argv_of(spec, str(given)) + (["--force"] if kind == "read-only-forced" else [])
        unforced = kind == "read-only"
        yield Case(command, argv, unforced, f"existing output ({kind})",
                   prepare=_make_file(target, mode, content, given if kind == "link" else None),
                   check=_mode_kept(target, mode, content if unforced else None), timeout=60)
    # A FIFO where a cache would be: one line, never a wait.
    for i in range(30):
        kind, command = rng.choice((("graph", "show"), ("graph", "export"), ("mirror", "query"), ("graph", "dot"),
                                    ("survey", "survey")))
        spec = rng.choice(SMALL_SPECS) if kind != "survey" else "chopsticks(fingers=2,split=none)"
        home = name("fifo-home")
        argv = {"show": ["show", spec], "export": ["export", spec], "query": ["query", spec, "stats"],
                "dot": ["dot", spec, "shortest-win", "-o", str(name("fifo-out")) + ".dot"],
                "survey": ["survey", "chopsticks", "--fingers", "2..2"]}[command]
        # show, export, query and dot must refuse (the cache they read is in the way); survey may or may not
        # meet that rule set's entry: either way one line or the answer, never a wait.
        yield Case(command, argv, command != "survey", f"FIFO at a cache path ({kind})",
                   env={"GAMEGRAPH_HOME": str(home)}, prepare=_fifo_at_cache(fx, home, kind, spec), timeout=60)
    # Survey ranges no rule set can use, drawn from each game's declared parameters.
    games = ("chopsticks", "nim", "domineering", "toads-and-frogs", "dodgem", "tictactoe", "connect4", "teeko",
             "mutorere", "ponghauki", "dobutsu")
    for i in range(80):
        game = rng.choice(games)
        try:
            fields = dataclasses.fields(game_class(game).Params)
        except Exception:  # noqa: BLE001 - a game not registered here
            continue
        if not fields:  # a game without parameters: any name is one it does not have
            made_up = "".join(rng.choice("abcdefghij_") for _ in range(rng.randrange(1, 12)))
            yield Case("survey", ["survey", game, "--range", f"{made_up}=1..{rng.randrange(1, 9)}"], True,
                       "survey range it cannot use", timeout=60)
            continue
        field_ = rng.choice(fields)
        kind = type_name(field_.type)
        low, high = field_.metadata.get("minimum"), field_.metadata.get("maximum")
        if kind == "int" and not field_.metadata.get("choices"):
            if low is not None and (high is None or rng.random() < 0.5):
                a = rng.choice((low - 1, low - rng.randrange(1, 10**6), 0 if low > 0 else low - 1))
                b = rng.randrange(a, (high or low + 5) + 1)
            elif high is not None:
                a = rng.choice((high + 1, high + rng.randrange(1, 10**8)))
                b = a + rng.randrange(0, 3)
            else:
                continue  # an unbounded whole number: any range may be fine
            text = f"{a}..{b}" if a >= 0 else None
            if text is None:
                continue  # a negative start is refused by the range syntax itself: still one line
        else:
            a = rng.randrange(0, 10)
            text = f"{a}..{a + rng.randrange(0, 5)}"
        option = (["--fingers", text] if game == "chopsticks" and field_.name == "fingers" and rng.random() < 0.5
                  else ["--range", f"{field_.name}={text}"])
        yield Case("survey", ["survey", game, *option], True, "survey range it cannot use", timeout=60)
    # A full disk: every writer, and a fresh state folder, with a random few KiB free.
    disk = getattr(fx, "full_disk", None)
    if disk is None:
        return
    full = FullDisk(disk)
    for i in range(70):
        free = rng.choice((0, 0, 4096, rng.randrange(0, 65536), rng.randrange(0, 262144)))
        what = rng.choice(("export", "import", "certificate", "dot", "survey-o", "home-show", "home-solve",
                           "home-survey", "home-export"))
        spec = rng.choice(SMALL_SPECS)
        out = disk / f"out-{i}"
        watch = ("full-disk",)
        prepare = full.leave_free(free)
        if what == "import":
            yield Case("export", ["export", spec, "--format", "neo4j-import", "-o", str(out)], False,
                       "full disk: neo4j-import", prepare=prepare, check=_import_folder_whole_or_absent(out, None),
                       watch=watch, timeout=90)
        elif what in ("export", "certificate", "dot", "survey-o"):
            target = Path(f"{out}.{ {'export': 'jsonl', 'certificate': 'json', 'dot': 'dot', 'survey-o': 'txt'}[what]}")
            argv = {"export": ["export", spec, "-o", str(target)], "certificate": ["certificate", spec, "-o", str(target)],
                    "dot": ["dot", rng.choice(WON_SPECS), "shortest-win", "-o", str(target)],
                    "survey-o": ["survey", "chopsticks", "--fingers", "2..3", "-o", str(target)]}[what]
            yield Case(argv[0], argv, False, f"full disk: {what}", prepare=prepare, check=_file_whole_or_absent(target),
                       watch=watch, timeout=90)
        else:
            home = disk / f"home-{i}"
            command = what.removeprefix("home-")
            argv = {"show": ["show", spec], "solve": ["solve", spec], "export": ["export", spec],
                    "survey": ["survey", "chopsticks", "--fingers", "2..2"]}[command]
            yield Case(command, argv, False, f"full disk: state folder ({command})", env={"GAMEGRAPH_HOME": str(home)},
                       prepare=prepare, check=_state_folder_whole_or_absent(home), watch=watch, timeout=120)


def cases(fx: Fixtures, seed: int = 1) -> list[Case]:
    """Every case, in a fixed order."""
    out: list[Case] = []

    def add(command: str, argv: list, invalid: bool, group: str, **extra: Any) -> None:
        out.append(Case(command, [command, *argv] if command else list(argv), invalid, group, **extra))

    # -- no command, global options ------------------------------------------------------------
    for argv, invalid in (([], True), (["--bogus"], True), (["nosuch"], True), (["-h"], False), ([""], True),
                          ([HUGE_TEXT], True), ([b"\xff"], True)):
        add("", argv, invalid, "top level")
    for command in COMMANDS:
        add(command, ["--help"], False, "help")
        add(command, ["--bogus-option"], True, "unknown option")

    # -- games ------------------------------------------------------------------------------------
    for argv, invalid in ((["--format", "xml"], True), (["--format"], True), (["extra"], True), (["--format", "json"], False),
                          ([], False)):
        add("games", argv, invalid, "options")

    # -- spec-taking commands: bad and odd specs ------------------------------------------------
    spec_commands = {"solve": [], "show": [], "export": [], "chart": [], "load": [], "verify": [],
                     "query": ["stats"], "dot": ["shortest-win", "-o", fx.path("out.dot")],
                     "certificate": []}
    for command, tail in spec_commands.items():
        for spec in BAD_SPECS:
            add(command, [spec, *tail], True, "bad spec")
        for spec in EDGE_SPECS:
            if command in ("load", "verify"):
                continue  # a valid odd spec would load a game: kept to the Neo4j group below
            add(command, [spec, *tail], False, "odd spec")
        add(command, ["chopsticks:attack-only" if command in ("load", "verify") else "chopsticks", *tail,
                      "--no-symmetry"], False, "no symmetry")

    # -- huge but valid specs under a memory limit --------------------------------------------------
    for spec in ("chopsticks(fingers=60)", "chopsticks(fingers=99,suicide=true)"):
        for command, tail in (("solve", []), ("show", []), ("export", ["-o", fx.path("huge.jsonl")])):
            # Generating until an allocation fails takes a while: +256 MB keeps it short on a busy machine.
            add(command, [spec, *tail], False, "huge spec, memory limit", memory_limit=1 << 28, timeout=180)
    add("solve", ["chopsticks(fingers=30)", "--max-positions", "1000"], True, "over --max-positions")

    # -- positions -----------------------------------------------------------------------------
    for game, positions in BAD_POSITIONS.items():
        for position in positions:
            add("show", [game, position], True, "bad position")
            add("solve", [game, "--start", position], True, "bad --start")
            add("export", [game, "--start", position], True, "bad --start")
            add("certificate", [game, "--position", position], True, "bad position")
            add("query", [game, "shortest-win", "--position", position], True, "bad position")
            add("query", [game, "path", "--to", position], True, "bad --to")
            add("query", [game, "neighbourhood", "--position", position, "--backend", "neo4j"], True,
                "bad position (Neo4j)")
            add("dot", [game, "shortest-win", "--position", position, "-o", fx.path("pos.dot")], True, "bad position")
            add("dot", [game, "certificate", "--position", position, "-o", fx.path("pos.dot")], True, "bad position")
            add("dot", [game, "graph", "--position", position, "-o", fx.path("pos.dot")], True, "bad position")
    for game, positions in EDGE_POSITIONS.items():
        for position in positions:
            add("show", [game, position], False, "odd position")
            add("solve", [game, "--start", position], False, "odd --start")
            add("certificate", [game, "--position", position], False, "odd position")
            add("query", [game, "path", "--to", position], False, "odd --to")
    add("certificate", ["chopsticks", "--position", "A|1-1|1-1"], False, "draw certificate")

    # -- numeric options ------------------------------------------------------------------------
    for value in BAD_INTS:
        add("solve", ["chopsticks", "--max-positions", value], True, "bad --max-positions")
        add("export", ["chopsticks", "--max-positions", value], True, "bad --max-positions")
        add("load", ["chopsticks:attack-only", "--batch-size", value], True, "bad --batch-size")
        add("load", ["chopsticks:attack-only", "--workers", value], True, "bad --workers")
        add("load", ["chopsticks:attack-only", "--max-positions", value], True, "bad --max-positions")
        add("verify", ["chopsticks:attack-only", "--max-positions", value], True, "bad --max-positions")
        add("dot", ["chopsticks", "graph", "--max-nodes", value, "-o", fx.path("g.dot")], True, "bad --max-nodes")
        for name, option in (("neighbourhood", "--k"), ("cycles", "--max-length"), ("shortest-cycle", "--max-length"),
                             ("stats", "--limit"), ("components", "--limit"), ("draw-cycles", "--limit")):
            add("query", ["chopsticks", name, option, value], True, f"bad {option}")
    for name, option, values in (("neighbourhood", "--k", ("11", "100")), ("cycles", "--max-length", ("13", "201")),
                                 ("shortest-cycle", "--max-length", ("201", "1000")),
                                 ("stats", "--limit", ("10001", "100001"))):
        for value in values:
            add("query", ["chopsticks", name, option, value], True, "out-of-range " + option)
    for value in BAD_FLOATS:
        add("query", ["chopsticks", "stats", "--timeout", value], value in BAD_FLOATS[:-3] + ["0x10"] or value == "86401",
            "bad --timeout")
        add("query", ["chopsticks", "stats", "--timeout", value, "--backend", "neo4j"], True, "bad --timeout (Neo4j)")
    for value in ("1", "100"):  # tiny batches must be refused or fast, never a hang
        add("load", ["chopsticks:attack-only", "--batch-size", value], False, "tiny --batch-size")
    add("load", ["chopsticks:attack-only", "--workers", "64"], False, "many --workers")

    # -- query names, directions, formats, backends --------------------------------------------
    for name in ("", "nosuch", "STATS", " stats", "stats;", HUGE_TEXT, "../stats", "shortest_win"):
        add("query", ["chopsticks", name], True, "bad query name")
        add("query", ["chopsticks", name, "--backend", "neo4j"], True, "bad query name (Neo4j)")
    for direction in ("", "sideways", "OUT ", HUGE_TEXT, "in,out"):
        add("query", ["chopsticks", "neighbourhood", "--direction", direction], direction.strip().lower() not in
            ("out", "in"), "bad --direction")
    for extra in (["--backend", "mongo"], ["--format", "xml"], ["--to", "A|1-1|1-1"], ["--k", "2"]):
        add("query", ["chopsticks", "stats", *extra], True, "option the query does not take")
    add("query", ["chopsticks", "path"], True, "path without --to")
    from queries.catalog import QUERIES
    for name in QUERIES:
        args = ["--to", "A|1-2|1-1"] if name == "path" else []
        add("query", ["chopsticks:attack-only", name, *args], False, "every query (networkx)")
        add("query", ["chopsticks:attack-only", name, *args, "--backend", "neo4j"], False, "every query (Neo4j)")
    add("query", ["chopsticks", "shortest-win"], True, "shortest-win of a draw")

    # -- outputs ----------------------------------------------------------------------------------
    for target, invalid, watch in output_targets(fx, ".jsonl"):
        add("export", ["chopsticks:attack-only", "-o", target], invalid, "output path", watch=watch)
        add("export", ["chopsticks:attack-only", "--edges", "--format", "csv", "-o", target], invalid,
            "output path", watch=watch)
    for target, invalid, watch in output_targets(fx, ".json"):
        add("certificate", ["chopsticks:attack-only", "-o", target], invalid, "output path", watch=watch)
    for target, invalid, watch in output_targets(fx, ".dot"):
        add("dot", ["chopsticks:attack-only", "shortest-win", "-o", target], invalid, "output path", watch=watch)
        add("dot", ["chopsticks:attack-only", "certificate", "-o", target], invalid, "output path", watch=watch)
    for target, invalid in ((fx.path("fifo.svg"), True), (fx.path("out.txt"), True), (fx.path("out"), True),
                            (fx.path("OUT.DOT"), False), (fx.path("x.svg.dot"), False)):
        add("dot", ["chopsticks:attack-only", "shortest-win", "-o", target], invalid, "diagram file name",
            watch=("fifo.svg",) if "fifo" in str(target) else ())
    for diagram in ("", "nosuch", "Shortest-Win", HUGE_TEXT):
        add("dot", ["chopsticks:attack-only", diagram, "-o", fx.path("d.dot")], True, "bad diagram")
    add("dot", ["chopsticks", "graph", "--max-nodes", "10", "-o", fx.path("g.dot")], True, "graph over --max-nodes")
    add("dot", ["chopsticks:attack-only", "graph", "--backend", "neo4j", "-o", fx.path("g.dot")], True,
        "graph from Neo4j")
    add("dot", ["chopsticks:attack-only", "shortest-win"], True, "dot without -o")
    for target, invalid, watch in (("", True, ()), (fx.path("regular.txt"), True, ()), (fx.path("fifo"), True, ("fifo",)),
                                   (fx.path("link-dir.json"), False, ("link-dir.json",)),
                                   (fx.path("import-out"), False, ()), ("/proc/fuzz", True, ())):
        add("export", ["chopsticks:attack-only", "--format", "neo4j-import", "-o", target], invalid,
            "neo4j-import folder", watch=watch)
    add("export", ["chopsticks:attack-only", "--format", "neo4j-import"], True, "neo4j-import without -o")
    add("export", ["chopsticks:attack-only", "--format", "neo4j-import", "--start", "A|1-2|1-1", "-o",
                   fx.path("import-out")], True, "neo4j-import with --start")

    # -- chart --------------------------------------------------------------------------------------
    for spec, invalid in (("nim:small", True), ("tictactoe", True), ("chopsticks(fingers=3)", False),
                          ("chopsticks:attack-only", False)):
        for fmt in ("text", "csv", "json"):
            add("chart", [spec, "--format", fmt], invalid, "chart of a game")
    add("chart", ["chopsticks", "--format", "xml"], True, "bad --format")

    # -- check-certificate ----------------------------------------------------------------------
    for name in ("fifo", "fifo.json", "link-fifo.json", "dir", "link-dir.json", "dangling.json", "missing.json",
                 "sparse-1g.json", "chardev.json", "regular.txt", "/proc/self/mem", "/proc/version", "", HUGE_TEXT):
        path = name if name.startswith("/") or not name or name == HUGE_TEXT else fx.path(name)
        watch = (name,) if name in fx.special else ()
        if name == "chardev.json" and name not in fx.special:
            continue
        # A dangling symlink may have been written through by an earlier `certificate -o` case.
        add("check-certificate", [path], name != "dangling.json", "not a certificate file", watch=watch)
    for name, content, invalid, group in certificate_files(fx):
        rel = f"certs/{name}"
        add("check-certificate", [fx.path(rel)], invalid, group, files={rel: content})

    # -- environment: state folder, Neo4j settings, password and pid files ------------------------
    env_commands = [("solve", ["chopsticks:attack-only"]), ("show", ["nim:small"]),
                    ("query", ["tictactoe", "stats"]), ("query", ["nim:small", "stats", "--backend", "neo4j"]),
                    ("load", ["nim:small"]), ("verify", ["nim:small"]), ("neo4j", ["status"]), ("neo4j", ["stop"]),
                    ("neo4j", ["start"]), ("certificate", ["nim:small"]), ("export", ["nim:small"]),
                    ("dot", ["nim:small", "shortest-win", "-o", fx.path("env.dot")])]
    for overrides, invalid, group in env_cases(fx):
        env = dict(overrides)
        for command, argv in env_commands:
            neo4j_side = command in ("load", "verify", "neo4j") or "--backend" in argv
            home_broken = "GAMEGRAPH_HOME" in env and group.startswith("home")
            # `solve` and a Neo4j query (password from the environment) keep no state.
            keeps_state = command != "solve" and "--backend" not in argv
            # A Neo4j setting is only wrong for the commands that use Neo4j; a broken state
            # folder is wrong for every command that keeps state.
            wrong = invalid and ((home_broken and keeps_state) or (neo4j_side and not home_broken))
            if command == "neo4j" and argv == ["start"]:
                # Never a real start: the port is held by this harness, and no java is on PATH.
                env = dict(env, NEO4J_URI=env.get("NEO4J_URI", f"bolt://127.0.0.1:{fx.busy_port}"),
                           PATH=str(fx.work / "no-java-here"))
                wrong = True
            if command == "neo4j" and argv == ["status"] and not home_broken:
                wrong = False  # status of a stopped server exits 3 anyway
            if (group.startswith("NEO4J_URI") or "password" in group) and command == "neo4j" and argv == ["stop"]:
                wrong = False  # stopping needs no URI and no password
            if group == "home not writable" and command == "neo4j" and argv == ["stop"]:
                # A missing home has no server to stop, and a look makes no folder to say so: as root, /proc
                # passes os.access, so "not running" (exit 0) is as right as a refusal.
                wrong = False
            if group in ("NEO4J_DATABASE missing", "NEO4J_DATABASE injection", "NEO4J_USER unknown",
                         "NEO4J_PASSWORD too short") and command == "neo4j" and argv != ["start"]:
                wrong = False
            add(command, argv, wrong, f"env: {group}", env=env)
            env = dict(overrides)

    # -- ui and up: validated before anything is spawned or built ------------------------------------
    for port in BAD_PORTS:
        add("ui", ["--port", port, "--headless"], True, "bad --port")
        add("up", ["--no-ui", "--no-neo4j", "--port", port], True, "bad --port")
        add("up", ["--no-neo4j", "--headless", "--port", port], True, "bad --port")
    add("ui", ["--port", str(fx.busy_port), "--headless"], True, "--port in use")
    add("up", ["--no-neo4j", "--headless", "--port", str(fx.busy_port)], True, "--port in use")
    for host in BAD_HOSTS:
        add("ui", ["--host", host, "--port", str(fx.closed_port), "--headless"], True, "bad --host")
        add("up", ["--no-neo4j", "--no-ui", "--host", host], True, "bad --host")
    # A valid command that solves and mirrors every Chopsticks preset and the small classic games: 22 s of CPU
    # and 83 s of wall time at load 11 (session 18); the default 30 s called it a hang.
    add("up", ["--no-neo4j", "--no-ui"], False, "prepare only", timeout=180)
    add("ui", ["extra-argument"], True, "extra argument")

    # -- neo4j -----------------------------------------------------------------------------------------
    for action in ("", "restart", "START", HUGE_TEXT):
        add("neo4j", [action], True, "bad action")
    add("neo4j", [], True, "no action")

    # -- load and verify against the server (or a closed port) ------------------------------------------
    for spec in ("chopsticks:attack-only", "nim:small", "tictactoe"):
        add("load", [spec], False, "load")
        add("verify", [spec], False, "verify")
    add("verify", ["nim(heaps=2-2)"], False, "verify a game never loaded")

    # -- issue 19's classes ----------------------------------------------------------------------------
    for command, argv, invalid, group, extra in edge_cases(fx):
        add(command, argv, invalid, group, **extra)

    # -- issue 40's second round, fresh for each seed ------------------------------------------------------------
    out.extend(fresh_cases(fx, seed))
    return out


# -- running -------------------------------------------------------------------------------
def _as_a_fresh_process() -> None:
    """This process picks compiled or plain kernels as `gamegraph` does (explorer.core.settings.kernels_from),
    not as the suite's own process (tests/conftest.py: every size compiled). The cases run in children forked
    from here, and a child forked after a parallel kernel has started numba's OpenMP threads dies at its first
    parallel kernel ("fork() called from a process already using GNU OpenMP"): the fixtures must not start them."""
    from explorer.algorithms import dispatch
    from explorer.core import settings

    dispatch.kernels_from = settings.kernels_from


def _classify(case: Case, code: int | None, out: str, err: str, clobbered: list[str]) -> str:
    if code is None:
        return "hang"
    if code < 0 and not case.signal:  # killed by a signal nobody sent: a crash (a segmentation fault, an abort)
        return "crash"
    if TRACEBACK in out or TRACEBACK in err or f"gamegraph: {INTERNAL}" in err:
        return "traceback"
    if clobbered:
        return "clobbered"
    if case.invalid and code == 0:
        return "exit-0"
    return "ok"


def _env_for(case: Case, fx: Fixtures) -> dict[bytes, bytes]:
    env = fx.base_env()
    for key, value in case.env.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return {os.fsencode(k): v if isinstance(v, bytes) else os.fsencode(v) for k, v in env.items()}


def _write_case_files(case: Case, fx: Fixtures) -> None:
    for rel, content in case.files.items():
        path = fx.work / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)


def _child(case: Case, fx: Fixtures, out_fd: int, err_fd: int) -> None:
    """In the forked child: become `gamegraph ARGV` as a fresh process would, then exit."""
    code = 1
    try:
        os.setpgid(0, 0)
        for sig in (signal.SIGTERM, signal.SIGALRM, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                                       errors="strict")
        sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                                       errors="backslashreplace", line_buffering=True)
        env = _env_for(case, fx)  # before the clear: the base environment reads this process's HOME and PATH
        os.environb.clear()
        os.environb.update(env)
        os.chdir(fx.work)
        if case.memory_limit:  # on top of what the forked process already maps
            with open("/proc/self/statm") as statm:
                mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            resource.setrlimit(resource.RLIMIT_AS, (mapped + case.memory_limit, mapped + case.memory_limit))
        argv = [os.fsdecode(a) if isinstance(a, bytes) else a for a in case.argv]
        sys.argv = ["gamegraph", *argv]
        from explorer import cli
        try:
            code = cli.main(argv)
        except SystemExit as exit_:
            if exit_.code is None or isinstance(exit_.code, int):
                code = exit_.code or 0
            else:
                print(exit_.code, file=sys.stderr)
                code = 1
        except BaseException:  # noqa: BLE001 - what the interpreter would print
            traceback.print_exc()
            code = 1
        try:
            sys.stdout.flush()
        except BaseException:  # noqa: BLE001
            traceback.print_exc()
            code = code or 120
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - a harness failure, reported like a traceback
        try:
            os.write(2, traceback.format_exc().encode())
        except OSError:
            pass
    finally:
        os._exit(int(code or 0) & 0xFF if isinstance(code, int) else 1)


EXEC_BASE_ADDRESS_SPACE = 3 << 29  # 1.5 GB: a fresh interpreter with numpy, scipy and the driver imported


def _pid(handle) -> int:
    return handle if isinstance(handle, int) else handle.pid


def _limit_memory(extra: int | None):
    if not extra:
        return None
    limit = EXEC_BASE_ADDRESS_SPACE + extra
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


WALL_LIMIT = 20   # times a case's timeout: a case starved that long is a hang all the same


class OwnTime:
    """A running case's own time: its wall time less the time its process waited, runnable, for a core that
    other processes held (the full fuzz runs under `nice -n 19` beside other work, where a 0.3 s
    check-certificate took 30 s of wall time and a wall-clock timeout called it a hang). The wait is the
    kernel's (/proc/PID/schedstat, the main thread's), which it brings up to date only when the process next
    runs; so a process still runnable ('R') whose counters have not moved since an earlier look has been
    waiting since then too. A process blocked on a FIFO or a lock, or spinning, waits on no runqueue: all its
    time counts. 0 waiting where the kernel keeps no such figures. O(1) a look."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[tuple, float]] = {}

    def seconds(self, pid: int, elapsed: float) -> float:
        now = time.monotonic()
        try:
            with open(f"/proc/{pid}/schedstat") as stats:
                counters = tuple(int(n) for n in stats.read().split()[:3])
            with open(f"/proc/{pid}/stat") as stat:
                state = stat.read().rpartition(")")[2].split()[0]
        except (OSError, ValueError, IndexError):
            return elapsed
        before = self._seen.get(pid)
        if before is None or before[0] != counters:
            self._seen[pid] = (counters, now)
            still_waiting = 0.0
        else:
            still_waiting = now - before[1] if state == "R" else 0.0
        return elapsed - counters[1] / 1e9 - still_waiting

    def forget(self, pid: int) -> None:
        self._seen.pop(pid, None)


class Runner:
    """Runs cases `jobs` at a time, forked or exec'd, each with its own timeout."""

    def __init__(self, fx: Fixtures, mode: str, jobs: int, timeout: float):
        self.fx, self.mode, self.jobs, self.timeout = fx, mode, jobs, timeout
        self.own_time = OwnTime()  # what a case's timeout counts (WALL_LIMIT times it of wall time at most)

    def _start(self, case: Case):
        _write_case_files(case, self.fx)
        if case.prepare is not None:
            case.prepare()
        out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        if self.mode == "fork":
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(case, self.fx, out.fileno(), err.fileno())
            handle: Any = pid
        else:
            import subprocess
            handle = subprocess.Popen([sys.executable, "-m", "explorer.cli", *case.argv], cwd=self.fx.work,
                                      env=_env_for(case, self.fx), stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                      start_new_session=True, preexec_fn=_limit_memory(case.memory_limit))
        return handle, out, err, time.monotonic()

    @staticmethod
    def _poll(handle) -> int | None:
        if isinstance(handle, int):
            pid, status = os.waitpid(handle, os.WNOHANG)
            return None if pid == 0 else os.waitstatus_to_exitcode(status)
        return handle.poll()

    _signalled: set = set()

    def _signal(self, handle, number: int) -> None:
        """Send `number` to the case's process (fork mode: its own process group, as a terminal would)."""
        pid = handle if isinstance(handle, int) else handle.pid
        if pid in self._signalled:
            return
        self._signalled.add(pid)
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            pass

    @staticmethod
    def _kill(handle) -> None:
        pid = handle if isinstance(handle, int) else handle.pid
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if isinstance(handle, int):
            os.waitpid(handle, 0)
        else:
            handle.wait()

    def run(self, todo: list[Case], progress: bool = False) -> Iterator[Result]:
        running: list = []
        try:
            yield from self._run(todo, running, progress)
        finally:  # interrupted: no case outlives the harness
            for entry in running:
                self._kill(entry[1])

    def _run(self, todo: list[Case], running: list, progress: bool) -> Iterator[Result]:
        pending = list(reversed(todo))
        done = 0
        while pending or running:
            watched_busy = {name for entry in running for name in entry[0].watch}
            while pending and len(running) < self.jobs:
                case = pending[-1]
                serial = case.memory_limit or case.watch  # memory-hungry or watched: alone
                if running and (serial or any(r[0].memory_limit or r[0].watch for r in running)):
                    break
                if set(case.watch) & watched_busy:
                    break
                pending.pop()
                running.append((case, *self._start(case)))
            time.sleep(0.005)
            still = []
            for case, handle, out, err, began in running:
                code = self._poll(handle)
                elapsed = time.monotonic() - began
                if code is None and case.signal and elapsed >= case.signal[1]:
                    self._signal(handle, case.signal[0])
                timeout = case.timeout or self.timeout
                if code is None and elapsed > timeout and (
                        elapsed > WALL_LIMIT * timeout or self.own_time.seconds(_pid(handle), elapsed) > timeout):
                    self._kill(handle)
                elif code is None:
                    still.append((case, handle, out, err, began))
                    continue
                self.own_time.forget(_pid(handle))
                clobbered = [name for name in self.fx.check_special() if name in case.watch or not case.watch]
                if self.fx.check_special():
                    self.fx.restore_special()
                texts = []
                for stream in (out, err):
                    stream.seek(0)
                    texts.append(stream.read(200_000).decode("utf-8", "replace"))
                    stream.close()
                done += 1
                if progress and done % 100 == 0:
                    print(f"  {done}/{len(todo)} cases", file=sys.stderr, flush=True)
                verdict = _classify(case, code, texts[0], texts[1], clobbered)
                if verdict in ("ok", "exit-0") and case.check is not None:
                    verdict = case.check(code, texts[0], texts[1]) or verdict
                yield Result(case, code, elapsed, texts[0], texts[1], verdict)
            running[:] = still


# -- selection and report --------------------------------------------------------------------
def sample(all_cases: list[Case], count: int | None, seed: int) -> list[Case]:
    """A stratified sample: each command keeps its share (at least a few cases), chosen by `seed`."""
    if count is None or count >= len(all_cases):
        return all_cases
    rng = random.Random(seed)
    by_command: dict[str, list[int]] = defaultdict(list)
    for index, case in enumerate(all_cases):
        by_command[case.command].append(index)
    chosen: list[int] = []
    for command, indices in sorted(by_command.items()):
        share = max(min(len(indices), 5), round(count * len(indices) / len(all_cases)))
        chosen += rng.sample(indices, min(share, len(indices)))
    rng.shuffle(chosen)  # a run cut short by --time-limit still covers every command
    return [all_cases[i] for i in chosen]


VERDICTS = ("traceback", "crash", "exit-0", "hang", "clobbered", "half-written", "mode-changed")


def summarise(results: list[Result]) -> dict[str, Any]:
    table: dict[str, Counter] = defaultdict(Counter)
    for result in results:
        row = table[result.case.command or "(none)"]
        row["tried"] += 1
        row["invalid"] += result.case.invalid
        row[result.verdict] += 1
    total = Counter()
    for row in table.values():
        total.update(row)
    return {"commands": {k: dict(v) for k, v in sorted(table.items())}, "total": dict(total)}


def report_text(summary: dict[str, Any], results: list[Result], seconds: float, shown: int = 40) -> str:
    lines = [f"{'command':<18} {'tried':>6} {'invalid':>8} " + " ".join(f"{v:>9}" for v in VERDICTS)]
    for command, row in list(summary["commands"].items()) + [("TOTAL", summary["total"])]:
        lines.append(f"{command:<18} {row.get('tried', 0):>6} {row.get('invalid', 0):>8} "
                     + " ".join(f"{row.get(v, 0):>9}" for v in VERDICTS))
    failures = [r for r in results if r.verdict != "ok"]
    lines.append(f"{len(results)} cases in {seconds:.0f} s; {len(failures)} failed")
    for result in failures[:shown]:
        tail = (result.stderr.strip().splitlines() or [""])[-1][:200]
        lines.append(f"  [{result.verdict}] ({result.case.group}) {result.case.describe()}\n      exit {result.code}: {tail}")
    if len(failures) > shown:
        lines.append(f"  ... and {len(failures) - shown} more (see --json)")
    return "\n".join(lines)


# Where a process may write without being asked: the system's temporary folders (their top level) and HOME
# (all of it). The kernels' per-user cache in HOME is documented (docs/kernels.md) and reported apart.
STRAY_ROOTS = ("/tmp", "/var/tmp", "/dev/shm")
EXPECTED_IN_HOME = (".cache/gamegraph",)


def _snapshot(home: str | None) -> set[str]:
    """Paths this user owns in STRAY_ROOTS (top level) and under `home`."""
    found: set[str] = set()
    uid = os.geteuid()
    for root in STRAY_ROOTS:
        try:
            with os.scandir(root) as entries:
                for entry in entries:
                    try:
                        if entry.stat(follow_symlinks=False).st_uid == uid:
                            found.add(entry.path)
                    except OSError:
                        continue
        except OSError:
            continue
    if home and os.path.isdir(home) and home not in ("/", "/root"):
        for folder, dirs, names in os.walk(home):
            found.update(os.path.join(folder, n) for n in dirs + names)
    return found


def stray_writes(before: set[str], after: set[str], allowed: Iterable[Path], home: str | None) -> tuple[list[str], list[str]]:
    """(paths that appeared outside `allowed`, those of them in the kernels' per-user cache, which is expected)."""
    allowed = [str(a) for a in allowed]
    new = sorted(p for p in after - before if not any(p == a or p.startswith(a + "/") for a in allowed))
    expected = [p for p in new if home and any(p.startswith(os.path.join(home, e)) for e in EXPECTED_IN_HOME)]
    return [p for p in new if p not in expected], expected


def run_fuzz_fresh(**options: Any) -> dict[str, Any]:
    """run_fuzz(**options) in a fresh interpreter (multiprocessing's spawn), with what a test reads of it:
    the report's text, the failed cases described, and the commands, groups and counts tried. The cases run
    in children forked from the process that runs them, and a child forked from a process whose numba
    OpenMP threads have started dies at its first parallel kernel ("fork() called from a process already
    using GNU OpenMP"): a pytest worker has run other files' parallel kernels before (ci8's one crash)."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_fuzz_digest, kwds=options)


def _fuzz_digest(**options: Any) -> dict[str, Any]:
    results, seconds = run_fuzz(**options)
    summary = summarise(results)
    return {"report": report_text(summary, results, seconds), "count": len(results),
            "failed": [f"[{r.verdict}] {r.case.describe()}" for r in results if r.verdict != "ok"],
            "commands": sorted(summary["commands"]), "invalid": sum(r.case.invalid for r in results),
            "groups": sorted({r.case.group.split(" (")[0] for r in results})}


def run_fuzz(count: int | None = None, seed: int = 1, mode: str = "fork", jobs: int = 2, timeout: float = 30.0,
             neo4j: bool = False, commands: Iterable[str] | None = None, time_limit: float | None = None,
             progress: bool = False, memory_cases: bool = True, full_disk: str | None = None,
             strays: list | None = None, only_fresh: bool = False) -> tuple[list[Result], float]:
    """Build the fixtures, run the (sampled) cases, and return the results and the seconds taken. With
    `full_disk` (a small filesystem of its own, writable here), the full-disk cases run there; `strays`, when
    given, receives (paths written outside the work folder, the state folders and that filesystem; those in the
    kernels' per-user cache)."""
    began = time.monotonic()
    home = os.environ.get("HOME")
    before = _snapshot(home) if strays is not None else set()
    work = Path(tempfile.mkdtemp(prefix="gamegraph-fuzz-"))
    fx = Fixtures(work, os.environ.get("NEO4J_URI", "") if neo4j else "",
                  _password_from_env() if neo4j else None)
    fx.full_disk = Path(full_disk) if full_disk else None
    saved_home = os.environ.get("GAMEGRAPH_HOME")
    try:
        fx.make_certificates()
        _preimport()
        todo = list(fresh_cases(fx, seed)) if only_fresh else cases(fx, seed)
        if commands:
            todo = [c for c in todo if c.command in set(commands)]
        if not memory_cases:  # each runs until its allocation fails: about a minute
            todo = [c for c in todo if not c.memory_limit]
        todo = sample(todo, count, seed)
        results: list[Result] = []
        for result in Runner(fx, mode, jobs, timeout).run(todo, progress=progress):
            results.append(result)
            if time_limit is not None and time.monotonic() - began > time_limit:
                break
        if strays is not None:
            strays.extend(stray_writes(before, _snapshot(home), [work] + ([fx.full_disk] if fx.full_disk else []), home))
        return results, time.monotonic() - began
    finally:
        if saved_home is None:
            os.environ.pop("GAMEGRAPH_HOME", None)
        else:
            os.environ["GAMEGRAPH_HOME"] = saved_home
        fx.close()
        shutil.rmtree(work, ignore_errors=True)
        if fx.full_disk:
            for entry in fx.full_disk.iterdir():
                shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink()


def _preimport() -> None:
    """Import what the commands import, once, so that a forked case costs milliseconds."""
    import importlib

    from explorer import cli
    cli.build_parser()
    for name in ("explorer.render.dot", "explorer.certificate", "explorer.render.chart", "explorer.export", "loaders.mirror",
                 "loaders.neo4j_import", "loaders.neo4j_server", "queries.api"):
        try:
            importlib.import_module(name)
        except ImportError:
            continue


def _password_from_env() -> str | None:
    """NEO4J_PASSWORD, else the password file of the caller's state folder (never printed)."""
    if os.environ.get("NEO4J_PASSWORD"):
        return os.environ["NEO4J_PASSWORD"]
    home = Path(os.environ.get("GAMEGRAPH_HOME") or ".gamegraph")
    try:
        return (home / "neo4j" / "password").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, help="a stratified sample of this many cases (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=("fork", "exec"), default="fork")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case (default 30)")
    parser.add_argument("--time-limit", type=float, help="stop starting cases after this many seconds")
    parser.add_argument("--neo4j", action="store_true", help="cases that talk to Neo4j use NEO4J_URI")
    parser.add_argument("--commands", help="comma-separated subcommands to fuzz (default: all)")
    parser.add_argument("--json", help="write the summary and every failure to this file")
    parser.add_argument("--list", action="store_true", help="print the cases and exit")
    parser.add_argument("--full-disk", metavar="DIR", help="a small filesystem of its own (a tmpfs of a few MiB), "
                                                            "writable by this user: the full-disk cases run there")
    args = parser.parse_args(argv)
    commands = args.commands.split(",") if args.commands else None
    if args.list:
        work = Path(tempfile.mkdtemp(prefix="gamegraph-fuzz-"))
        fx = Fixtures(work, "", None)
        saved_home = os.environ.get("GAMEGRAPH_HOME")
        try:
            fx.make_certificates()
            if saved_home is not None:
                os.environ["GAMEGRAPH_HOME"] = saved_home
            fx.full_disk = Path(args.full_disk) if args.full_disk else None
            listed = sample([c for c in cases(fx, args.seed) if not commands or c.command in commands], args.count,
                            args.seed)
            for case in listed:
                print(f"{'invalid' if case.invalid else 'edge   '} {case.group:<32} {case.describe()}")
        finally:
            fx.close()
            shutil.rmtree(work, ignore_errors=True)
        return 0
    strays: list = []
    results, seconds = run_fuzz(args.count, args.seed, args.mode, args.jobs, args.timeout, args.neo4j, commands,
                                args.time_limit, progress=True, full_disk=args.full_disk, strays=strays)
    summary = summarise(results)
    stray, expected = strays if strays else ([], [])
    summary["stray_writes"], summary["kernel_cache_writes"] = len(stray), len(expected)
    print(report_text(summary, results, seconds))
    print(f"stray writes: {len(stray)}" + "".join(f"\n  {p}" for p in stray[:20])
          + f"\n(the kernels' per-user cache in HOME: {len(expected)} paths, expected)")
    if args.json:
        failures = [{"verdict": r.verdict, "group": r.case.group, "command": r.case.command,
                     "invocation": r.case.describe(), "exit": r.code, "seconds": round(r.seconds, 2),
                     "stderr": r.stderr[-2000:], "stdout": r.stdout[-500:]} for r in results if r.verdict != "ok"]
        slowest = sorted(results, key=lambda r: -r.seconds)[:10]
        Path(args.json).write_text(json.dumps({
            "seed": args.seed, "mode": args.mode, "count": len(results), "seconds": round(seconds, 1),
            "summary": summary, "failures": failures, "stray_writes": stray,
            "slowest": [{"invocation": r.case.describe(), "seconds": round(r.seconds, 2)} for r in slowest]},
            indent=1))
    return 1 if any(r.verdict != "ok" for r in results) or stray else 0


if __name__ == "__main__":
    sys.exit(main())
