"""Strategy certificates: genuine ones check out from the rules alone, tampered ones are rejected."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.certificate import check_certificate, certificate
from explorer.core.errors import CertificateError, InvalidPosition, UnreachablePosition
from explorer.solved import build
from explorer.core.values import Value

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def games():
    specs = ["chopsticks", "chopsticks:magic-fingers", "chopsticks(fingers=3)", "tictactoe", "nim:small", "mutorere",
             "ponghauki", "toads-and-frogs", "domineering", "dodgem:3x3"]
    return {spec: build(spec) for spec in specs}


def first_of(solved, value: str, terminal: bool = False) -> str:
    graph = solved.graph
    for node in range(graph.num_positions):
        if str(solved.value(node)) == value and (graph.terminal[node] >= 0) == terminal:
            return graph.key(node)
    raise LookupError(value)


# -- genuine certificates --------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["nim:small", "chopsticks(fingers=3)", "tictactoe", "mutorere", "ponghauki",
                                  "toads-and-frogs", "domineering", "dodgem:3x3"])
def test_every_position_of_small_games_certifies_its_solved_value(spec, games):
    solved = games[spec]
    graph = solved.graph
    for node in range(graph.num_positions):
        data = certificate(solved, graph.key(node))
        data = json.loads(json.dumps(data))  # what a file holds
        report = check_certificate(data)
        assert report.claim == str(solved.value(node)) == data["claim"]
        if report.claim in ("win", "loss"):  # the proven bound is the exact remoteness
            assert report.strategies[0]["max_moves"] == solved.remoteness(node)


@pytest.mark.parametrize("spec, value", [
    ("chopsticks", "win"), ("chopsticks", "loss"), ("chopsticks", "draw"),
    ("chopsticks:magic-fingers", "win"), ("chopsticks:magic-fingers", "loss"), ("chopsticks:magic-fingers", "draw"),
    ("tictactoe", "tie"), ("tictactoe", "win"), ("tictactoe", "loss"), ("nim:small", "loss"),
])
def test_win_loss_draw_and_tie_certificates_check_out(spec, value, games):
    solved = games[spec]
    key = first_of(solved, value)
    data = certificate(solved, key)
    report = check_certificate(data)
    assert report.claim == value and report.position == key
    assert {"win": "wins", "loss": "loses", "tie": "is a tie", "draw": "is a draw"}[value] in report.statement
    assert data["game"] == solved.game.id and report.positions_checked >= 1
    goals = [(s["player"], s["goal"]) for s in data["strategies"]]
    mover = data["to_move"]
    assert goals == {"win": [(mover, "win")], "loss": [(1 - mover, "win")],
                     "tie": [(mover, "at-least-tie"), (1 - mover, "at-least-tie")],
                     "draw": [(mover, "never-lose"), (1 - mover, "never-lose-or-tie")]}[value]
    for strategy in data["strategies"]:
        for pos_key, entry in strategy["positions"].items():
            if "outcome" in entry:
                continue
            if entry["to_move"] == strategy["player"]:
                assert "move" in entry and "replies" not in entry
            else:
                assert entry["replies"], pos_key


def test_a_terminal_position_and_the_start_certify(games):
    solved = games["chopsticks:magic-fingers"]
    report = check_certificate(certificate(solved, first_of(solved, "loss", terminal=True)))
    assert report.claim == "loss" and report.positions_checked == 1
    start = certificate(solved, "A|1-1|1-1")
    assert start["claim"] == "loss" and check_certificate(start).strategies[0]["max_moves"] == solved.remoteness(0)


def test_positions_in_any_notation_are_canonicalised_and_bad_ones_refused(games):
    solved = games["chopsticks"]
    assert certificate(solved, "a|1-1|2-1")["position"] == "A|1-1|1-2"
    with pytest.raises(InvalidPosition):
        certificate(solved, "A|7-1|1-1")
    with pytest.raises(UnreachablePosition):
        certificate(solved, "A|0-0|1-1")


# -- tampered certificates -------------------------------------------------------------------
def winning(games):
    """A won, non-terminal position of Magic Fingers where the winner also has a move that does not win."""
    solved = games["chopsticks:magic-fingers"]
    graph = solved.graph
    for node in range(graph.num_positions):
        children = graph.successors(node).tolist()
        if solved.value(node) == Value.WIN and any(solved.value(c) != Value.LOSS for c in children):
            data = certificate(solved, graph.key(node))
            if opponent_positions(data["strategies"][0]):
                return solved, data
    raise LookupError("no such position")


def opponent_positions(strategy):
    return [k for k, e in strategy["positions"].items() if "replies" in e and e["replies"]]


def test_dropping_a_reply_of_the_loser_breaks_closure(games):
    _, data = winning(games)
    strategy = data["strategies"][0]
    at = opponent_positions(strategy)[0]
    dropped = strategy["positions"][at]["replies"][-1]
    bad = copy.deepcopy(data)
    del bad["strategies"][0]["positions"][dropped]
    with pytest.raises(CertificateError, match=f"not closed: position {dropped.replace('|', '.')} .*is missing"):
        check_certificate(bad)
    bad = copy.deepcopy(data)
    bad["strategies"][0]["positions"][at]["replies"].remove(dropped)
    with pytest.raises(CertificateError, match="replies listed at .* are not the legal ones"):
        check_certificate(bad)


def forge(solved, start: int, player: int) -> dict:
    """Positions of a closed strategy from `start` in which `player` plays its FIRST move everywhere.

    Ranks count down in breadth-first order, as a forger would write them.
    """
    graph = solved.graph
    order, seen = [start], {start}
    for node in order:
        children = graph.successors(node).tolist()
        if graph.terminal[node] >= 0:
            continue
        for child in children[:1] if int(graph.to_move[node]) == player else children:
            if child not in seen:
                seen.add(child)
                order.append(child)
    positions = {}
    for i, node in enumerate(order):
        entry = {"to_move": int(graph.to_move[node]), "rank": len(order) - i}
        children = graph.successors(node).tolist()
        if graph.terminal[node] >= 0:
            pass
        elif int(graph.to_move[node]) == player:
            entry["move"] = {"to": graph.key(children[0])}
        else:
            entry["replies"] = sorted(graph.key(c) for c in children)
        positions[graph.key(node)] = entry
    return positions


def test_changing_the_winners_move_to_a_losing_one_is_caught(games):
    solved, data = winning(games)
    graph = solved.graph
    root = graph.find(data["position"])
    player = data["strategies"][0]["player"]
    losing = [int(c) for c in graph.successors(root) if solved.value(int(c)) != Value.LOSS]  # the opponent is fine there
    assert losing
    bad = copy.deepcopy(data)
    bad["strategies"][0]["positions"][data["position"]]["move"] = {"to": graph.key(losing[0])}
    with pytest.raises(CertificateError):  # the new branch is not covered
        check_certificate(bad)
    # Even with a complete, closed strategy written for the new branch, the proof fails.
    forged = forge(solved, losing[0], player)
    bad["strategies"][0]["positions"].update(forged)
    bad["strategies"][0]["positions"][data["position"]]["rank"] = max(e["rank"] for e in forged.values()) + 1
    with pytest.raises(CertificateError, match="(ends at .* with a loss|rank does not drop)"):
        check_certificate(bad)


def test_the_forger_itself_is_sound(games):
    """forge() writes acceptable certificates when its moves happen to win, so the test above can fail."""
    solved = games["nim:small"]
    graph = solved.graph
    for node in range(graph.num_positions):
        if solved.value(node) != Value.WIN:
            continue
        data = certificate(solved, graph.key(node))
        forged = forge(solved, node, data["to_move"])
        forged_ok = copy.deepcopy(data)
        forged_ok["strategies"][0]["positions"] = forged
        try:
            check_certificate(forged_ok)
            return
        except CertificateError:
            continue
    pytest.fail("forge never produced a valid certificate")


def test_illegal_moves_ranks_claims_and_keys_are_caught(games):
    solved, data = winning(games)
    root = data["position"]
    strategy = data["strategies"][0]

    bad = copy.deepcopy(data)
    bad["strategies"][0]["positions"][root]["move"]["to"] = "B|4-4|4-4"
    with pytest.raises(CertificateError, match="is not legal"):
        check_certificate(bad)

    bad = copy.deepcopy(data)
    target = strategy["positions"][root]["move"]["to"]
    bad["strategies"][0]["positions"][target]["rank"] = strategy["positions"][root]["rank"]
    with pytest.raises(CertificateError, match=f"rank does not drop from {root.replace('|', '.')}"):
        check_certificate(bad)

    bad = copy.deepcopy(data)
    bad["strategies"][0]["positions"][root]["move"]["label"] = "L>L"
    bad["strategies"][0]["positions"][root]["move"]["to"] = target
    if "L>L" not in {m.label for m in solved.game.moves(solved.game.parse(root))
                     if solved.game.key(m.position) == target}:
        with pytest.raises(CertificateError, match="no move labelled 'L>L'"):
            check_certificate(bad)

    bad = copy.deepcopy(data)
    bad["claim"] = "loss"
    with pytest.raises(CertificateError, match="a loss claim .* needs the strategies"):
        check_certificate(bad)

    bad = copy.deepcopy(data)
    bad["strategies"][0]["positions"][root]["rank"] = -1
    with pytest.raises(CertificateError, match=r"\['rank'\] is not valid: -1 is less than the minimum of 0"):
        check_certificate(bad)


def test_non_canonical_keys_are_refused(games):
    solved = games["chopsticks"]
    data = certificate(solved, "A|1-2|1-1")
    bad = copy.deepcopy(data)
    bad["position"] = "A|2-1|1-1"
    bad["strategies"][0]["positions"]["A|2-1|1-1"] = bad["strategies"][0]["positions"].pop("A|1-2|1-1")
    with pytest.raises(CertificateError, match=r"'A\|2-1\|1-1' is not written canonically \(expected 'A\|1-2\|1-1'\)"):
        check_certificate(bad)


def test_a_draw_certificate_with_a_broken_safety_set_is_caught(games):
    solved = games["chopsticks"]
    data = certificate(solved, "A|1-1|1-1")
    for index in (0, 1):
        strategy = data["strategies"][index]
        at = next(k for k in opponent_positions(strategy) if k != data["position"])
        bad = copy.deepcopy(data)
        del bad["strategies"][index]["positions"][at]
        with pytest.raises(CertificateError, match="not closed"):
            check_certificate(bad)
    bad = copy.deepcopy(data)
    bad["strategies"] = bad["strategies"][:1]
    with pytest.raises(CertificateError, match="needs the strategies"):
        check_certificate(bad)


def test_the_wrong_game_is_caught(games):
    _, data = winning(games)
    bad = copy.deepcopy(data)
    bad["game"] = games["chopsticks"].game.id  # standard rules: no suicide transfers
    with pytest.raises(CertificateError):
        check_certificate(bad)
    bad["game"] = "chopsticks(fingers=banana)"
    with pytest.raises(CertificateError, match="game 'chopsticks\\(fingers=banana\\)' is not valid"):
        check_certificate(bad)
    bad["game"] = "checkers"
    with pytest.raises(CertificateError, match="unknown game"):
        check_certificate(bad)
    with pytest.raises(CertificateError, match="not a gamegraph-certificate"):
        check_certificate({**data, "format": "something else"})
    with pytest.raises(CertificateError, match="JSON object"):
        check_certificate([data])


# -- independence from the solver, and the command line ---------------------------------------
def test_the_checker_uses_the_rules_alone(tmp_path, games):
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(certificate(games["tictactoe"], ".../.../...")))
    script = (
        "import json, sys\n"
        "from explorer.certificate import check_certificate\n"
        f"report = check_certificate(json.load(open({str(path)!r})))\n"
        "banned = [m for m in ('explorer.solver', 'explorer.solved', 'explorer.graph', 'explorer.algorithms.scc',\n"
        "                      'loaders', 'queries', 'neo4j', 'networkx', 'scipy') if m in sys.modules]\n"
        "assert not banned, banned\n"
        "print(report.claim)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "tie"


def cli(*args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEGRAPH_HOME": str(tmp_path / "state"), "GAMEGRAPH_PROGRESS": "0"}
    return subprocess.run([sys.executable, "-m", "explorer.cli", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def test_cli_writes_and_checks_certificates(tmp_path):
    path = tmp_path / "start.json"
    out = cli("certificate", "chopsticks:magic-fingers", "--position", "A|1-1|1-1", "-o", str(path), tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "is a loss" in out.stdout and json.loads(path.read_text())["claim"] == "loss"
    out = cli("check-certificate", str(path), tmp_path=tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("proved:") and "loses" in out.stdout

    data = json.loads(path.read_text())
    victim = next(k for k, e in data["strategies"][0]["positions"].items() if e.get("replies"))
    del data["strategies"][0]["positions"][victim]
    path.write_text(json.dumps(data))
    out = cli("check-certificate", str(path), tmp_path=tmp_path)
    assert out.returncode == 2 and "not closed" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr

    path.write_text("{not json")
    out = cli("check-certificate", str(path), tmp_path=tmp_path)
    assert out.returncode == 2 and "is not valid JSON" in out.stderr


def test_cli_certificate_to_a_missing_folder_is_one_line(tmp_path):
    target = tmp_path / "missing" / "cert.json"
    out = cli("certificate", "nim:small", "-o", str(target), tmp_path=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines() == [f"gamegraph: error: cannot write {target}: No such file or directory"]
    assert not (tmp_path / "missing").exists()


# -- the file format: a schema before any field is used, bounded parsing ---------------------
@pytest.mark.parametrize("field, value, message", [
    ("version", True, "not a gamegraph-certificate version 1 file"),
    ("version", 1.0, "not a gamegraph-certificate version 1 file"),
    ("symmetry", "yes", r"\['symmetry'\] is not valid: 'yes' is not of type 'boolean'"),
    ("game", 5, r"\['game'\] is not valid: 5 is not of type 'string'"),
    ("position", ["A|1-1|1-1"], r"\['position'\] is not valid"),
    ("claim", "victory", r"\['claim'\] is not valid: 'victory' is not one of"),
    ("strategies", {}, r"\['strategies'\] is not valid: \{\} is not of type 'array'"),
    ("position", "A|" + "9" * 4301 + "-1|1-1", r"\['position'\] is not valid: .*is too long"),
    ("extra", 1, "unexpected field 'extra'"),
])
def test_fields_of_the_wrong_type_or_size_are_refused_by_the_schema(games, field, value, message):
    _, data = winning(games)
    bad = {**copy.deepcopy(data), field: value}
    with pytest.raises(CertificateError, match=message):
        check_certificate(bad)


def test_entries_of_the_wrong_type_are_refused_by_the_schema(games):
    _, data = winning(games)
    root = data["position"]
    for change, message in ((lambda e: e.update(rank="3"), r"\['rank'\] is not valid: '3' is not of type 'integer'"),
                            (lambda e: e.update(rank=True), r"\['rank'\] is not valid: True is not of type 'integer'"),
                            (lambda e: e.update(move="L>L"), r"\['move'\] is not valid: 'L>L' is not of type 'object'"),
                            (lambda e: e["move"].update(to=5), r"\['to'\] is not valid: 5 is not of type 'string'"),
                            (lambda e: e.update(replies="x"), r"\['replies'\] is not valid")):
        bad = copy.deepcopy(data)
        change(bad["strategies"][0]["positions"][root])
        with pytest.raises(CertificateError, match=message):
            check_certificate(bad)
    bad = copy.deepcopy(data)
    bad["strategies"][0]["player"] = "0"
    with pytest.raises(CertificateError, match=r"\['player'\] is not valid: '0' is not of type 'integer'"):
        check_certificate(bad)


@pytest.mark.parametrize("raw, message", [
    (b"\xff\xfe{}", "is not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b"9" * 5000, "a number of 5,000 digits"),
    (b'{"format": NaN}', "holds NaN"),
    (b'{"format": "gamegraph-certificate", "version": 1', "is not valid JSON"),
    (b"", "is not valid JSON"),
])
def test_certificate_bytes_that_are_not_sane_json_are_refused(raw, message):
    from explorer.certificate import load_certificate_bytes
    with pytest.raises(CertificateError, match=message):
        load_certificate_bytes(raw, "forged.json")


def test_a_certificate_file_must_be_a_regular_file(tmp_path):
    from explorer.certificate import load_certificate
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(CertificateError, match="it is a FIFO"):
        load_certificate(tmp_path / "fifo.json")  # refused at once, never blocks
    with pytest.raises(CertificateError, match="it is a folder"):
        load_certificate(tmp_path)


def test_every_forged_certificate_is_rejected_or_still_true():
    """A small run of tests/support/certificate_forgery.py: the checker never accepts a false claim."""
    from tests.support.certificate_forgery import run
    result = run(seed=1, per_family=3)
    assert not result["bugs"], result["bugs"][:3]
    assert result["total"].get("rejected", 0) > 100


# -- the fast schema check (certificate._conforms) is never looser than jsonschema ----------------------
def _schema_says(data) -> bool:
    """jsonschema's own verdict on `data` (validate with the fast check off)."""
    import explorer.certificate as module

    fast, module._conforms = module._conforms, lambda data: False
    try:
        module.validate(data)
        return True
    except CertificateError:
        return False
    finally:
        module._conforms = fast


