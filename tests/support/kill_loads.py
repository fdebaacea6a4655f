"""Kill `gamegraph load` at random moments and check that a rerun repairs the game.

Against the real Neo4j of NEO4J_URI (and NEO4J_PASSWORD or the state folder's
password file). Each round picks a game, starts `gamegraph load --replace` (a
plain reload of an unchanged game writes nothing, so there would be no write to
interrupt; tests/loaders/test_neo4j_reload.py kills updates in place), sends it
SIGKILL after a random delay drawn from [0, the game's measured load time],
checks that readers see the game either complete or absent (never half: the
Game node with complete=true is written last), then reruns the load and
requires `gamegraph verify` to find Neo4j equal to the networkx mirror,
position by position.

    .venv/bin/python -m tests.support.kill_loads --rounds 20 --seed 1
    .venv/bin/python -m tests.support.kill_loads --rounds 10 --seed 2 --during-writes   # every kill mid-write

Exit status 1 if any round was not repaired. docs/reliability.md has the figures.
Only the load processes this script starts are ever signalled, by their pid.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time

SPECS = ("chopsticks:standard", "chopsticks:rollover", "chopsticks(fingers=7)", "chopsticks:magic-fingers")


def gamegraph(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "explorer.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "GAMEGRAPH_PROGRESS": "0"})


_DRIVER = None


def game_is_complete(spec: str) -> bool:
    """True while Neo4j holds the game's complete Game node (a load deletes it before writing)."""
    global _DRIVER
    from explorer.games import parse_spec
    from explorer.graph import graph_id
    from loaders.settings import Neo4jSettings, open_driver

    settings = Neo4jSettings.from_env()
    if _DRIVER is None:
        _DRIVER = open_driver(settings)
    records, _, _ = _DRIVER.execute_query("MATCH (g:Game {id: $id, complete: true}) RETURN count(g) AS n",
                                          id=graph_id(parse_spec(spec)), database_=settings.database)
    return records[0]["n"] > 0


def loaded_state(spec: str) -> str:
    """'complete' when verify passes, 'absent' when the game has no complete Game node, else 'BROKEN'."""
    out = gamegraph("verify", spec)
    if out.returncode == 0:
        return "complete"
    if out.returncode == 1 and "is not loaded in Neo4j" in out.stdout:
        return "absent"
    return "BROKEN"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--during-writes", action="store_true",
                        help="wait until the load has deleted the old game (its writes began), then kill "
                             "after a random part of the rest: every kill lands mid-write")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    durations, writes = {}, {}
    for spec in SPECS:  # warm the caches, and measure a whole load (interpreter start-up included)
        began = time.monotonic()
        load = subprocess.Popen([sys.executable, "-m", "explorer.cli", "load", "--replace", spec], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env={**os.environ, "GAMEGRAPH_PROGRESS": "0"})
        deleted = None
        while load.poll() is None:  # the writes run from the old game's deletion to the new Game node
            if args.during_writes and deleted is None and not game_is_complete(spec):
                deleted = time.monotonic()
            time.sleep(0.05)
        if load.returncode != 0:
            print(f"cannot load {spec}: {load.stderr.read().decode().strip()}", file=sys.stderr)
            return 2
        durations[spec] = time.monotonic() - began
        writes[spec] = time.monotonic() - deleted if deleted else 1.0
        print(f"{spec}: a whole load takes {durations[spec]:.1f} s"
              + (f", its writes about {writes[spec]:.1f} s" if args.during_writes else ""))
    killed = repaired = finished_first = 0
    failures = []
    for round_ in range(args.rounds):
        spec = rng.choice(SPECS)
        delay = rng.uniform(0, durations[spec])
        load = subprocess.Popen([sys.executable, "-m", "explorer.cli", "load", "--replace", spec], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env={**os.environ, "GAMEGRAPH_PROGRESS": "0"})
        if args.during_writes:
            began = time.monotonic()
            while load.poll() is None and game_is_complete(spec) and time.monotonic() - began < 600:
                time.sleep(0.1)
            delay = rng.uniform(0, writes[spec])
        time.sleep(delay)
        if load.poll() is None:
            os.kill(load.pid, signal.SIGKILL)
            killed += 1
        else:
            finished_first += 1
        load.wait()
        after_kill = loaded_state(spec)
        rerun = gamegraph("load", spec)
        state = loaded_state(spec)
        ok = after_kill in ("complete", "absent") and rerun.returncode == 0 and state == "complete"
        repaired += ok and load.returncode == -signal.SIGKILL
        if not ok:
            failures.append(f"round {round_}: {spec} killed after {delay:.2f} s: after the kill {after_kill}, "
                            f"rerun exit {rerun.returncode} ({rerun.stderr.strip()[-200:]}), then {state}")
        print(f"round {round_:>3}: {spec:<26} kill after {delay:5.2f} s -> "
              f"{'killed' if load.returncode == -signal.SIGKILL else 'had finished'}, then {after_kill}; "
              f"rerun -> {state}", flush=True)
    print(f"{killed} loads killed, {repaired} repaired by a rerun; {finished_first} had finished before the signal; "
          f"{len(failures)} failures")
    for failure in failures:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
