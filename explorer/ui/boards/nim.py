"""Nim: heaps of tokens; a click on a token takes it and those above it."""

from html import escape

from explorer.render.palette import NEUTRAL_MARK, NIM_TOKEN, NIM_TOKEN_RIM, RULE
from explorer.ui.boards.grid import CAPTION_LINE, caption, wrap


def svg(game, position, links):
    from explorer.ui.boards.caption import turn_caption

    return heaps_svg(position.heaps, position.to_move, max(game.params.heaps), links, turn_caption(game, position))


def heaps_svg(heaps: tuple[int, ...], to_move: int, largest: int, links: dict[str, str] | None = None,
              said: str | None = None) -> str:
    """Each heap a column of tokens with its size under it; large heaps are drawn as bars; `said` is
    the caption above them ("B to move" by default; explorer.ui.boards.caption.turn_caption says why a game ended).
    A token whose move is in `links` (``take k from heap h``) is a link: clicking the j-th token
    from the bottom takes it and every token above it."""
    token, pad, col = 14, 16, 44
    tall = min(largest, 16)
    width = max(len(heaps) * col + 2 * pad, 180)
    lines = wrap(said or f"{'AB'[to_move]} to move", width - 2 * pad, 14)
    height = tall * token + 70 + (len(lines) - 1) * CAPTION_LINE  # a wrapped caption pushes the heaps down
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
           caption(lines, pad, 18, NEUTRAL_MARK, size=14)]
    base = height - 28
    mark = ' class="gg-mark"' if links else ""  # a token that plays a move takes its value's colour
    for i, size in enumerate(heaps):
        cx = pad + i * col + col / 2
        if largest <= 16:
            for j in range(size):
                circle = (f'<circle{mark} cx="{cx}" '
                          f'cy="{base - j * token - token / 2}" r="{token / 2 - 1.5}" fill="{NIM_TOKEN}" stroke="{NIM_TOKEN_RIM}"/>')
                label = f"take {size - j} from heap {i + 1}"
                href = (links or {}).get(label)
                out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>{label}</title>{circle}</a>'
                           if href else circle)
        else:
            bar = (tall * token) * size / largest
            out.append(f'<rect x="{cx - 8}" y="{base - bar}" width="16" height="{bar}" rx="4" fill="{NIM_TOKEN}"/>')
        out.append(f'<line x1="{cx - 16}" y1="{base + 2}" x2="{cx + 16}" y2="{base + 2}" stroke="{RULE}"/>')
        out.append(f'<text x="{cx}" y="{base + 18}" text-anchor="middle" font-size="13" font-family="sans-serif">{size}</text>')
    out.append("</svg>")
    return "\n".join(out)
