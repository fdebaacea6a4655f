"""Chopsticks positions drawn the way players see them: two hands each, fingers raised.

Plain SVG text (no images, no JavaScript), so the same drawing works in the
page, in a download and in tests. The opponent sits at the top with fingers
pointing down at the table, the player A at the bottom; the player to move is
framed. A hand of fingers=n shows n-1 finger slots (n fingers kill it); past
ten slots the count is written instead, so big variants stay legible.

With `links` (move label -> URL) the moves are on the drawing: a tap (`L>R`) is
an arrow from the mover's hand to the hand it taps, clicked on its round chip
(which says how many fingers it adds); a transfer or split is a chip beside the
mover's hands naming the hands it leaves (`1-4`).

At a finished position (`over`: why it ended, explorer.play.game_over) no one is framed as the
player to move; the board module (explorer/ui/boards/chopsticks.py) writes the sentence below the hands.
"""

from __future__ import annotations

import re
from html import escape

from explorer.render.palette import (DEAD, DEAD_EDGE, FOLDED, HAND_INK, HAND_NAME, IDLE_NAME, INK_SOFT, NEUTRAL_MARK,
                                     RULE, SKIN, SKIN_EDGE, TURN_GROUND, WHITE)

# No colour here may look like a value (explorer/render/palette.py): the taps and chips take the
# value colours, and the skin was near the tie fill, the mover's blue frame near the draw blue.
TURN = NEUTRAL_MARK
MAX_SLOTS = 10
SLOT, GAP = 14, 4
RAISED, STUB, PALM_H = 44, 12, 38


def _hand(x: float, y: float, count: int, slots: int, flip: bool) -> str:
    """One hand with its palm's top-left corner at (x, y); `flip` points the fingers down.

    Up to MAX_SLOTS slots every finger is drawn, raised or folded; past that a
    gauge filled count/slots stands in for the fingers.
    """
    drawn = min(slots, MAX_SLOTS)
    width = drawn * (SLOT + GAP) + GAP
    dead = count == 0
    edge = RULE if dead else SKIN_EDGE
    parts = []
    if slots <= MAX_SLOTS:
        for i in range(drawn):
            raised = i < count
            height = RAISED if raised else STUB
            fill = DEAD if dead else (SKIN if raised else FOLDED)
            fx = x + GAP + i * (SLOT + GAP)
            fy = y + PALM_H - 6 if flip else y - height + 6
            parts.append(f'<rect x="{fx}" y="{fy}" width="{SLOT}" height="{height}" rx="7" '
                         f'fill="{fill}" stroke="{edge}" stroke-width="1.2"/>')
    else:
        gauge = RAISED - 14
        gy = y + PALM_H + 4 if flip else y - gauge - 4
        filled = (width - 2 * GAP) * count / slots
        parts.append(f'<rect x="{x + GAP}" y="{gy}" width="{width - 2 * GAP}" height="{gauge}" rx="6" '
                     f'fill="{FOLDED}" stroke="{edge}" stroke-width="1.2"/>')
        if filled:
            parts.append(f'<rect x="{x + GAP}" y="{gy}" width="{filled:.1f}" height="{gauge}" rx="6" '
                         f'fill="{SKIN}" stroke="{edge}" stroke-width="1.2"/>')
        parts.append(f'<text x="{x + width / 2}" y="{gy + gauge / 2 + 4}" text-anchor="middle" font-size="11" '
                     f'fill="{HAND_INK}" font-family="sans-serif">{count} of {slots} fingers</text>')
    palm_fill = DEAD if dead else SKIN
    dash = ' stroke-dasharray="4 3"' if dead else ""
    parts.append(f'<rect x="{x}" y="{y}" width="{width}" height="{PALM_H}" rx="12" fill="{palm_fill}" '
                 f'stroke="{DEAD_EDGE if dead else SKIN_EDGE}" stroke-width="1.5"{dash}/>')
    label = "✕" if dead else str(count)
    colour = INK_SOFT if dead else HAND_INK  # readable on the palm (4.5:1 at least)
    parts.append(f'<text x="{x + width / 2}" y="{y + PALM_H / 2 + 7}" text-anchor="middle" font-size="20" '
                 f'font-weight="bold" fill="{colour}" font-family="sans-serif">{label}</text>')
    return "\n".join(parts)


