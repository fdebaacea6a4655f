"""Starts, stops and reports on a real Neo4j 5.26 Community server, without Docker.

The server is Neo4j embedded with a Bolt connector (launcher/Neo4jLauncher.java)
in a JVM of its own, so developers and CI need only a JDK and Maven: `mvn`
resolves the jars from Maven Central once and `javac` compiles the launcher, both
cached by content hash. Everything lives in settings.neo4j_dir():

    classpath.txt, classpath.key   the jars Maven resolved, for the pom's hash
    classes/, classes.key          the compiled launcher, for the pom's and source's hash
    data/, logs/                   Neo4j's store and its own logs (debug.log, ...)
    neo4j.pid, launcher.log        the launcher JVM and its stdout/stderr
    ready                          written by the launcher once Bolt answers: its URI
    import/                        LOAD CSV's folder, kept empty (file URLs are off anyway)
    password                       generated on first start unless NEO4J_PASSWORD is set
    lock                           serialises start and stop between processes

Process checks read /proc, so this runs on Linux (and in Linux containers).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from explorer.core.errors import GameGraphError, LauncherError, Neo4jUnavailable
from explorer.core.files import read_regular_file
from explorer.core.private import ensure_private_dir, existing_state_path
from explorer.core.settings import state_dir_location
from loaders.settings import (NEO4J_KIND, Neo4jSettings, check_uri, extra_jvm_options, neo4j_dir, neo4j_uri,
                              open_driver, server_heap, server_pagecache)

LAUNCHER_DIR = Path(__file__).parent / "launcher"
POM = LAUNCHER_DIR / "pom.xml"
SOURCE = LAUNCHER_DIR / "src" / "main" / "java" / "gamegraph" / "Neo4jLauncher.java"
MAIN_CLASS = "gamegraph.Neo4jLauncher"
PID_MAX = 4_194_304  # Linux's largest pid (PID_MAX_LIMIT); a pid file holding more is stale

JDK_HINT = "install a Java 17+ JDK (Debian: apt-get install openjdk-17-jdk-headless)"
MAVEN_HINT = "install Apache Maven (Debian: apt-get install maven)"

# The JVM options of Neo4j 5.26's own conf/neo4j.conf (server.jvm.additional), less
# -XX:+AlwaysPreTouch (it commits the whole heap up front) and the profiling aids, and with the
# JVM's performance data file off (it is written outside the state folder, in /tmp).
# The --add-opens let Neo4j and Netty reach JDK internals they need on Java 17+.
# No hsperfdata_<user>/<pid> left in the system's temporary folder (issue 40), by the server, neo4j-admin,
# Maven or javac.
NO_PERF_DATA = "-XX:-UsePerfData"
NEO4J_JVM_OPTIONS = (
    "-XX:+UseG1GC",
    NO_PERF_DATA,
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dlog4j.layout.jsonTemplate.maxStringLength=32768",
)


@dataclass(frozen=True)
class ServerStatus:
    running: bool      # this state folder's own server: what `neo4j status` exits 0 (running) or 3 (stopped) on
    pid: int | None
    uri: str
    data_dir: Path
    version: str
    log_file: Path
    # While this folder's server is stopped: what answers at `uri` instead (another state folder's Neo4j, another
    # program), or None when nothing does or nobody looked. A bare "stopped" misled when a query then reached it.
    elsewhere: str | None = None

    def __str__(self) -> str:
        if self.running:
            state = f"running (pid {self.pid})"
        else:
            state = f"stopped: no server of this state folder ({self.data_dir.parent.parent}) runs"
        lines = [f"Neo4j {self.version}: {state}"]
        if self.elsewhere:
            lines.append(f"but something else answers at {self.uri}: {self.elsewhere}")
        return "\n".join(lines + [f"URI:  {self.uri}", f"data: {self.data_dir}", f"log:  {self.log_file}"])


# A first start creates the store; on a busy 2-core machine that took over 120 s.
START_TIMEOUT_S = 300.0


def start(host: str | None = None, port: int | None = None, *, timeout: float = START_TIMEOUT_S) -> ServerStatus:
    """Starts the server unless it already runs, and returns once Bolt accepts the credentials.

    host and port default to those of NEO4J_URI. The password is NEO4J_PASSWORD, else
    the password file (generated now if missing); the launcher makes it the neo4j
    user's password on every start. Heap and page cache come from GAMEGRAPH_NEO4J_HEAP
    (default 2g) and GAMEGRAPH_NEO4J_PAGECACHE (default 256m). Raises LauncherError if
    it cannot start, and Neo4jUnavailable if it runs but refuses these settings (say,
    NEO4J_DATABASE names a database it lacks).
    """
    folder = neo4j_dir()
    heap = server_heap()
    pagecache = server_pagecache()
    extra = extra_jvm_options()
    with _lock(folder):
        settings = Neo4jSettings.from_env(create_password=True)
        pid = _launcher_pid(folder)
        if pid is not None:
            settings = replace(settings, uri=_ready_uri(folder) or settings.uri)
            _say(f"Neo4j is already running (pid {pid}) at {settings.uri}")
            _wait_until_ready(folder, pid, settings, timeout)
            return status()

        default_host, default_port = check_uri(neo4j_uri())
        host = host or default_host or "127.0.0.1"
        port = port or default_port or 7687
        java = _tool("java", JDK_HINT)
        _check_port_free(host, port)
        classpath = _classpath(folder)
        classes = _compile(folder, classpath)

        _remove_ready(folder)
        argv = [
            java, f"-Xms{heap}", f"-Xmx{heap}", *NEO4J_JVM_OPTIONS, *extra,
            "-cp", os.pathsep.join([str(classes), classpath]), MAIN_CLASS,
            f"--home={folder}", f"--bolt-host={host}", f"--bolt-port={port}",
            f"--pagecache={pagecache}",
        ]
        # The password goes through the environment: a command line is world-readable.
        env = {**os.environ, "NEO4J_PASSWORD": settings.password}
        log = folder / "launcher.log"
        began = time.monotonic()
        _say(f"starting Neo4j {neo4j_version()} at bolt://{host}:{port} (log: {log})")
        pid = os.posix_spawn(java, argv, env, setsid=True, file_actions=[
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, str(log), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
            (os.POSIX_SPAWN_DUP2, 1, 2),
        ])
        (folder / "neo4j.pid").write_text(f"{pid}\n")
        settings = replace(settings, uri=f"bolt://{host}:{port}")
        try:
            _wait_until_ready(folder, pid, settings, timeout)
        except LauncherError:
            _terminate(folder, pid, 30.0)
            raise
        _say(f"Neo4j is ready (pid {pid}) at {settings.uri} after {time.monotonic() - began:.1f} s")
        return status()


def stop(timeout: float = 60.0, only: int | None = None) -> bool:
    """Stops the server cleanly (SIGTERM: the launcher shuts Neo4j down and checkpoints);
    SIGKILL only if it has not exited after timeout seconds. True if it was running. With `only`,
    the server is stopped only if it is still that launcher (pid): a command that started one
    leaves alone a server someone else started after it (`gamegraph neo4j stop`, then `start`)."""
    folder = existing_state_path(NEO4J_KIND)
    if folder is None:  # no state folder, so no server of it: nothing to stop, and nothing is created
        _say("Neo4j is not running")
        return False
    with _lock(folder):
        pid = _launcher_pid(folder)
        if pid is None:
            _say("Neo4j is not running")
            return False
        if only is not None and pid != only:
            _say(f"Neo4j (pid {pid}) is not the server this command started (pid {only}): it keeps running")
            return False
        _say(f"stopping Neo4j (pid {pid})")
        _terminate(folder, pid, timeout)
        _say("Neo4j stopped")
        return True


def status(look_elsewhere: bool = False) -> ServerStatus:
    """This state folder's server. With `look_elsewhere`, when it is stopped, also what answers at the URI
    commands would use (`ServerStatus.elsewhere`): up to a second's wait on an address that does not answer.
    A look only: where there is no state folder yet it reports the server stopped and creates nothing."""
    folder = existing_state_path(NEO4J_KIND)
    if folder is None:
        folder = state_dir_location() / NEO4J_KIND
        pid = None
    else:
        pid = _launcher_pid(folder)
    uri = (_ready_uri(folder) if pid else None) or neo4j_uri()
    return ServerStatus(
        running=pid is not None,
        pid=pid,
        uri=uri,
        data_dir=folder / "data",
        version=neo4j_version(),
        log_file=folder / "launcher.log",
        elsewhere=_who_answers(uri) if look_elsewhere and pid is None else None,
    )


PROBE_TIMEOUT_S = 1.0
# Bolt's handshake: the magic preamble, then four version proposals (5.0 to 5.8, 4.4, none, none).
# A Bolt server answers with the four bytes of the version it picked (all zero if none suits).
BOLT_HANDSHAKE = bytes.fromhex("6060b017" "00080805" "00000404" "00000000" "00000000")


def _who_answers(uri: str) -> str | None:
    """What accepts connections at uri's host and port, in words, or None if nothing does. Names another state
    folder's embedded Neo4j, or a local program by its name and pid where /proc shows it, else tells by Bolt's
    handshake whether it is a Neo4j (Bolt) server at all. O(processes) for the /proc look-up."""
    host, port = check_uri(uri)
    host, port = host or "127.0.0.1", port or 7687
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S) as connection:
            connection.settimeout(PROBE_TIMEOUT_S)
            local = connection.getpeername()[0] == connection.getsockname()[0] or _is_loopback(host)
            connection.sendall(BOLT_HANDSHAKE)
            reply = _read_exactly(connection, 4)
    except OSError:
        return None
    owner = _listener(port) if local else None
    if owner is not None and owner[1] is not None:
        return f"the embedded Neo4j of another state folder, GAMEGRAPH_HOME={owner[1]} (pid {owner[0]})"
    speaks = ("a Neo4j (Bolt) server" if reply and reply != bytes(4) else
              "a Bolt server that accepts none of gamegraph's Bolt versions" if reply else
              "a program that does not speak Bolt (not a Neo4j server)")
    if owner is not None:
        return f"{speaks}: {_program_name(owner[0])} (pid {owner[0]})"
    return speaks


def _read_exactly(connection: socket.socket, size: int) -> bytes | None:
    """`size` bytes from connection, or None if it closes or stays silent first."""
    data = b""
    try:
        while len(data) < size:
            chunk = connection.recv(size - len(data))
            if not chunk:
                return None
            data += chunk
    except OSError:
        return None
    return data


def _is_loopback(host: str) -> bool:
    import ipaddress

    try:
        return all(ipaddress.ip_address(info[4][0]).is_loopback for info in socket.getaddrinfo(host, None))
    except (OSError, ValueError):
        return False


def _listener(port: int) -> tuple[int, str | None] | None:
    """(pid, state folder or None) of a process of this user listening on a local TCP port, read from /proc;
    the state folder when it is gamegraph's embedded-Neo4j launcher. None when /proc does not show one (another
    user's process, or not Linux)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            # local_address is HEXIP:HEXPORT; state 0A is LISTEN; the inode is the tenth field
            if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    if not inodes:
        return None
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = {os.readlink(fd) for fd in (entry / "fd").iterdir()}
        except OSError:
            continue  # another user's process, or gone meanwhile
        if links & inodes:
            return int(entry.name), _launcher_state_folder(int(entry.name))
    return None


