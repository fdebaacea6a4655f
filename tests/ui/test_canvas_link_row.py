"""Issue 35: the saved scene's lines go with its link, above the canvas. The Copy link button was under the canvas and
its legend in words (out of the first screen); it is now in the canvas's count line, and the canvas's notes (a link's
refused expansions, group= and open= among them) follow it, all before the canvas. With nothing to say the notes take
no element of their own height (an empty caption cost the first screen 29 px). The canvas in a browser:
tests/ui/test_canvas_fold_browser.py."""

from __future__ import annotations

from tests.support.ui_support import page, text_of


def _walk(node, out: list) -> list:
    """The page's elements in document order: (type, text)."""
    kind = getattr(node, "type", type(node).__name__)
    if kind == "html":
        text = node.proto.body
    elif kind in ("caption", "markdown", "warning", "info", "error"):
        text = text_of(str(node.value))
    else:
        text = ""
    out.append((kind, text))
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else []):
        _walk(child, out)
    return out


def _order(at) -> list:
    """The Graph tab's elements in order, up to and with the canvas (the component)."""
    tab = next(t for t in at.tabs if t.label == "Graph")
    return _walk(tab, [])


def test_copy_link_and_the_links_notes_come_before_the_canvas():
    at = page(game="chopsticks:standard", exp='["A|1-1|1-1","Z|9-9|9-9"]', group="nope")
    shown = _order(at)
    kinds = [kind for kind, _ in shown]
    canvas = kinds.index("component_instance")
    copy = next(i for i, (kind, text) in enumerate(shown) if kind == "html" and 'id="gg-copy"' in text)
    count = next(i for i, (kind, text) in enumerate(shown) if kind == "caption" and "positions and" in text)
    notes = next(i for i, (kind, text) in enumerate(shown) if kind == "caption" and "The link's group=" in text)
    missing = next(i for i, (kind, text) in enumerate(shown)
                   if kind == "caption" and "expansions name positions not on this canvas" in text)
    assert count < copy < canvas, shown          # the link's button in the count's line, above the canvas
    assert copy < notes < canvas and notes == missing, shown  # the link's notes in one caption right after it
    assert not [text for kind, text in shown[canvas:] if 'id="gg-copy"' in text]  # nothing of the link under it


def test_no_notes_no_caption_above_the_canvas():
    at = page(game="tictactoe")
    shown = _order(at)
    canvas = [kind for kind, _ in shown].index("component_instance")
    captions = [text for kind, text in shown[:canvas] if kind == "caption"]
    assert len(captions) == 1 and "positions and" in captions[0], captions  # the count alone: no empty note line