def hand_width(fingers: int) -> int:
    return min(fingers - 1, MAX_SLOTS) * (SLOT + GAP) + GAP


TAP = re.compile(r"^([LR])>([LR])$")
CHIP_W, CHIP_H, CHIPS_PER_COLUMN = 64, 20, 4
TAP_R = 13                 # a tap chip's radius
TAP_AT = 0.65              # a tap chip sits this far along its arrow, from the mover's palm
PALMS_APART = 160          # between the two rows' facing palm edges: room for the fingers of both and the chips
NAME_ROOM = 16             # a hand name's line ("left", "right"), on the outer side of its hand


def _rows(to_move: int) -> dict[int, dict[str, float]]:
    """Where each player's row goes: palm top, the hand names' baseline and the row's frame (top, bottom).

    The hand names sit on the outer side of the hands (above the opponent's, below A's), so the space
    between the two rows holds only the fingers and the tap chips; PALMS_APART leaves the chips,
    placed TAP_AT along each arrow, clear of both rows' fingertips (test_hands_marks_do_not_overlap)."""
    palm_b = 10 + NAME_ROOM + 4
    palm_a = palm_b + PALM_H + PALMS_APART
    return {
        1: {"palm": palm_b, "names": palm_b - 6, "frame": (4, palm_b + PALM_H + RAISED - 6 + 8)},
        0: {"palm": palm_a, "names": palm_a + PALM_H + NAME_ROOM, "frame": (palm_a - RAISED + 6 - 8,
                                                                            palm_a + PALM_H + NAME_ROOM + 6)},
    }


