"""Small page helpers shared by the panels: guarded panels, error and note lines as literal text,
player names, markdown escaping."""

from __future__ import annotations

import functools
import logging
import re
from contextlib import contextmanager
from typing import Iterator

import streamlit as st

from explorer.core.errors import GameGraphError
from explorer.games import Game
from explorer.games.base import player_name  # noqa: F401  (the panels import it from here)
from explorer.render import palette

log = logging.getLogger("gamegraph.ui")

# Icons come from Streamlit's own Material Symbols font, which it serves itself: an emoji needs a colour-emoji
# font that a plain Debian lacks, and Chromium there drew the page's emoji as empty boxes.
WARNING_ICON = ":material/warning:"


@functools.cache
def page_icon():
    """The browser tab's icon, drawn here (three positions and two moves) rather than an emoji: Streamlit draws
    an emoji favicon with the machine's fonts, or fetches a Material icon from the internet. A 32 px PIL image."""
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (32, 32), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    centres = [(16, 6), (6, 26), (26, 26)]
    for end in centres[1:]:
        draw.line([centres[0], end], fill=(90, 90, 90, 255), width=3)
    for (x, y), value in zip(centres, ["draw", "win", "loss"]):  # the values' colours, from the one palette
        draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=palette.COLOURS[value])
    return image


@contextmanager
def guarded(what: str) -> Iterator[None]:
    """Run one panel; its failure becomes an `st.error` line and the rest of the page still draws.

    A GameGraphError is a user's or the environment's mistake and is shown as
    its message alone; anything else is a bug, logged with its traceback on the
    server and reported on the page in one line.
    """
    try:
        yield
    except GameGraphError as exc:
        error(str(exc))
    except Exception as exc:  # noqa: BLE001 - one broken panel must not take the page down
        log.exception("%s failed", what)
        error(f"{what} is not available: {type(exc).__name__}: {exc}")


def error(message: str) -> None:
    """One error line, shown as the literal text: a message may quote what the URL or a form held
    (`pos=![i](http://...)`), and Streamlit would render that as Markdown (an image, a link)."""
    st.error(as_text(message))


def info(message: str, commands: bool = False) -> None:
    """One note line, shown as the literal text (see error); with `commands`, a part between backticks of our
    own text (a command to run) is shown as code, the rest still literal: a code span renders nothing either."""
    st.info(with_commands(message) if commands else as_text(message))


def with_commands(message: str) -> str:
    """Markdown of `message` as literal text but for its parts between backticks, shown as code spans (an
    unpaired backtick's rest is one too, closed here). O(len(message))."""
    parts = message.split("`")
    return "".join(f"`{part}`" if i % 2 else as_text(part) for i, part in enumerate(parts) if part or not i % 2)


# Streamlit's Markdown links bare addresses (http://..., www...., a@b.c) after escapes are read,
# so a zero-width space goes inside each: the line reads the same, and nothing in it is a link.
_WWW = re.compile(r"(?i)(www)(\.)")


def as_text(message: str) -> str:
    """Markdown that shows `message` exactly as written: no formatting, no image, no link."""
    unlinked = _WWW.sub("\\1\u200b\\2", message.replace("://", ":\u200b//").replace("@", "@\u200b"))
    return md_escape(unlinked)


ECHO_LIMIT = 40  # characters of a bad value from a link (a ply, side=, opp=, k=) quoted back in its line


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` quoted back in a message, cut to `limit` characters and saying so when it is cut
    ("'1111…', 40 characters shown of 9,000"), so the user knows the link held more. O(limit)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}…, {limit} characters shown of {len(text):,}"


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=&])")


def md_escape(text: str) -> str:
    """Text shown literally in Streamlit markdown (move labels such as `L>R` or `>1-3`)."""
    return _MD_SPECIAL.sub(r"\\\1", text)


# The stage (issue 35): the page's head is short (Streamlit's 6rem above the title, and a 2.75rem title, cost the
# canvas 120 px of the first screen), so that the canvas starts in the first screen at 1,440 x 900.
STAGE_CSS = """<style>
[data-testid=stMainBlockContainer] { padding-top: 3.9rem; }  /* clear of the 3.75rem header */
[data-testid=stMainBlockContainer] h1 { font-size: 1.75rem; padding: 0; }
[data-testid=stMainBlockContainer] [data-testid=stVerticalBlock] { gap: 0.5rem; }  /* Streamlit's 1rem */
[data-testid=stMainBlockContainer] [data-testid=stTabPanel] { padding-top: 0.5rem; }  /* Streamlit's 1rem */
</style>"""


def stage_head(title: str, description: str) -> None:
    """The page's head: the game's name and its description on one line, so that the canvas starts higher in the
    first screen. A description too long for the row ends in an ellipsis and shows whole on hover (it wrapped onto
    three lines beside the name at 1,000 px: 50 px of the first screen). The name is escaped: Streamlit reads
    "teeko:small" as a :small[] directive and drops it."""
    st.html(STAGE_CSS)
    with st.container(horizontal=True, vertical_alignment="center", gap="medium", wrap=False):
        st.title(md_escape(title), width="content", anchor=False)
        st.caption(description, wrap=False)
