"""Clickable diagrams and tables: clicking a position's link tells the page which position it was.

Built on Streamlit's own `st.components.v2` (inline HTML + JavaScript, no
third-party package, no build step). Graphviz writes each node's URL
(`?game=...&pos=...`) into the SVG as a link; the script cancels the page
navigation a plain click would cause (that would start a new session and lose
the history) and reports the link's `pos` instead (or its `pick`, when it has one). Ctrl/Cmd-click still opens
the link in a new tab, and the SVG keeps working as plain links anywhere else.
"""

from __future__ import annotations

from typing import Any, Callable

import streamlit as st

_JS = """
export default function(component) {
    const { data, setTriggerValue, parentElement } = component;
    let holder = parentElement.querySelector('.gg-diagram');
    if (!holder) {
        holder = document.createElement('div');
        holder.className = 'gg-diagram';
        parentElement.appendChild(holder);
    }
    holder.innerHTML = data || '';
    // Graphviz sizes in points; drawing 1 pt as 1 px (three quarters size) keeps labels
    // legible while big neighbourhoods still fit mostly on screen (the rest scrolls).
    const svg = holder.querySelector('svg');
    if (svg && /pt$/.test(svg.getAttribute('width') || '')) {
        svg.style.maxWidth = 'none';  // a diagram scrolls at its own size; a board (sized in px) shrinks to fit
        svg.style.width = parseFloat(svg.getAttribute('width')) + 'px';
        svg.style.height = parseFloat(svg.getAttribute('height')) + 'px';
    }
    // Bring the current position (the node Graphviz wrote with id "ggcentre") into view.
    const centre = holder.querySelector('#ggcentre');
    if (centre && centre.getBoundingClientRect) {
        const box = centre.getBoundingClientRect(), frame = holder.getBoundingClientRect();
        holder.scrollLeft += box.left + box.width / 2 - (frame.left + holder.clientWidth / 2);
        holder.scrollTop += box.top + box.height / 2 - (frame.top + holder.clientHeight / 2);
    }
    holder.querySelectorAll('a').forEach((link) => {
        const href = link.getAttribute('href') || link.getAttribute('xlink:href') || '';
        const query = href.indexOf('?') >= 0 ? href.slice(href.indexOf('?') + 1) : '';
        // `pick` names one move where two moves reach the same position (the Play board).
        const params = new URLSearchParams(query);
        const pos = params.get('pick') || params.get('pos');
        if (!pos) return;
        link.style.cursor = 'pointer';
        link.addEventListener('click', (event) => {
            if (event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1) return;
            event.preventDefault();
            setTriggerValue('clicked', pos);
        });
    });
}
"""

_CSS = """
.gg-diagram { overflow: auto; max-height: 820px; }
.gg-diagram svg { max-width: 100%; height: auto; display: block; margin: 0 auto; }
.gg-diagram a:hover polygon, .gg-diagram a:hover ellipse { stroke-width: 3; }
"""

_component = st.components.v2.component("gamegraph_clickable", js=_JS, css=_CSS)


def clickable_html(markup: str, key: str, on_click: Callable[[], None] | None = None) -> str | None:
    """Show `markup` (an SVG, a table); returns the `pos` of the link clicked in this run, else None.

    `on_click`, when given, runs before the run the click starts (a widget callback): it finds the link's
    `pos` at `st.session_state[key].clicked` and can change the page there, so that the run draws the page
    after the click at once instead of drawing the old page and asking for a rerun."""
    result: Any = _component(data=markup, key=key, on_clicked_change=on_click or (lambda: None))
    try:
        return result.clicked
    except AttributeError:
        return None
