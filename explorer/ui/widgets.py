"""Small page helpers shared by the panels: guarded panels, player names, markdown escaping."""

from __future__ import annotations

import logging
import re
from contextlib import contextmanager
from typing import Iterator

import streamlit as st

from explorer.core.errors import GameGraphError
from explorer.games import Game
from explorer.games.base import player_name  # noqa: F401  (the panels import it from here)

log = logging.getLogger("gamegraph.ui")


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
        st.error(str(exc))
    except Exception as exc:  # noqa: BLE001 - one broken panel must not take the page down
        log.exception("%s failed", what)
        st.error(f"{what} is not available: {type(exc).__name__}: {exc}")


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def md_escape(text: str) -> str:
    """Text shown literally in Streamlit markdown (move labels such as `L>R` or `>1-3`)."""
    return _MD_SPECIAL.sub(r"\\\1", text)
