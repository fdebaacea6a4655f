"""Hostile statements for the read-only Cypher console, what the server looks like around them, and a rerun.

Used by tests/queries/test_console.py (through the function and through the
UI) and runnable on its own against a running server:

    GAMEGRAPH_HOME=... NEO4J_URI=... python -m tests.support.console_attacks

which sends every statement to `queries.console.run_readonly_cypher`, compares
the server before and after, and prints how many were tried and refused (the
figure in docs/reliability.md, "Console: hostile queries").

Each attack is (name, text, params, refused). `refused` is False only for
parameters that carry Cypher: such a statement is an honest read of a value,
so it runs, and the test checks it returns the text as a plain value.
Placeholders: {canary} is a file holding CANARY_TOKEN, {http} a local HTTP
server that counts the requests it receives.
"""

from __future__ import annotations

import http.server
import threading
from dataclasses import dataclass
from typing import Any

CANARY_TOKEN = "gamegraph-canary-4f1c9"

SEPARATORS = {"CR": "\r", "LF": "\n", "CRLF": "\r\n", "U+2028": "\u2028", "U+2029": "\u2029", "U+0085": "\u0085",
              "VT": "\v", "FF": "\f"}


@dataclass(frozen=True)
class Attack:
    name: str
    text: str
    params: dict[str, Any] | None = None
    refused: bool = True