def _edge_cases(data: dict):
    """Certificates at and past each bound of SCHEMA, one field at a time (what the forgeries do not reach).
    The first strategy's first entry with a move takes the entry's and the move's changes."""
    from explorer.core.bounds import MAX_NOTATION_LENGTH
    from explorer.certificate import MAX_LABEL_LENGTH, MAX_RANK
    from explorer.games.spec import MAX_SPEC_LENGTH

    at = next(key for key, entry in data["strategies"][0]["positions"].items() if "move" in entry)

    def changed(change):
        copy_ = copy.deepcopy(data)
        change(copy_, copy_["strategies"][0], copy_["strategies"][0]["positions"][at])
        return copy_

    for n in (0, 1, MAX_NOTATION_LENGTH, MAX_NOTATION_LENGTH + 1):
        yield changed(lambda d, s, e: d.update(position="A" * n))
        yield changed(lambda d, s, e: s["positions"].update({"B" * n: {"to_move": 0}}))
        yield changed(lambda d, s, e: e["move"].update(to="C" * n))
        yield changed(lambda d, s, e: e.update(replies=["D" * n]))
    for n in (0, 1, MAX_SPEC_LENGTH, MAX_SPEC_LENGTH + 1):
        yield changed(lambda d, s, e: d.update(game="g" * n))
        yield changed(lambda d, s, e: d.update(spec="s" * n))
    for n in (MAX_LABEL_LENGTH, MAX_LABEL_LENGTH + 1):
        yield changed(lambda d, s, e: e["move"].update(label="L" * n))
    for number in (-1, 0, 1, 2, MAX_RANK, MAX_RANK + 1, 0.0, 1.0, 1.5, True, False, None):
        yield changed(lambda d, s, e: d.update(to_move=number))
        yield changed(lambda d, s, e: d.update(remoteness=number))
        yield changed(lambda d, s, e: s.update(player=number))
        yield changed(lambda d, s, e: e.update(rank=number))
        yield changed(lambda d, s, e: e.update(remoteness=number))
        yield changed(lambda d, s, e: d.update(version=number))
    for count in (0, 1, 2, 3):
        yield changed(lambda d, s, e: d.update(strategies=(d["strategies"] * 3)[:count]))
    yield changed(lambda d, s, e: s.update(positions={}))
    for where in ("top", "strategy", "entry", "move"):
        for name in ("extra", "$schema"):
            yield changed(lambda d, s, e: {"top": d, "strategy": s, "entry": e, "move": e["move"]}[where].update({name: 1}))
    for name in ("format", "version", "game", "symmetry", "position", "claim", "strategies", "spec", "to_move"):
        yield changed(lambda d, s, e: d.pop(name))
    for name in ("player", "goal", "positions"):
        yield changed(lambda d, s, e: s.pop(name))
    yield changed(lambda d, s, e: e["move"].pop("to"))
    for value in ("win", "WIN", "lose", "", 1):
        yield changed(lambda d, s, e: e.update(value=value, outcome=value))
        yield changed(lambda d, s, e: d.update(claim=value))
        yield changed(lambda d, s, e: s.update(goal=value))
    yield changed(lambda d, s, e: e.update(move=["to"]))
    yield changed(lambda d, s, e: e.update(replies=("x",)))
    yield changed(lambda d, s, e: s["positions"].update({5: {"to_move": 0}}))
    yield changed(lambda d, s, e: d.update(format="gamegraph-certificate "))


