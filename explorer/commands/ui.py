"""`gamegraph ui`: start the Streamlit explorer page.

Streamlit only runs scripts through its own server, so the command starts
`python -m streamlit run explorer/ui/app.py` as a child process (same Python,
so the same installed packages) and hands back its exit status.
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

from explorer.commands import port_number
from explorer.errors import GameGraphError, shown

APP = Path(__file__).resolve().parents[1] / "ui" / "app.py"
REPO_ROOT = APP.parents[2]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ui", help="open the interactive explorer in a browser (Streamlit)",
        description="Run the Streamlit explorer: pick a game, walk its positions, see values, "
                    "neighbourhoods, cycles and the strategy chart.")
    parser.add_argument("--port", type=port_number, default=8501, help="port to listen on (default 8501)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, this machine only)")
    parser.add_argument("--headless", action="store_true", help="do not open a browser window")
    parser.set_defaults(func=run)


def command(args: argparse.Namespace) -> list[str]:
    """The Streamlit command line for the parsed arguments."""
    return [sys.executable, "-m", "streamlit", "run", str(APP),
            "--server.port", str(args.port), "--server.address", args.host,
            "--server.headless", "true" if args.headless else "false",
            "--browser.gatherUsageStats", "false"]


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


def run(args: argparse.Namespace) -> int:
    """Run Streamlit until it exits; SIGTERM is passed on so stopping `gamegraph ui` stops the server too."""
    check_address(args.host, args.port)
    env = dict(os.environ)
    # The app imports `explorer`; make it importable even when gamegraph is not pip-installed.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    child = subprocess.Popen(command(args), env=env)
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: child.send_signal(signum))
    try:
        while True:
            try:
                return child.wait()
            except KeyboardInterrupt:  # Ctrl-C reached Streamlit too; let it finish shutting down
                child.send_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGTERM, previous)