def attacks() -> list[Attack]:
    """Every hostile statement, with {canary} and {http} still to fill in (see fill)."""
    found: list[Attack] = []
    add = lambda name, text, params=None, refused=True: found.append(Attack(name, text, params, refused))  # noqa: E731

    # Comments ended by a line break a text filter does not know about.
    for sep_name, sep in SEPARATORS.items():
        add(f"line comment ended by {sep_name}, then LOAD CSV of a file",
            f"// harmless{sep}LOAD CSV FROM 'file://{{canary}}' AS l RETURN l[0]")
        add(f"line comment ended by {sep_name}, then CREATE", f"// x{sep}CREATE (:Intruder)")
        add(f"line comment ended by {sep_name}, then SHOW USERS", f"// x{sep}SHOW USERS")
        add(f"line comment ended by {sep_name}, then killConnection",
            f"// x{sep}CALL dbms.listConnections() YIELD connectionId CALL dbms.killConnection(connectionId) "
            "YIELD message RETURN message")
    add("block comment hiding nothing", "/* RETURN 1 */ CREATE (:Intruder)")
    add("block comment across lines", "MATCH (n) /* \r */ DETACH DELETE n")

    # Keywords hidden in strings and backticks (for a filter that skips them, or that they fool).
    add("escaped quote ends a string early for a naive filter", "RETURN 'it\\'s' AS s CREATE (:Intruder)")
    add("double-quoted string with a comment marker", 'RETURN "//" AS s CREATE (:Intruder)')
    add("backticked alias containing a comment marker", "WITH 1 AS `//` CREATE (:Intruder)")
    add("backticked alias with an escaped backtick", "WITH 1 AS `a``b` MERGE (:Intruder)")
    add("backticked procedure namespace", "CALL `dbms`.`listConfig`()")
    add("backticked procedure, whole name", "CALL `dbms.listConfig`()")
    add("backticked killConnection", "CALL dbms.listConnections() YIELD connectionId "
                                     "CALL `dbms`.`killConnection`(connectionId) YIELD message RETURN message")
    add("keyword split by a unicode escape in a string",
        "RETURN '\\u0027' AS q CALL db.clearQueryCaches() YIELD value RETURN value")
    add("label named like a keyword, then a write", "MATCH (n:`CREATE`) SET n.x = 1")

    # CALL { ... } subqueries with writes or reads of other things inside.
    add("CALL {} with CREATE", "CALL { CREATE (:Intruder) } RETURN 1")
    add("CALL () {} with CREATE", "CALL () { CREATE (:Intruder) } RETURN 1 AS one")
    add("CALL (p) {} with SET", "MATCH (p:Position) CALL (p) { SET p.value = 'win' } RETURN count(*)")
    add("CALL {} with DETACH DELETE", "MATCH (p:Position) WITH p LIMIT 1 CALL (p) { DETACH DELETE p } RETURN 1")
    add("CALL {} with LOAD CSV", "CALL () { LOAD CSV FROM 'file://{canary}' AS l RETURN l } RETURN l")
    add("CALL {} with a procedure", "CALL () { CALL dbms.listConfig() YIELD name RETURN name } RETURN name")
    add("CALL {} with USE system", "CALL () { USE system SHOW USERS YIELD user RETURN user } RETURN user")
    add("CALL {} IN TRANSACTIONS with CREATE", "UNWIND [1] AS x CALL (x) { CREATE (:Intruder) } IN TRANSACTIONS")
    add("CALL {} IN TRANSACTIONS read only", "UNWIND [1] AS x CALL (x) { RETURN x AS y } IN TRANSACTIONS RETURN y")
    add("EXISTS subquery with a procedure", "RETURN EXISTS { CALL dbms.listConfig() YIELD name RETURN name } AS e")
    add("COUNT subquery around a write", "RETURN COUNT { CREATE (:Intruder) } AS c")

    # Other databases.
    add("USE system, SHOW USERS", "USE system SHOW USERS")
    add("USE system, MATCH", "USE system MATCH (n) RETURN n")
    add("USE system, procedure", "USE system CALL dbms.showCurrentUser()")
    add("USE system, SHOW DATABASES", "USE system SHOW DATABASES")
    add("USE a database that does not exist", "USE other MATCH (n) RETURN n")
    add("USE the graph's database, then CREATE", "USE neo4j CREATE (:Intruder)")
    add("comment then USE system", "// x\rUSE system SHOW USERS")

    # SHOW and other administration commands.
    for command in ("SHOW USERS", "SHOW CURRENT USER", "SHOW SETTINGS", "SHOW SETTINGS YIELD name, value RETURN *",
                    "SHOW TRANSACTIONS", "SHOW TRANSACTIONS YIELD transactionId RETURN transactionId",
                    "SHOW DATABASES", "SHOW PROCEDURES", "SHOW FUNCTIONS", "SHOW INDEXES", "SHOW CONSTRAINTS",
                    "SHOW PRIVILEGES", "SHOW ROLES", "SHOW SERVERS",
                    "TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
                    "SHOW TRANSACTIONS YIELD transactionId TERMINATE TRANSACTIONS transactionId",
                    "ALTER USER neo4j SET PASSWORD 'intruder-password'", "CREATE USER eve SET PASSWORD 'eve-password'",
                    "DROP USER neo4j", "CREATE DATABASE intruder", "STOP DATABASE neo4j", "DROP DATABASE neo4j",
                    "CREATE INDEX intruder FOR (n:Intruder) ON (n.x)", "DROP INDEX position_key",
                    "CREATE CONSTRAINT intruder FOR (n:Intruder) REQUIRE n.x IS UNIQUE"):
        add(command.split(" YIELD")[0].split(" '")[0], command)

    # Procedures: everything but the three schema listings is refused, reads included.
    for call in ("CALL dbms.listConfig()", "CALL db.clearQueryCaches()",
                 "CALL dbms.listConnections()",
                 "CALL dbms.listConnections() YIELD connectionId CALL dbms.killConnection(connectionId) "
                 "YIELD message RETURN message",
                 "CALL dbms.killConnections(['bolt-1', 'bolt-2'])", "CALL dbms.info()", "CALL dbms.components()",
                 "CALL dbms.queryJmx('*:*')", "CALL dbms.showCurrentUser()", "CALL dbms.listCapabilities()",
                 "CALL dbms.upgradeStatus()", "CALL dbms.routing.getRoutingTable({})",
                 "CALL db.createLabel('Intruder')", "CALL db.createProperty('intruder')",
                 "CALL db.createRelationshipType('INTRUDER')", "CALL db.info()", "CALL db.ping()",
                 "CALL db.awaitIndexes(1)", "CALL db.stats.collect('QUERIES')", "CALL db.stats.retrieve('GRAPH COUNTS')",
                 "CALL db.schema.visualization()", "CALL db.schema.nodeTypeProperties()",
                 "CALL db.resampleOutdatedIndexes()", "CALL db.prepareForReplanning()",
                 "CALL tx.setMetaData({intruder: true})", "CALL tx.getMetaData()",
                 "CALL db.index.fulltext.listAvailableAnalyzers()",
                 "CALL db.labels() YIELD label CALL dbms.listConfig() YIELD name RETURN label, name",
                 "MATCH (p:Position) WITH p LIMIT 1 CALL db.create.setNodeVectorProperty(p, 'v', [1.0])",
                 "CALL apoc.load.json('file:///etc/passwd')"):
        add(f"procedure {call[5:].split('(')[0]}" + (" (chained)" if call.count("CALL") > 1 else ""), call)

    # Parameters carry values, never Cypher: the text comes back as a string and nothing runs.
    add("parameter holding a write", "RETURN $q AS q", {"q": "CREATE (:Intruder)"}, refused=False)
    add("parameter closing a string", "MATCH (p:Position) WHERE p.key = $k RETURN count(p) AS n",
        {"k": "' OR 1=1 CREATE (:Intruder) //"}, refused=False)
    add("parameter holding SHOW USERS in a map", "RETURN $m.q AS q", {"m": {"q": "SHOW USERS"}}, refused=False)
    add("parameter named like Cypher", "RETURN 1 AS one", {"x` CREATE (:Intruder) //": 1}, refused=False)
    add("parameter as a LOAD CSV URL", "LOAD CSV FROM $url AS l RETURN l", {"url": "file://{canary}"})
    add("parameter as a connection to kill", "CALL dbms.killConnection($id)", {"id": "bolt-1"})
    add("parameter as a procedure's name", "CALL db.labels() YIELD label RETURN label, $p AS p",
        {"p": "dbms.listConfig()"}, refused=False)

    # Several statements at once.
    for sep_name, sep in (("nothing", ""), ("LF", "\n"), ("CR", "\r"), ("U+2028", "\u2028")):
        add(f"two statements separated by ;{sep_name}", f"RETURN 1 AS one;{sep}CREATE (:Intruder)")
    add("statement, comment, statement", "RETURN 1 // x\r; SHOW USERS")
    add("read then procedure", "MATCH (n) RETURN count(n); CALL dbms.listConfig()")
    add("trailing statement after a string with ;", "RETURN ';' AS s; MATCH (n) DETACH DELETE n")

    # LOAD CSV from files and the network.
    for url in ("file://{canary}", "file:///etc/passwd", "file:/etc/passwd", "file:///../../../etc/passwd",
                "FILE:///etc/hostname", "{http}/data.csv", "{http}/x?LOAD", "http://127.0.0.1:7687/",
                "https://example.com/x.csv", "ftp://127.0.0.1/x.csv", "jar:file:///etc/passwd!/x"):
        add(f"LOAD CSV from {url.split('{')[0] or url.split('}')[0][1:]}", f"LOAD CSV FROM '{url}' AS l RETURN l")
    add("LOAD CSV WITH HEADERS", "LOAD CSV WITH HEADERS FROM '{http}/h.csv' AS row RETURN row")
    add("LOAD CSV lower case", "load csv from 'file://{canary}' as l return l")
    add("LOAD CSV with a computed URL", "WITH 'fi' + 'le://' AS p LOAD CSV FROM p + '{canary}' AS l RETURN l")

    # Writes hidden in clauses.
    add("FOREACH with CREATE", "FOREACH (x IN [1] | CREATE (:Intruder))")
    add("FOREACH with SET", "MATCH (p:Position) FOREACH (x IN [1] | SET p.value = 'win')")
    add("MERGE", "MERGE (:Intruder)")
    add("MERGE a relationship", "MATCH (p:Position) WITH p LIMIT 1 MERGE (p)-[:INTRUDER]->(p)")
    add("OPTIONAL MATCH then MERGE", "OPTIONAL MATCH (n:Nothing) MERGE (:Intruder)")
    add("MERGE ON MATCH SET", "MERGE (p:Position {key: 'A|1-1|1-1'}) ON MATCH SET p.value = 'win'")
    add("DETACH DELETE", "MATCH (n) DETACH DELETE n")
    add("REMOVE", "MATCH (p:Position) REMOVE p.value")
    add("SET label", "MATCH (p:Position) SET p:Intruder")
    add("SET from a map", "MATCH (p:Position) SET p += {value: 'win'}")
    add("CREATE after a long read", "MATCH (p:Position) WITH count(p) AS n CREATE (:Intruder {n: n})")
    add("write in a CASE-selected FOREACH",
        "FOREACH (x IN CASE WHEN true THEN [1] ELSE [] END | MERGE (:Intruder))")
    add("UNION with a write", "RETURN 1 AS x UNION CREATE (i:Intruder) RETURN 2 AS x")

    # Prefixes that change how the rest is run.
    add("EXPLAIN prefix", "EXPLAIN CREATE (:Intruder)")
    add("PROFILE prefix", "PROFILE CREATE (:Intruder)")
    add("CYPHER options prefix", "CYPHER runtime=slotted CREATE (:Intruder)")
    add("CYPHER version prefix", "CYPHER 5 CREATE (:Intruder)")
    add("browser command", ":use system")

    # Evaluations Neo4j cannot interrupt once they run (issue 19): refused by their shape, at once.
    add("reduce over half a billion", "RETURN reduce(s = 0, x IN range(1, 500000000) | s + x) AS s")
    add("reduce over a range that never ends", "RETURN reduce(s = 0, x IN range(1, 9000000000000000000) | 0) AS s")
    add("reduce over a range bound by a parameter", "RETURN reduce(s = 0, x IN range(1, $n) | 0) AS s",
        {"n": 9000000000000000000})
    add("reduce over a range bound by a variable", "WITH 9000000000 AS n RETURN reduce(s = 0, x IN range(1, n) | s) AS s")
    add("string doubling in reduce", "UNWIND range(1, 1000) AS i RETURN reduce(s = 'x', j IN range(1, 18) | s + s) AS s")
    add("list doubling in reduce", "RETURN size(reduce(l = [1], j IN range(1, 40) | l + l)) AS n")
    add("a range of three million as a value", "RETURN range(1, 3000000) AS big")
    add("list comprehension over a huge range", "RETURN size([x IN range(1, 200000000) | x]) AS n")
    add("any() over a huge range", "RETURN any(x IN range(1, 0x7FFFFFFFFFFFFFFF) WHERE x < 0) AS a")
    add("a range bound written with underscores", "RETURN size(range(1, 9_000_000_000)) AS n")
    add("a range bound Neo4j folds from small numbers", "RETURN size(range(1, 9000 * 9000 * 9000 * 9000)) AS n")
    add("a range bound summed from small numbers", "RETURN size(range(1, 9999 + 9999 + 9999 + 9999)) AS n")
    add("a range bound written in \\u escapes", "RETURN reduce(s = 0, x IN range(1, " + "\\u0039" * 12 + ") | s) AS s")
    add("three nested ranges", "RETURN size([a IN range(1, 100) | [b IN range(1, 100) | [c IN range(1, 100) | 0]]]) AS n")
    add("a parameter beyond Cypher's integers", "RETURN $n AS n", {"n": 18446744073709551616})
    found.extend(server_killers())
    return found