def test_the_fast_schema_check_accepts_only_what_jsonschema_accepts():
    """validate takes what certificate._conforms passes as valid without asking jsonschema (which took half
    of a check), so it must never pass what jsonschema refuses: on the forgeries of
    tests/support/certificate_forgery.py (every field given every other type; a few of each other family)
    and on each bound of SCHEMA. And it passes genuine certificates, so that they do take the fast path."""
    import random
    from collections import Counter

    import explorer.certificate as module
    from tests.support.certificate_forgery import forgeries, valid_certificates

    # The small ones (at most 40 positions: every claim but a tie, one and two strategies): a forgery is a deep
    # copy, and jsonschema's check of each the fast one passes is ~30 us an entry.
    genuine = [c for c in valid_certificates() if sum(len(s["positions"]) for s in c["strategies"]) <= 40]
    assert {c["claim"] for c in genuine} == {"win", "loss", "draw"}
    rng = random.Random(3)
    verdicts = {True: 0, False: 0}
    for data in genuine:
        assert module._conforms(data) and _schema_says(data)
        cases, per_family = [], Counter()
        for family, forged in forgeries(data, rng, [c for c in genuine if c is not data]):
            per_family[family] += 1
            if family == "types" or per_family[family] <= 5:
                cases.append(forged)
        if any("move" in entry for entry in data["strategies"][0]["positions"].values()):
            cases += list(_edge_cases(data))
        for case in cases:
            fast = module._conforms(case)
            assert not fast or _schema_says(case), json.dumps(case)[:300]
            verdicts[fast] += 1
    assert verdicts[True] > 100 and verdicts[False] > 1000, verdicts  # both answers were given, many times


def test_the_fast_schema_check_refuses_a_keyword_it_does_not_know():
    from explorer.certificate import _conforming

    with pytest.raises(ValueError, match="maxProperties"):
        _conforming({"type": "object", "maxProperties": 1})
    with pytest.raises(ValueError, match="pattern"):
        _conforming({"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}})
