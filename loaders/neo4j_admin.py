"""Neo4j's own admin tool (``neo4j-admin``), run from the jars the embedded server already uses.

A Neo4j installation ships ``bin/neo4j-admin``; gamegraph installs none, but
the Maven-resolved classpath of the embedded server (loaders/launcher/pom.xml,
which names ``neo4j-import-tool`` explicitly) holds the same tool, whose entry
point is ``org.neo4j.cli.AdminTool``. `argv` builds the command that runs it
against a Neo4j home: by default the embedded server's folder, so
``database import full ... neo4j`` writes where that server reads. Its
configuration is ``<home>/conf/neo4j.conf``, created empty when missing: the
defaults then put data and logs under the home, as the launcher does.
"""

from __future__ import annotations

import os
from pathlib import Path

from loaders import neo4j_server
from loaders.settings import admin_heap, extra_jvm_options, neo4j_dir

MAIN_CLASS = "org.neo4j.cli.AdminTool"
# The admin tool runs batch work (the bulk importer above all), so it takes the throughput collector
# rather than the server's G1, whose concurrent threads take turns with the importer's on 2 cores:
# chopsticks(fingers=32)'s files took 21-24 CPU s of the importer with ParallelGC against 23-26 with
# G1, alternating in one sitting (docs/neo4j-loading.md, issue 23).
ADMIN_COLLECTOR = "-XX:+UseParallelGC"


def argv(arguments: list[str], home: Path | None = None) -> tuple[list[str], dict[str, str]]:
    """(command, environment) running ``neo4j-admin ARGUMENTS`` on `home` (default: the embedded server's).

    Resolves the jars with Maven on first use, like `gamegraph neo4j start`.
    The heap is GAMEGRAPH_NEO4J_ADMIN_HEAP (default 1g); the importer takes
    its bulk memory off-heap (its --max-off-heap-memory option).
    """
    home = Path(home or neo4j_dir())
    conf = home / "conf"
    conf.mkdir(parents=True, exist_ok=True)
    settings = conf / "neo4j.conf"
    if not settings.exists():
        settings.write_text("# gamegraph: Neo4j's defaults, relative to this home (data/, logs/)\n")
    java = neo4j_server.java()
    heap = admin_heap()
    options = [ADMIN_COLLECTOR if option == "-XX:+UseG1GC" else option for option in neo4j_server.NEO4J_JVM_OPTIONS]
    command = [java, f"-Xmx{heap}", *options, *extra_jvm_options(), "-cp", neo4j_server.classpath(), MAIN_CLASS,
               *arguments]
    env = {**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(conf)}
    return command, env