def svg(hands: tuple[tuple[int, int], tuple[int, int]], to_move: int, fingers: int,
        names: tuple[str, str] = ("A", "B"), links: dict[str, str] | None = None, over: str | None = None,
        said: str | None = None) -> str:
    """The SVG of a Chopsticks position: `hands` = ((A left, A right), (B left, B right)); `over`, at
    a finished position, the sentence that says so (then no player is framed as to move); `said`, the
    board's caption (explorer.ui.boards.caption.turn_caption), ends the drawing's accessible name
    (`over`, else "A to move", without it)."""
    links = links or {}
    slots = fingers - 1
    hw = hand_width(fingers)
    gap = 60
    margin = 90
    others = [label for label in links if not TAP.match(label)]
    columns = -(-len(others) // CHIPS_PER_COLUMN)
    chips_left = margin + 2 * hw + gap + 24
    width = chips_left + columns * (CHIP_W + 8) + (14 if columns else 6)  # chips stay inside the mover's frame
    rows = _rows(to_move)
    height = rows[0]["frame"][1] + 6
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{escape(_describe(hands, to_move, names, said or over))}">']
    if over:
        to_move = -1  # nobody is to move: no frame, no "to move"
    for player in (1, 0):  # opponent (B) on top, fingers down; A below
        row, flip = rows[player], player == 1
        palm_y = row["palm"]
        if player == to_move:
            top, bottom = row["frame"]
            out.append(f'<rect x="4" y="{top}" width="{width - 8}" height="{bottom - top}" rx="14" '
                       f'fill="{TURN_GROUND}" stroke="{TURN}" stroke-width="2.5"/>')
        out.append(f'<text x="14" y="{palm_y + PALM_H / 2 + 6}" font-size="17" font-family="sans-serif" '
                   f'font-weight="{"bold" if player == to_move else "normal"}" '
                   f'fill="{TURN if player == to_move else IDLE_NAME}">{escape(names[player])}</text>')
        if player == to_move:
            out.append(f'<text x="14" y="{palm_y + PALM_H / 2 + 24}" font-size="11" font-family="sans-serif" '
                       f'fill="{TURN}">to move</text>')
        for side, count in enumerate(hands[player]):
            x = margin + side * (hw + gap)
            out.append(_hand(x, palm_y, count, slots, flip))
            hand_name = "left" if side == 0 else "right"
            out.append(f'<text x="{x + hw / 2}" y="{row["names"]}" text-anchor="middle" font-size="12" '
                       f'font-family="sans-serif" fill="{HAND_NAME}">{hand_name}</text>')
    if links and not over:
        palms = {player: rows[player]["palm"] for player in rows}
        out.extend(_tap_links(links, hands, to_move, palms, hw, gap, margin))
        out.extend(_other_links(others, links, rows[to_move]["frame"], chips_left))
    out.append("</svg>")
    return "\n".join(out)


def _tap_links(links, hands, to_move, palms, hw, gap, margin) -> list[str]:
    """Each tap an arrow between palm centres, clickable on a chip TAP_AT of the way (the chips of the
    two crossing taps sit apart, so each is one target)."""
    out = []
    mover, target = palms[to_move], palms[1 - to_move]
    down = target > mover
    y0 = mover + (PALM_H if down else 0)
    y1 = target + (0 if down else PALM_H)
    for label, href in links.items():
        tap = TAP.match(label)
        if not tap:
            continue
        source, aim = ("LR".index(tap[1]), "LR".index(tap[2]))
        x0 = margin + source * (hw + gap) + hw / 2
        x1 = margin + aim * (hw + gap) + hw / 2
        cx, cy = x0 + TAP_AT * (x1 - x0), y0 + TAP_AT * (y1 - y0)
        adds = hands[to_move][source]
        # The line stays outside the link (the chip alone is the target); data-for-move lets move values colour it.
        out.append(f'<line data-for-move="{escape(label)}" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                   f'stroke="{TURN}" stroke-width="3" stroke-opacity="0.55" stroke-dasharray="6 4"/>')
        out.append(f'<a href="{escape(href)}" data-move="{escape(label)}"><title>tap {escape(label)}: your '
                   f'{"left" if source == 0 else "right"} hand adds {adds} to their '
                   f'{"left" if aim == 0 else "right"}</title>'
                   f'<circle class="gg-mark" cx="{cx:.1f}" cy="{cy:.1f}" r="{TAP_R}" fill="{WHITE}" stroke="{TURN}" '
                   'stroke-width="2.5"/>'
                   f'<text class="gg-mark-text" x="{cx:.1f}" y="{cy + 4.5:.1f}" text-anchor="middle" font-size="13" '
                   f'font-weight="bold" font-family="sans-serif" fill="{TURN}">+{adds}</text></a>')
    return out


def _other_links(others, links, frame: tuple[float, float], left: float) -> list[str]:
    """Transfers and splits: chips beside the mover's hands, each naming the hands it leaves, in
    columns of CHIPS_PER_COLUMN centred in the mover's frame (and never past its edges)."""
    out = []
    top_edge, bottom_edge = frame
    used = min(len(others), CHIPS_PER_COLUMN) * (CHIP_H + 4) - 4
    top = max(top_edge + 6, (top_edge + bottom_edge) / 2 - used / 2)
    for i, label in enumerate(others):
        x = left + (i // CHIPS_PER_COLUMN) * (CHIP_W + 8)
        y = top + (i % CHIPS_PER_COLUMN) * (CHIP_H + 4)
        result = label.rsplit(" ", 1)[-1]
        out.append(f'<a href="{escape(links[label])}" data-move="{escape(label)}"><title>{escape(label)}: your hands '
                   f'become {escape(result)}</title>'
                   f'<rect class="gg-mark" x="{x}" y="{y:.1f}" width="{CHIP_W}" height="{CHIP_H}" rx="9" '
                   f'fill="{WHITE}" stroke="{TURN}" stroke-width="1.8"/>'
                   f'<text class="gg-mark-text" x="{x + CHIP_W / 2}" y="{y + 14:.1f}" text-anchor="middle" '
                   f'font-size="12" font-family="sans-serif" fill="{TURN}">→ {escape(result)}</text></a>')
    return out


def _describe(hands, to_move: int, names: tuple[str, str], over: str | None = None) -> str:
    (a0, a1), (b0, b1) = hands
    return f"{names[0]} has {a0} and {a1}, {names[1]} has {b0} and {b1}; {over or f'{names[to_move]} to move'}"
