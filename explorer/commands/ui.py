"""`gamegraph ui`: start the Streamlit explorer page.

Streamlit only runs scripts through its own server, so the command starts
`python -m streamlit run explorer/ui/app.py` as a child process (same Python,
so the same installed packages) and hands back its exit status.

Streamlit's own configuration is honoured: STREAMLIT_* environment variables,
~/.streamlit/config.toml and ./.streamlit/config.toml. The command passes a
`--server.*` flag only for an option given on its own command line (--port,
--host, --headless). For a few options that the user has set nowhere it
supplies its own defaults, through the child's environment so that any setting
of the user's wins:

    server.address          127.0.0.1 (this machine only)
    server.showEmailPrompt  false (Streamlit's first-run "Email:" prompt never appears)
    browser.gatherUsageStats false
    client.toolbarMode      viewer (no "Deploy" button or developer menu)
    server.headless         true when standard input is not a terminal (nohup, CI,
                            services): no prompt, no browser to open
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Mapping

from explorer.commands import port_number
from explorer.core.errors import GameGraphError, InvalidParameter, shown
from explorer.core.settings import state_dir, streamlit_environment

APP = Path(__file__).resolve().parents[1] / "ui" / "app.py"
REPO_ROOT = APP.parents[2]
DEFAULT_ADDRESS = "127.0.0.1"
# Streamlit option -> gamegraph's default, applied only when the user set the option nowhere.
DEFAULTS = {
    "server.address": DEFAULT_ADDRESS,
    "server.showEmailPrompt": "false",
    "browser.gatherUsageStats": "false",
    "client.toolbarMode": "viewer",  # the page is a tool for its users: no "Deploy" or developer menu
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ui", help="open the interactive explorer in a browser (Streamlit)",
        description="Run the Streamlit explorer: pick a game, walk its positions, see values, "
                    "neighbourhoods, cycles and the strategy chart. Streamlit's own settings "
                    "(STREAMLIT_* variables, .streamlit/config.toml) apply; the options below override them.")
    add_server_options(parser)
    parser.set_defaults(func=run)


def add_server_options(parser: argparse.ArgumentParser) -> None:
    """--port, --host, --headless: shared with `gamegraph up`. None = Streamlit's setting."""
    parser.add_argument("--port", type=port_number, default=None,
                        help="port to listen on (default: Streamlit's server.port, 8501 unless configured)")
    parser.add_argument("--host", type=host_name, default=None,
                        help=f"address to bind (default: Streamlit's server.address if configured, "
                             f"else {DEFAULT_ADDRESS}, this machine only); an empty --host is refused, "
                             "give 0.0.0.0 to listen on every interface")
    parser.add_argument("--headless", action="store_true",
                        help="do not open a browser window (the default when standard input is not a terminal)")


def host_name(text: str) -> str:
    """argparse type of --host: not empty or blank. Streamlit reads an empty server.address as
    "every interface", the opposite of what a missing value suggests, so it is refused as typed
    (and check_address validates the value itself, not a default put in its place)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{shown(text)} is empty: give a host name or address, e.g. "
                                         f"{DEFAULT_ADDRESS} (this machine only) or 0.0.0.0 (every interface)")
    return text


def check_address(host: str, port: int | None) -> None:
    """GameGraphError unless this machine can listen on host:port now (port None: any port).

    Checked before Streamlit is spawned, so a bad --host or a taken --port is one
    line from us, not a traceback from the child. O(1) plus a name lookup.
    """
    if not host or len(host) > 253 or any(c.isspace() for c in host):
        raise GameGraphError(f"--host {shown(host)} is not a host name or address")
    try:
        infos = socket.getaddrinfo(host, port or 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, OverflowError) as error:
        raise GameGraphError(f"--host {shown(host)} is not a host name or address this machine knows: "
                             f"{getattr(error, 'strerror', None) or error}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Streamlit's server binds
        try:
            probe.bind(address)
        except OSError as error:
            taken = error.errno == errno.EADDRINUSE
            raise GameGraphError(
                f"cannot serve the UI on {host}:{port}: {error.strerror}"
                + ("; another program holds that port: choose another with --port" if taken else
                   "; this machine cannot listen on that address (try 127.0.0.1)")) from None


def env_var(option: str) -> str:
    """Streamlit's environment variable for a config option: server.showEmailPrompt -> STREAMLIT_SERVER_SHOW_EMAIL_PROMPT."""
    snake = "".join(f"_{c}" if c.isupper() else c for c in option.replace(".", "_"))
    return f"STREAMLIT_{snake.upper()}"


_KINDS = {int: "a whole number", float: "a number", bool: "true or false"}
# Limits in megabytes: at 0 or below every message is refused and the page stays a grey skeleton (a stranger's
# STREAMLIT_SERVER_MAX_MESSAGE_SIZE=-1).
_SIZES = ("server.maxUploadSize", "server.maxMessageSize", "server.maxWidgetStateSize")
_LOG_LEVELS = ("critical", "error", "warning", "info", "debug")  # streamlit.logger.set_log_level's