def _launcher_state_folder(pid: int) -> str | None:
    """The state folder (GAMEGRAPH_HOME) whose embedded Neo4j this pid runs, or None if it is not a launcher."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    if MAIN_CLASS.encode() not in args:
        return None
    homes = [a[len(b"--home="):] for a in args if a.startswith(b"--home=")]
    return str(Path(os.fsdecode(homes[0])).parent) if homes else None


def _program_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() or "a program"
    except OSError:
        return "a program"


def neo4j_version() -> str:
    """The Neo4j version the launcher's pom pins: the one source of that number."""
    return re.search(r"<neo4j\.version>(.+?)</neo4j\.version>", POM.read_text()).group(1)


def classpath() -> str:
    """The server's jars (Neo4j's admin and import tools included), resolved by Maven on first use."""
    return _classpath(neo4j_dir())


def java() -> str:
    return _tool("java", JDK_HINT)


def _wait_until_ready(folder: Path, pid: int, settings: Neo4jSettings, timeout: float) -> None:
    """Waits for the launcher's ready marker, then for the driver to get in.

    The marker comes after the launcher has set the password: trying to log in before
    would count failed attempts against the neo4j user, which Neo4j locks after three."""
    from neo4j.exceptions import ServiceUnavailable

    deadline = time.monotonic() + timeout
    while True:
        if not _is_launcher(pid, folder):
            raise LauncherError(f"Neo4j exited during start-up; end of {folder / 'launcher.log'}:\n{_log_tail(folder)}")
        if (folder / "ready").exists():
            try:
                open_driver(settings).close()
                return
            except Neo4jUnavailable as error:
                if not isinstance(error.__cause__, ServiceUnavailable):
                    raise  # it answers but refuses: waiting will not help
        if time.monotonic() > deadline:
            raise LauncherError(
                f"Neo4j did not answer at {settings.uri} within {timeout:.0f} s; "
                f"end of {folder / 'launcher.log'}:\n{_log_tail(folder)}"
            )
        time.sleep(0.25)