def server_killers() -> list[Attack]:
    """Issue 40's statements that took the shared server down (the planner's stack overflowed, or
    the heap filled), and neighbours of each: every one must end in one line, the server alive."""
    digits = ",".join(str(i) for i in range(1, 41))
    big = "x" * 1000
    return [
        Attack("400 nested lists (813 characters)", "RETURN " + "[" * 400 + "1" + "]" * 400 + " AS x"),
        Attack("3,000 nested parentheses", "RETURN " + "(" * 3000 + "1" + ")" * 3000 + " AS x"),
        Attack("700 nested CASE", "RETURN " + "CASE WHEN true THEN " * 700 + "1" + " END" * 700 + " AS x"),
        Attack("1,200 nested maps", "RETURN " + "{a: " * 1200 + "1" + "}" * 1200 + " AS x"),
        Attack("EXPLAIN of 200 nested lists", "EXPLAIN RETURN " + "[" * 200 + "1" + "]" * 200 + " AS x"),
        Attack("200 chained property reads", "WITH {} AS m RETURN m" + ".a" * 200 + " AS x"),
        Attack("1,000 NOTs", "RETURN " + "NOT " * 1000 + "true AS x"),
        Attack("300 WITH clauses", " ".join(["WITH 1 AS x"] * 300) + " RETURN x"),
        Attack("nesting hidden after a line break a comment does not end at",
               "RETURN 1 AS x // \u2028" + "\u2028" + "[" * 100 + "]" * 100),
        Attack("a string left open", "RETURN '((((" + "[" * 50),
        Attack("replace() of the accumulator in reduce",
               f"RETURN size(reduce(s = 'x', i IN [{digits}] | replace(s, 'x', 'xx'))) AS n"),
        Attack("nested replace()", "RETURN size(" + "replace(" * 30 + "'x'" + ", 'x', 'xx')" * 30 + ") AS n"),
        Attack("replace() by a computed string", "RETURN size(replace('x', 'x', toString(range(1, 10000)))) AS n"),
        Attack("UNWIND of 8 MB strings built in reduce",
               f"UNWIND range(1, 100) AS i RETURN reduce(s = '', j IN range(1, 8000) | s + '{big}') AS s"),
        Attack("a reduce building a string over a collected list",
               "UNWIND range(1, 1000000) AS i WITH collect(i) AS c RETURN size(reduce(s = '', x IN c | s + 'x')) AS n"),
        Attack("a list comprehension over two collected lists",
               "MATCH (a) WITH collect(a.key) AS c RETURN size([x IN c | size([y IN c | x + y])]) AS n"),
        Attack("a cartesian product of every node, collected", "MATCH (a), (b), (c) RETURN size(collect(a.key + b.key + c.key)) AS n"),
        Attack("a four-way cartesian product, collected",
               "MATCH (a), (b), (c), (d) RETURN size(collect(a.key + d.key)) AS n"),
        # Round two (issue 40): chains the depth count reset at every count(...) or `||`, and a 3 MB parameter.
        Attack("300 chained count(*) +", "MATCH (n) RETURN " + " + ".join(["count(*)"] * 300) + " AS n"),
        Attack("300 chained ||", "RETURN " + " || ".join(["'a'"] * 300) + " AS s"),
        Attack("300 chained all(...) AND", "RETURN " + " AND ".join(["all(x IN [1] WHERE true)"] * 300) + " AS b"),
        Attack("a 3 MB parameter", "RETURN size($p) AS n", {"p": "x" * 3_000_000}),
    ]


