"""Forge strategy certificates field by field and check that the checker accepts no false claim.

Valid certificates of several games and positions are mutated one field at a
time: types (every field given a value of each other JSON type), values
(claim, game, symmetry, position, player, goal, ranks, to_move), positions
(entries removed, added, renamed to another or a non-canonical key), moves
(another target, another label, no move) and replies (one dropped, one
added, duplicated). Each forgery goes through the same loading and checking
path as ``gamegraph check-certificate`` and is classified:

  rejected        CertificateError (or another GameGraphError): one clean line
  still-valid     accepted, and the solver, an independent implementation, agrees
                  with the claim for that game, symmetry and position: the
                  mutation left a true statement with a correct proof (say, a
                  changed `value` note, which the checker ignores by design)
  FALSE-ACCEPTED  accepted although the solver says the claim is false: a soundness bug
  CRASHED         any other exception: a robustness bug

    .venv/bin/python -m tests.support.certificate_forgery            # every family, every certificate
    .venv/bin/python -m tests.support.certificate_forgery --seed 3 --per-family 50

Exit status 1 if anything was FALSE-ACCEPTED or CRASHED. docs/reliability.md has the figures.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections import Counter, defaultdict
from typing import Any, Iterator

BIG_DIGITS = "9" * 4301

# Field -> the JSON types a valid certificate may hold there (bool is its own type, not an int).
TOP_TYPES = {"format": ("str",), "version": ("int",), "game": ("str",), "spec": ("str",), "symmetry": ("bool",),
             "position": ("str",), "to_move": ("int",), "claim": ("str",), "remoteness": ("int", "null"),
             "strategies": ("list",)}
STRATEGY_TYPES = {"player": ("int",), "goal": ("str",), "positions": ("dict",)}
ENTRY_TYPES = {"to_move": ("int",), "value": ("str",), "remoteness": ("int", "null"), "rank": ("int",),
               "outcome": ("str",), "move": ("dict",), "replies": ("list",)}
MOVE_TYPES = {"label": ("str",), "to": ("str",)}
REPLACEMENTS = (None, True, 0, -1, 1.5, "x", [], {}, 10 ** 30, BIG_DIGITS)

# The games and positions whose certificates are forged: every claim kind (win, loss, tie, draw).
SOURCES = (("chopsticks:attack-only", None), ("chopsticks:attack-only", "B|1-1|1-2"), ("tictactoe", None),
           ("tictactoe", "XO./.X./..."), ("nim:small", None), ("nim:small", "A|1-2-2"), ("chopsticks", None),
           ("chopsticks:magic-fingers", "B|1-1|1-3"), ("chopsticks(fingers=3)", None), ("nim(heaps=2-3)", None))


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return {str: "str", list: "list", dict: "dict"}.get(type(value), type(value).__name__)


def _entry_paths(cert: dict, per_strategy: int = 3) -> Iterator[tuple[tuple, dict[str, tuple]]]:
    """(path, field types) of the objects inside a certificate: top, strategies, a few entries, their moves."""
    yield (), TOP_TYPES
    for s, strategy in enumerate(cert.get("strategies", [])):
        yield ("strategies", s), STRATEGY_TYPES
        for key in list(strategy["positions"])[:per_strategy]:
            yield ("strategies", s, "positions", key), ENTRY_TYPES
            if "move" in strategy["positions"][key]:
                yield ("strategies", s, "positions", key, "move"), MOVE_TYPES


def _at(data: Any, path: tuple) -> Any:
    for step in path:
        data = data[step]
    return data


def type_swaps(cert: dict) -> Iterator[tuple[str, dict, bool]]:
    """(label, forged certificate, certainly invalid): every field of a few entries given each other type.

    A value of a type the field does not allow is certainly invalid (the schema
    refuses it); a value of an allowed type may or may not be, so it is left to
    the caller (the forging run checks it against the solver).
    """
    for path, types in _entry_paths(cert):
        target = _at(cert, path)
        for name in types:
            if name not in target:
                continue
            for value in REPLACEMENTS:
                forged = copy.deepcopy(cert)
                _at(forged, path)[name] = value
                label = "-".join(str(p)[:12] for p in (*path, name)) + f"={json_type(value)}"
                yield label, forged, json_type(value) not in types[name]
        forged = copy.deepcopy(cert)
        del _at(forged, path)[next(iter(target))]
        yield "-".join(str(p)[:12] for p in path) + "-missing-first-field", forged, False


# -- value, position, move and reply forgeries -----------------------------------------------------
def forgeries(cert: dict, rng: random.Random, others: list[dict]) -> Iterator[tuple[str, dict]]:
    """(family, forged certificate) for one valid certificate."""
    def forged(**changes: Any) -> dict:
        copy_ = copy.deepcopy(cert)
        copy_.update(changes)
        return copy_

    for label, data, _ in type_swaps(cert):
        yield "types", data
    for claim in ("win", "loss", "tie", "draw", "WIN", "", "draw "):
        if claim != cert["claim"]:
            yield "claim", forged(claim=claim)
    yield "symmetry", forged(symmetry=not cert["symmetry"])
    for other in others:  # another game's id, or another position of this game
        if other["game"] != cert["game"]:
            yield "game", forged(game=other["game"])
        if other["game"] == cert["game"] and other["position"] != cert["position"]:
            yield "position", forged(position=other["position"])
    for game in (cert["game"].replace("fingers=5", "fingers=4"), cert["game"] + " ", cert["game"].upper(),
                 cert["game"].replace(")", ",bogus=1)"), "nim(heaps=1000-1000)", "chopsticks(fingers=100)"):
        yield "game", forged(game=game)
    for version in (0, 2, True, 1.0, "1", None, -1):
        yield "version", forged(version=version)
    yield "format", forged(format="gamegraph-certificat")
    yield "to_move", forged(to_move=1 - cert["to_move"])
    strategies = cert["strategies"]
    for s, strategy in enumerate(strategies):
        def with_strategy(change) -> dict:
            copy_ = copy.deepcopy(cert)
            change(copy_["strategies"][s])
            return copy_

        yield "player", with_strategy(lambda st: st.update(player=1 - st["player"]))
        for goal in ("win", "at-least-tie", "never-lose", "never-lose-or-tie", "lose"):
            if goal != strategy["goal"]:
                yield "goal", with_strategy(lambda st, g=goal: st.update(goal=g))
        keys = list(strategy["positions"])
        sample = rng.sample(keys, min(len(keys), 12))
        for key in sample:
            entry = strategy["positions"][key]
            yield "positions", with_strategy(lambda st, k=key: st["positions"].pop(k))  # an entry removed
            renamed = _non_canonical(key)
            if renamed:
                yield "positions", with_strategy(lambda st, k=key, r=renamed: st["positions"].__setitem__(
                    r, st["positions"].pop(k)))
            if "rank" in entry:
                for delta in (1, -1, 100):
                    yield "ranks", with_strategy(lambda st, k=key, d=delta: st["positions"][k].update(
                        rank=max(0, st["positions"][k]["rank"] + d)))
                yield "ranks", with_strategy(lambda st, k=key: st["positions"][k].pop("rank"))
            if "move" in entry:
                for other_key in rng.sample(keys, min(len(keys), 4)):
                    yield "moves", with_strategy(lambda st, k=key, o=other_key: st["positions"][k]["move"].update(to=o))
                yield "moves", with_strategy(lambda st, k=key: st["positions"][k]["move"].update(label="L>R"))
                yield "moves", with_strategy(lambda st, k=key: st["positions"][k].pop("move"))
                yield "moves", with_strategy(lambda st, k=key: st["positions"][k]["move"].pop("label"))
            if "replies" in entry and entry["replies"]:
                yield "replies", with_strategy(lambda st, k=key: st["positions"][k]["replies"].pop())
                yield "replies", with_strategy(lambda st, k=key: st["positions"][k]["replies"].append(
                    st["positions"][k]["replies"][0]))
                yield "replies", with_strategy(lambda st, k=key: st["positions"][k]["replies"].append("A|1-1|1-1"))
            if "outcome" in entry:
                yield "outcome", with_strategy(lambda st, k=key: st["positions"][k].update(outcome="win"))
        if "rank" in strategy["positions"][keys[0]]:
            yield "ranks", with_strategy(lambda st: [e.update(rank=0) for e in st["positions"].values()])
            yield "ranks", with_strategy(lambda st: [e.update(rank=10 ** 30) for e in st["positions"].values()])
        extra = [o for o in others if o["game"] == cert["game"]]
        if extra:  # an unreached extra entry: irrelevant to the proof
            yield "positions", with_strategy(lambda st: st["positions"].setdefault(extra[0]["position"], {"to_move": 0}))
    if len(strategies) == 2:
        yield "strategies", forged(strategies=strategies[:1])
        yield "strategies", forged(strategies=[strategies[0], strategies[0]])
        yield "strategies", forged(strategies=[strategies[1], strategies[0]])
    yield "strategies", forged(strategies=strategies + strategies[:1])
    yield "strategies", forged(strategies=[])


def _non_canonical(key: str) -> str | None:
    """The same position written another way (hands or heaps unsorted, lower case), or None."""
    if key.count("|") == 2:  # chopsticks: A|1-2|3-4
        mover, a, b = key.split("|")
        x, y = a.split("-")
        return f"{mover}|{y}-{x}|{b}" if x != y else f"{mover.lower()}|{a}|{b}"
    if "|" in key:  # nim
        mover, heaps = key.split("|")
        parts = heaps.split("-")
        return f"{mover}|{'-'.join(reversed(parts))}" if parts != parts[::-1] else f"{mover.lower()}|{heaps}"
    return key.lower() if key != key.lower() else None


# -- the run ---------------------------------------------------------------------------------------
def _truth(data: Any, cache: dict) -> bool | None:
    """Whether the certificate's claim is the solver's value (None: the solver cannot say)."""
    from explorer.core.errors import GameGraphError
    from explorer.games import parse_spec
    from explorer.solved import build

    try:
        game = parse_spec(data["game"])
        symmetry = bool(data["symmetry"]) and game.has_symmetry()
        solved = cache.get((game.id, symmetry))
        if solved is None:
            solved = cache[(game.id, symmetry)] = build(game, symmetry=symmetry, max_positions=200_000)
        node = solved.graph.find(data["position"])
        return str(solved.value(node)) == data["claim"]
    except (GameGraphError, KeyError, TypeError):
        return None


def valid_certificates() -> list[dict]:
    from explorer.certificate import certificate
    from explorer.core.errors import CertificateError, UnreachablePosition
    from explorer.solved import build

    made = []
    for spec, position in SOURCES:
        solved = build(spec)
        try:
            made.append(certificate(solved, position or solved.graph.key(0)))
        except (CertificateError, UnreachablePosition):
            continue
    return made


def run(seed: int = 1, per_family: int | None = None) -> dict[str, Any]:
    """Forge, check, classify. Returns counts per family and verdict, and the bugs found."""
    from explorer.certificate import load_certificate_bytes
    from explorer.core.errors import GameGraphError

    rng = random.Random(seed)
    certs = valid_certificates()
    counts: dict[str, Counter] = defaultdict(Counter)
    bugs: list[dict] = []
    solver_cache: dict = {}
    claims = Counter(c["claim"] for c in certs)
    began = time.monotonic()
    for cert in certs:
        load_certificate_bytes(json.dumps(cert).encode(), "valid")  # the originals must pass
        others = [c for c in certs if c is not cert]
        seen_per_family: Counter = Counter()
        for family, data in forgeries(cert, rng, others):
            if per_family is not None and seen_per_family[family] >= per_family:
                continue
            seen_per_family[family] += 1
            raw = json.dumps(data).encode()
            try:
                load_certificate_bytes(raw, "forged")
            except GameGraphError:
                verdict = "rejected"
            except Exception as error:  # noqa: BLE001 - that is the finding
                verdict = "CRASHED"
                bugs.append({"family": family, "verdict": verdict, "error": repr(error)[:300],
                             "certificate": raw.decode()[:600]})
            else:
                verdict = "still-valid" if _truth(data, solver_cache) else "FALSE-ACCEPTED"
                if verdict == "FALSE-ACCEPTED":
                    bugs.append({"family": family, "verdict": verdict, "certificate": raw.decode()[:600]})
            counts[family][verdict] += 1
    total = Counter()
    for row in counts.values():
        total.update(row)
    return {"certificates": len(certs), "claims": dict(claims), "families": {k: dict(v) for k, v in counts.items()},
            "total": dict(total), "bugs": bugs, "seconds": round(time.monotonic() - began, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Forge certificates and count how many the checker rejects.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-family", type=int, help="at most this many forgeries per family and certificate")
    parser.add_argument("--json", help="write the counts and the bugs found to this file")
    args = parser.parse_args(argv)
    result = run(args.seed, args.per_family)
    print(f"{result['certificates']} valid certificates ({', '.join(f'{k} {v}' for k, v in result['claims'].items())})")
    print(f"{'family':<12} {'tried':>6} {'rejected':>9} {'still-valid':>12} {'FALSE-ACCEPTED':>15} {'CRASHED':>8}")
    for family, row in list(result["families"].items()) + [("TOTAL", result["total"])]:
        print(f"{family:<12} {sum(row.values()):>6} {row.get('rejected', 0):>9} {row.get('still-valid', 0):>12} "
              f"{row.get('FALSE-ACCEPTED', 0):>15} {row.get('CRASHED', 0):>8}")
    for bug in result["bugs"][:20]:
        print(f"  {bug['verdict']} ({bug['family']}): {bug.get('error', '')} {bug['certificate'][:200]}")
    print(f"{result['seconds']} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=1)
    return 1 if result["bugs"] else 0


if __name__ == "__main__":
    sys.exit(main())