def check_streamlit_values(environ: Mapping[str, str]) -> None:
    """Every STREAMLIT_* variable of `environ` that names one of Streamlit's options, read as `streamlit run`
    will read it (click, with the option's own type): one that cannot be read, a negative number, or a size
    limit under 1 MB is refused in one line before the server starts. `STREAMLIT_SERVER_MAX_UPLOAD_SIZE=abc`
    printed "the explorer on ..." and then click's four-line usage error; `STREAMLIT_LOGGER_LEVEL=loud`
    Streamlit's "undefined log level"; `STREAMLIT_SERVER_MAX_MESSAGE_SIZE=-1` served a page that never drew.
    O(options)."""
    import click
    from streamlit import config

    for name, option in config.get_config_options().items():
        variable = option.env_var
        if not variable or variable not in environ:
            continue
        value = environ[variable]
        kind = click.types.convert_type(option.type)
        try:
            read = [kind.convert(part, None, None) for part in (value.split() if option.multiple else [value])]
        except click.BadParameter:
            wanted = _KINDS.get(option.type, option.type.__name__)
            raise InvalidParameter(f"{variable}={shown(value)} is not {wanted} (Streamlit's {name}): correct it "
                                   "or unset it") from None
        least = 1 if name in _SIZES else 0  # no count, size, age or seed of Streamlit's is below zero
        if option.type in (int, float) and any(number < least for number in read):
            raise InvalidParameter(f"{variable}={shown(value)} is below {least} (Streamlit's {name}): correct it "
                                   "or unset it")
        if name == "logger.level" and value.strip().lower() not in _LOG_LEVELS:
            raise InvalidParameter(f"{variable}={shown(value)} is not a Streamlit log level: give one of "
                                   f"{', '.join(_LOG_LEVELS)}, or unset it")


def configured_in_files(options: list[str]) -> dict[str, object]:
    """The options among `options` that a Streamlit config file sets, with their values.

    Streamlit's own config module reads the files (global and per-project, in
    Streamlit's order), so gamegraph sees exactly what `streamlit run` will."""
    from streamlit import config

    config.get_config_options(force_reparse=True)
    return {name: config.get_option(name) for name in options if config.is_manually_set(name)}


def launch(args: argparse.Namespace, environ: Mapping[str, str] | None = None,
           interactive: bool | None = None) -> tuple[list[str], dict[str, str], str]:
    """(argv, environment, URL) of the Streamlit child for the parsed arguments.

    A --host or --port this machine cannot listen on is refused here, in one line,
    before anything is spawned (not as a traceback from the child)."""
    given = dict(os.environ if environ is None else environ)
    given.update(streamlit_environment(given))  # checked; an empty STREAMLIT_SERVER_ADDRESS means this machine only
    check_streamlit_values(given)
    check_address(args.host or given.get(env_var("server.address")) or DEFAULT_ADDRESS, args.port)
    # Every page reads (and mostly writes) the state folder: one that cannot be used (a file, a dangling
    # link, a foreign folder) is said here in one line, not on every page after the server started.
    # Read-only is allowed here, as for other readers: its caches are still read.
    if environ is None:
        state_dir(writable=False)
    environ = given
    if interactive is None:
        interactive = sys.stdin is not None and sys.stdin.isatty()
    argv = [sys.executable, "-m", "streamlit", "run", str(APP)]
    if args.port is not None:
        argv += ["--server.port", str(args.port)]
    if args.host is not None:
        argv += ["--server.address", args.host]
    if args.headless:
        argv += ["--server.headless", "true"]
    defaults = dict(DEFAULTS)
    if not interactive:
        defaults["server.headless"] = "true"
    in_files = configured_in_files([*defaults, "server.port"])
    for option, value in defaults.items():
        if env_var(option) not in environ and option not in in_files:
            environ[env_var(option)] = value
    # The app imports `explorer`; make it importable even when gamegraph is not pip-installed.
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), environ.get("PYTHONPATH")]))
    port = args.port if args.port is not None else (
        environ.get(env_var("server.port")) or in_files.get("server.port") or 8501)
    address = args.host or environ.get(env_var("server.address")) or in_files.get("server.address") or DEFAULT_ADDRESS
    visible = "localhost" if address in ("0.0.0.0", "::", DEFAULT_ADDRESS) else address
    return argv, environ, f"http://{visible}:{port}"


def run(args: argparse.Namespace, announce: str | None = None, settings: Mapping[str, str] | None = None) -> int:
    """Run Streamlit until it exits.

    Ctrl-C reaches Streamlit itself (same process group) and SIGTERM is passed on,
    so stopping `gamegraph ui` stops the server too. Streamlit gets STOP_GRACE_S
    seconds to shut down, then is killed: it can hang in its shutdown (it did when
    the pipe its output went to had closed), and nothing may outlive the command. `settings` are
    environment variables for the page only (`gamegraph up --no-neo4j`'s GAMEGRAPH_NO_NEO4J)."""
    argv, env, url = launch(args)
    env.update(settings or {})
    in_terminal = sys.stdin is not None and sys.stdin.isatty()
    stop_hint = "Ctrl-C stops it" if in_terminal else f"SIGTERM to pid {os.getpid()} stops it"
    print(f"gamegraph: {announce or 'the explorer'} on {url}  ({stop_hint})", file=sys.stderr, flush=True)
    # The handler is in place and the try entered before the child exists: a signal at any moment
    # after it starts is passed on, never lost between the start and the wait.
    previous = signal.signal(signal.SIGTERM, _raise_stop)
    child: subprocess.Popen | None = None
    try:
        try:
            child = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL)
            return child.wait()
        except KeyboardInterrupt:
            return _stop(child, signal.SIGINT)
        except _StopRequested as request:
            return _stop(child, request.signum)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if child is not None and child.poll() is None:  # leaving for another reason: do not leave it behind
            child.kill()
            child.wait()


STOP_GRACE_S = 15.0


class _StopRequested(Exception):
    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_stop(signum, frame) -> None:
    raise _StopRequested(signum)


def _stop(child: subprocess.Popen | None, signum: int) -> int:
    """Pass the signal on, wait STOP_GRACE_S, then kill; further signals wait meanwhile."""
    ignored = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if child is None:  # stopped before the child started
            return 128 + signum
        if child.poll() is None:
            child.send_signal(signum)
        try:
            child.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        return 128 + signum
    finally:
        for sig, handler in ignored.items():
            signal.signal(sig, handler)