def _terminate(folder: Path, pid: int, timeout: float) -> None:
    _signal(pid, signal.SIGTERM)
    if not _exited(pid, folder, timeout):
        _say(f"Neo4j (pid {pid}) did not stop within {timeout:.0f} s; killing it")
        _signal(pid, signal.SIGKILL)
        if not _exited(pid, folder, 10.0):
            raise LauncherError(f"could not stop Neo4j (pid {pid}), not even with SIGKILL")
    (folder / "neo4j.pid").unlink(missing_ok=True)
    _remove_ready(folder)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass  # it exited on its own meanwhile


def _exited(pid: int, folder: Path, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while _is_launcher(pid, folder):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _launcher_pid(folder: Path) -> int | None:
    """The pid of the launcher serving folder, or None; clears a stale pid file.

    The file must be a small regular file holding a pid (1..PID_MAX): anything else
    (a 20-digit number, text, a FIFO) is stale and removed; a folder in its place
    is reported, never removed."""
    pid_file = folder / "neo4j.pid"
    if not os.path.lexists(pid_file):
        return None
    try:
        text = read_regular_file(pid_file, 64, "pid file").decode("ascii", "replace").strip()
    except GameGraphError as error:
        if pid_file.is_dir():
            raise LauncherError(f"{error}; remove it (no Neo4j of this state folder can be found)") from None
        text = ""  # too big, a FIFO or unreadable: stale
    pid = int(text) if text.isascii() and text.isdigit() and len(text) <= len(str(PID_MAX)) else 0
    if 0 < pid <= PID_MAX and _is_launcher(pid, folder):
        return pid
    pid_file.unlink(missing_ok=True)
    _remove_ready(folder)
    return None


def _remove_ready(folder: Path) -> None:
    ready = folder / "ready"
    if ready.is_dir() and not ready.is_symlink():
        raise LauncherError(f"{ready} is a folder where the launcher writes a file; remove it")
    ready.unlink(missing_ok=True)


def _is_launcher(pid: int, folder: Path) -> bool:
    """True if pid is alive and is our launcher for folder, not a process that was
    given the pid of one that died (a stale pid file must never get someone killed)."""
    try:
        # Our own child (started by this process) keeps its pid until reaped here, so
        # it needs no identity check; that check could also miss it before its exec.
        return os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        pass
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return MAIN_CLASS.encode() in args and f"--home={folder}".encode() in args


def _ready_uri(folder: Path) -> str | None:
    """The URI the running launcher wrote once Bolt answered, or None (missing, or not a small text file)."""
    ready = folder / "ready"
    if not os.path.lexists(ready):
        return None
    try:
        text = read_regular_file(ready, 4096, "ready file").decode("utf-8").strip()
        check_uri(text)
    except (GameGraphError, UnicodeDecodeError):
        return None
    return text or None


def _check_port_free(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Netty binds
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                holder = _who_answers(f"bolt://{host}:{port}") or "another program"
                advice = (f"{holder} holds that port: stop it, or start this one on a free port, e.g. "
                          f"NEO4J_URI=bolt://{host}:{_free_port(host)} gamegraph neo4j start "
                          "(and keep NEO4J_URI set for the commands that use it)")
            else:
                advice = "this machine cannot listen there"
            raise LauncherError(f"cannot start Neo4j on {host}:{port}: {error.strerror}; {advice}") from error


def _free_port(host: str) -> int:
    """A port free on `host` now (the system's choice), for advice: it may be taken by the time it is used."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _classpath(folder: Path) -> str:
    """The launcher's jars, resolved by Maven once per version of the pom."""
    out, stamp = folder / "classpath.txt", folder / "classpath.key"
    key = _digest(POM)
    if _stamped(stamp, key) and out.exists():
        jars = out.read_text().strip()
        if all(Path(jar).exists() for jar in jars.split(os.pathsep)):
            return jars
    mvn = _tool("mvn", MAVEN_HINT)
    _say(f"resolving Neo4j {neo4j_version()} jars with Maven (first run only)...")
    began = time.monotonic()
    # Maven's own JVM takes MAVEN_OPTS: its performance data file off too (the user's options kept).
    maven_opts = f"{os.environ.get('MAVEN_OPTS', '')} {NO_PERF_DATA}".strip()
    _run([mvn, "-q", "-B", "-f", str(POM), "dependency:build-classpath", f"-Dmdep.outputFile={out}"],
         "resolving the Neo4j jars with Maven", env={**os.environ, "MAVEN_OPTS": maven_opts})
    stamp.write_text(key)
    _say(f"resolved the jars in {time.monotonic() - began:.0f} s")
    return out.read_text().strip()


def _compile(folder: Path, classpath: str) -> Path:
    """The compiled launcher, rebuilt when its source or its Neo4j version changes."""
    classes, stamp = folder / "classes", folder / "classes.key"
    key = _digest(POM, SOURCE)
    if _stamped(stamp, key) and (classes / "gamegraph" / "Neo4jLauncher.class").exists():
        return classes
    javac = _tool("javac", JDK_HINT)
    shutil.rmtree(classes, ignore_errors=True)
    _run([javac, f"-J{NO_PERF_DATA}", "--release", "17", "-d", str(classes), "-cp", classpath, str(SOURCE)],
         "compiling the Neo4j launcher")
    stamp.write_text(key)
    return classes


def _tool(name: str, hint: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise LauncherError(f"{name} not found: {hint}")
    return path


def _run(argv: list[str], what: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip().splitlines()
        raise LauncherError(f"{what} failed (exit {done.returncode}):\n" + "\n".join(output[-30:]))


def _digest(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _stamped(stamp: Path, key: str) -> bool:
    return stamp.exists() and stamp.read_text() == key


def _log_tail(folder: Path, lines: int = 30) -> str:
    try:
        return "\n".join((folder / "launcher.log").read_text(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return "(no log)"


@contextmanager
def _lock(folder: Path):
    ensure_private_dir(folder.parent)  # the state folder: owner-only
    try:
        ensure_private_dir(folder)
        lock = open(folder / "lock", "w")
    except OSError as error:
        where = folder if not folder.is_dir() else folder / "lock"
        reason = "a file of that name exists" if isinstance(error, FileExistsError) else error.strerror or error
        raise LauncherError(f"cannot use {where} for the Neo4j server: {reason}") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