def fill(attack: Attack, canary: str, http: str) -> Attack:
    """The attack with {canary} (a file path) and {http} (a base URL) filled in."""
    def sub(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace("{canary}", canary).replace("{http}", http)
        if isinstance(value, dict):
            return {sub(k): sub(v) for k, v in value.items()}
        return value
    return Attack(attack.name, sub(attack.text), sub(attack.params), attack.refused)


# The honest reads that a keyword filter refused or might: they must run.
HONEST = [
    ("RETURN p.key AS remove", "MATCH (p:Position {game: $game}) RETURN p.key AS remove LIMIT 3"),
    ("words in strings", "RETURN 'CREATE (:X)' AS create, \"DETACH DELETE\" AS `delete`"),
    ("a property named set", "MATCH (p:Position {game: $game}) RETURN p.set AS set, p.key AS key LIMIT 1"),
    ("a comment", "MATCH (p:Position {game: $game}) // merge, load csv\rRETURN count(p) AS n"),
    ("schema listing", "CALL db.labels() YIELD label RETURN label ORDER BY label"),
    ("USE the graph's own database", "USE neo4j MATCH (p:Position {game: $game}) RETURN count(p) AS n"),
    ("a large number beside a small range", 'RETURN reduce(s = "", i IN range(1, 40) | s + "w") AS t, 99999 AS big'),
    ("a read CALL subquery", "CALL () { MATCH (g:Game {id: $game}) RETURN g } RETURN g.id AS id"),
]


class CountingHTTP:
    """A local HTTP server that counts what it is asked (LOAD CSV over http must ask nothing)."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        hits = self.hits

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                hits.append(self.path)
                body = f"{CANARY_TOKEN},x\n".encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def snapshot(admin: Any, database: str) -> dict[str, Any]:
    """What an attack must not change, read by an admin driver that is not the console's:
    node and relationship counts per label and type, the label, type and property key
    tokens, a fingerprint of every property, the users, the databases, the open
    connections and the running transactions (less the snapshot's own)."""
    def rows(query: str, db: str = database) -> list[list[Any]]:
        records, _, _ = admin.execute_query(query, database_=db)
        return [list(r.values()) for r in records]

    return {
        "nodes": rows("MATCH (n) RETURN count(n)")[0][0],
        "relationships": rows("MATCH ()-[r]->() RETURN count(r)")[0][0],
        "by_label": sorted(map(tuple, rows("MATCH (n) UNWIND labels(n) AS l RETURN l, count(*)"))),
        "by_type": sorted(map(tuple, rows("MATCH ()-[r]->() RETURN type(r), count(*)"))),
        "tokens": sorted(rows("CALL db.labels() YIELD label RETURN label")
                         + rows("CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType")
                         + rows("CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey")),
        "fingerprint": _fingerprint(admin, database),
        "users": sorted(map(tuple, rows("SHOW USERS YIELD user, passwordChangeRequired, suspended "
                                        "RETURN user, passwordChangeRequired, suspended", "system"))),
        "databases": sorted(map(tuple, rows("SHOW DATABASES YIELD name, currentStatus RETURN name, currentStatus",
                                            "system"))),
        "connections": {r[0] for r in rows("CALL dbms.listConnections() YIELD connectionId RETURN connectionId")},
        "transactions": sorted(r[0] for r in rows("SHOW TRANSACTIONS YIELD currentQuery RETURN currentQuery")
                               if not r[0].startswith("SHOW TRANSACTIONS")),
    }


def _fingerprint(admin: Any, database: str, most: int = 200_000) -> str:
    """A hash of every node's and relationship's labels or type and properties (skipped past `most` nodes)."""
    import hashlib
    digest = hashlib.sha256()
    records, _, _ = admin.execute_query("MATCH (n) RETURN count(n) AS n", database_=database)
    if records[0]["n"] > most:
        return "skipped: too many nodes"
    for query in ("MATCH (n) RETURN elementId(n) AS id, labels(n) AS what, properties(n) AS props",
                  "MATCH ()-[r]->() RETURN elementId(r) AS id, type(r) AS what, properties(r) AS props"):
        records, _, _ = admin.execute_query(query, database_=database)
        for line in sorted(repr((r["id"], r["what"], sorted(r["props"].items()))) for r in records):
            digest.update(line.encode())
    return digest.hexdigest()


def unchanged(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The differences that matter: everything equal, except that connections may be added
    (a driver's pool grows) but none that was open may be gone."""
    problems = [f"{key}: {before[key]!r} -> {after[key]!r}" for key in before
                if key != "connections" and before[key] != after[key]]
    lost = before["connections"] - after["connections"]
    if lost:
        problems.append(f"connections closed: {sorted(lost)}")
    return problems


def main() -> int:
    """Runs every attack through the console function against the configured server; prints the tally."""
    import tempfile
    from pathlib import Path

    from explorer.core.errors import QueryError
    from loaders.settings import Neo4jSettings, open_driver
    from queries.console import run_readonly_cypher

    settings = Neo4jSettings.from_env()
    web = CountingHTTP()
    with tempfile.TemporaryDirectory() as folder, open_driver(settings) as admin, open_driver(settings) as console:
        canary = Path(folder) / "canary.csv"
        canary.write_text(f"{CANARY_TOKEN},secret\n")
        tried = refused = inert = 0
        failures = []
        before = snapshot(admin, settings.database)
        for attack in (fill(a, str(canary), web.url) for a in attacks()):
            tried += 1
            try:
                result = run_readonly_cypher(console, settings.database, attack.text, attack.params, timeout_s=10)
            except QueryError:
                refused += 1
                continue
            shown = repr(result.rows)
            if attack.refused or CANARY_TOKEN in shown:
                failures.append(f"RAN: {attack.name}: {shown[:200]}")
            else:
                inert += 1
        after = snapshot(admin, settings.database)
        web.close()
    problems = unchanged(before, after) + failures + [f"HTTP requests received: {web.hits}"] * bool(web.hits)
    print(f"{tried} hostile statements tried: {refused} refused, {inert} ran as plain values "
          f"(parameters carrying Cypher), {len(failures)} got through")
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
