"""`gamegraph cgt`: values, best moves and sums from the command line."""

from __future__ import annotations

import json

import pytest

from explorer.cgt import ZERO, parse_value
from explorer.analysis.cgt_report import parse_component, sum_report, value
from explorer.cli import main
from explorer.games import parse_spec


def run_json(capsys, *argv):
    assert main(["cgt", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_position(capsys):
    report = run_json(capsys, "toads-and-frogs", "T.TFF")
    (record,) = report["positions"]
    assert record["value"] == "↑" and record["ascii"] == "^" and record["outcome"] == "L"
    assert record["kind"] == "infinitesimal" and "sum" not in report
    assert [m["move"] for m in record["left_best"]] == ["T 1→2"]
    assert all(parse_value(m["ascii"]) is parse_value(m["value"]) for m in record["right_moves"])


def test_sum_across_games_and_its_winning_moves(capsys):
    report = run_json(capsys, "toads-and-frogs", "TT..FF", "nim::2-3", "domineering(rows=2,cols=2)::../..")
    total = parse_value(report["sum"]["ascii"])
    game = parse_spec("toads-and-frogs")
    parts = [parse_component(game, t) for t in ("TT..FF", "nim::2-3", "domineering(rows=2,cols=2)::../..")]
    assert total is value(parts[0]) + value(parts[1]) + value(parts[2])
    # Left moving first wins exactly when it has a winning move, and each one leaves a sum >= 0.
    assert bool(report["sum"]["left_wins_by"]) == (total.outcome in ("L", "N"))
    assert bool(report["sum"]["right_wins_by"]) == (total.outcome in ("R", "N"))
    for move in report["sum"]["left_wins_by"]:
        assert parse_value(move["sum_after_ascii"]) >= ZERO
    for move in report["sum"]["right_wins_by"]:
        assert parse_value(move["sum_after_ascii"]) <= ZERO


@pytest.mark.parametrize("boards", [["TT..FF", "T.F"], ["T.TFF", "T.F"], ["TT.F", "T.FF", "T..F"]])
def test_sum_report_agrees_with_outcome(boards):
    game = parse_spec("toads-and-frogs")
    components = [parse_component(game, b) for b in boards]
    report = sum_report(components)
    assert bool(report["left_wins_by"]) == (report["outcome"] in ("L", "N"))
    assert bool(report["right_wins_by"]) == (report["outcome"] in ("R", "N"))


def test_text_output_and_default_position(capsys):
    assert main(["cgt", "domineering(rows=2,cols=2)"]) == 0
    out = capsys.readouterr().out
    assert "±1" in out and "Left's best" in out and "first player wins" in out


@pytest.mark.parametrize("argv,fragment", [
    (["chopsticks"], "no combinatorial-game values"),
    (["toads-and-frogs", "TX"], "T, F and . only"),
    (["toads-and-frogs", "nim::1-x"], "heap sizes"),
    (["nosuchgame"], "unknown game"),
    (["domineering(rows=2,cols=2)", "#./.."], "pairs"),
])
def test_bad_input_is_one_line(capsys, argv, fragment):
    assert main(["cgt", *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_dot_labels_values(tmp_path, capsys):
    from explorer.cgt.evaluate import value_of

    out = tmp_path / "tf.dot"
    assert main(["dot", "toads-and-frogs", "graph", "--cgt", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    game = parse_spec("toads-and-frogs")
    assert f"T|TT..FF\\nwin in 11\\nG = {value_of(game, 'TT..FF')}" in text
    assert text.count("G = ") == 17
    assert main(["dot", "chopsticks", "graph", "--cgt", "-o", str(tmp_path / "c.dot")]) == 2
    assert "no combinatorial values" in capsys.readouterr().err


def test_nim_star_has_one_best_move(capsys):
    """G = *: the five moves go to *2, *3, 0, *3, *2, none dominated, but only the move to 0 wins."""
    report = run_json(capsys, "nim", "2-3")
    (record,) = report["positions"]
    assert record["value"] == "*" and len(record["left_moves"]) == 5
    assert [m["position"] for m in record["left_best"]] == ["2-2"]
    assert [m["position"] for m in record["left_moves"] if m["best"]] == ["2-2"]
    assert main(["cgt", "nim", "2-3"]) == 0
    assert "Left's best: take 1 from heap 2 → 2-2 = 0\n" in capsys.readouterr().out


@pytest.mark.parametrize("spec,limit", [("toads-and-frogs", 40), ("domineering(rows=3,cols=3)", 40), ("nim:small", 40)])
def test_best_moves_are_the_winning_ones(spec, limit):
    """Each side's best moves win for it moving first exactly when it has a winning move at all,
    and then they are every winning move, sensible ones first; otherwise the undominated moves."""
    from explorer.analysis.cgt_report import describe
    from explorer.cgt.evaluate import board_values, canonical_board, options

    game = parse_spec(spec)
    start = canonical_board(game, game.cgt_board(game.start()))
    values = board_values(game, [start])
    for board in sorted(values, key=repr)[:limit]:
        record = describe(parse_component(game, game.format_board(board)))
        whole = values[board]
        for side, name in enumerate(("left", "right")):
            after = [values[o.board] for o in options(game, board, side)]
            wins = [(v >= ZERO) if side == 0 else (v <= ZERO) for v in after]
            assert [m["wins"] for m in record[f"{name}_moves"]] == wins
            can_win = whole.left_wins_moving_first() if side == 0 else whole.right_wins_moving_first()
            assert any(wins) == can_win
            best = record[f"{name}_best"]
            if can_win:
                assert {m["position"] for m in best} == {m["position"] for m in record[f"{name}_moves"] if m["wins"]}
            else:
                better = (lambda a, b: a > b) if side == 0 else (lambda a, b: a < b)
                assert all(not better(parse_value(o["ascii"]), parse_value(m["ascii"]))
                           for m in best for o in record[f"{name}_moves"])
            flags = [m["sensible"] for m in best]
            assert flags == sorted(flags, reverse=True)  # sensible ones first


def test_domineering_rectangle_mean_temperature_and_thermograph_file(capsys, tmp_path):
    """Winning Ways' 2×3 rectangle {2 | −1/2}: mean 3/4, temperature 5/4, in text, JSON and a drawing."""
    picture = tmp_path / "t.svg"
    assert main(["cgt", "domineering(rows=2,cols=3)", "--thermograph", str(picture)]) == 0
    out = capsys.readouterr().out
    assert "mean 3/4   temperature 5/4" in out and "thermograph written to" in out
    svg = picture.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "left wall" in svg and "right wall" in svg and "mean 3/4" in svg
    (record,) = run_json(capsys, "domineering(rows=2,cols=3)")["positions"]
    assert (record["mean"], record["temperature"]) == ("3/4", "5/4")
    assert record["thermograph"]["left_wall"] == [["0", "2"], ["5/4", "3/4"]]
    assert record["thermograph"]["right_wall"] == [["0", "-1/2"], ["5/4", "3/4"]]


def test_sum_and_values_have_means_that_add(capsys):
    report = run_json(capsys, "toads-and-frogs", "TT..FF", "T.F", "--value", "{2|-1/2}", "--value", "+-1")
    from fractions import Fraction
    parts = [Fraction(r["mean"]) for r in report["positions"]]
    assert len(parts) == 4 and Fraction(report["sum"]["mean"]) == sum(parts)
    assert report["positions"][2]["game"] == "value" and report["positions"][2]["temperature"] == "5/4"
    assert [m["position"] for m in report["positions"][3]["left_best"]] == ["1"]


@pytest.mark.parametrize("argv,fragment", [
    (["--value", "{2|"], "expected a number, *n, ^, v, +- or {"),
    (["--value", "{2,}"], "expected a number"),
    (["--value", "3/7"], "dyadic"),
    (["domineering(rows=2,cols=3)", "--thermograph", "out.jpg"], "SVG or PNG"),
    ([], "give a game spec"),
])
def test_bad_value_input_is_one_line(capsys, argv, fragment):
    assert main(["cgt", *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_too_large_a_value_is_refused_from_its_size(capsys, monkeypatch):
    from explorer.cgt import thermograph

    monkeypatch.setattr(thermograph, "MAX_SUBPOSITIONS", 10)
    assert main(["cgt", "--value", "{3+-1,{5|1}|{-1|-3},-4}"]) != 0
    err = capsys.readouterr().err
    assert "subpositions" in err and "too large" in err and err.count("\n") == 1


@pytest.mark.parametrize("bound,fragment", [("MAX_SUM_WORK", "the sum is too large to analyse"),
                                            ("MAX_WRITTEN", "too large to write out")])
def test_a_sum_too_large_is_refused_from_its_size(capsys, monkeypatch, bound, fragment):
    """A sum of a few hot values grows as the product of their sizes, and its text faster still:
    both are refused in one line before the work (here with small bounds, to stay quick)."""
    from explorer.analysis import cgt_report

    monkeypatch.setattr(cgt_report, bound, 40)
    argv = ["cgt"] + [arg for k in (1, 2, 3) for arg in ("--value", f"{{{k}|{{0|-{k}}}}}")]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err
    monkeypatch.undo()
    assert main(argv) == 0  # within the real bounds the same sum is analysed
    assert "sum of 3" in capsys.readouterr().out


@pytest.mark.parametrize("argv, header", [
    (["nim", "2-3"], "#1 2-3  (nim(heaps=2-3))"),  # the two heaps typed, not the default nim(heaps=1-3-5-7)
    (["nim"], "#1 1-3-5-7  (nim:marienbad)"),  # the game's name as `show` gives it (Game.display_name)
    (["toads-and-frogs", "T.TFF"], "#1 T.TFF  (toads-and-frogs(board=T.TFF))"),
    (["domineering(rows=2)"], "#1 .../...  (domineering(rows=2))"),  # was domineering(rows=2,cols=3,first=vertical)
    (["--value", "{2|-1/2}"], "#1 3/4+-5/4  (a value written out)"),
])
def test_the_header_names_the_game_of_the_board_typed(capsys, argv, header):
    assert main(["cgt", *argv]) == 0
    assert capsys.readouterr().out.splitlines()[0] == header
    if argv[0] != "--value":  # one name: the one `show` heads its answer with
        assert main(["show", argv[0]]) == 0
        shown = capsys.readouterr().out.splitlines()[0].split("  position")[0]
        assert header.endswith(f"({shown})") or argv[1:], (shown, header)


def test_a_png_thermograph_is_the_svg_drawn(capsys, tmp_path):
    """`--thermograph FILE.png` (issue 37): the same SVG drawn by Chromium, 1,560 x 1,080 px, both walls in
    their colours; refused once before, as matplotlib is not a dependency."""
    import shutil

    from explorer.render import palette
    from explorer.render.thermograph import CHROMIUM_NAMES, HEIGHT, PNG_SCALE, WIDTH

    if not any(map(shutil.which, CHROMIUM_NAMES)):
        pytest.skip("Chromium is not installed")
    from PIL import Image

    picture = tmp_path / "rectangle.png"
    assert main(["cgt", "domineering(rows=2,cols=3)", "--thermograph", str(picture)]) == 0
    assert "thermograph written to" in capsys.readouterr().out
    with Image.open(picture) as image:
        assert image.format == "PNG" and image.size == (WIDTH * PNG_SCALE, HEIGHT * PNG_SCALE)
        colours = {colour for _, colour in image.convert("RGB").getcolors(maxcolors=1 << 20)}
    for wall in (palette.FIRST.fill, palette.SECOND.fill):
        rgb = tuple(int(wall[i:i + 2], 16) for i in (1, 3, 5))
        assert rgb in colours, wall  # each wall drawn in its player's colour
    assert [p.name for p in tmp_path.iterdir()] == ["rectangle.png"]  # nothing else left beside it
