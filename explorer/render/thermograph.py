"""A thermograph drawn as SVG (explorer.cgt.thermograph): `gamegraph cgt --thermograph FILE.svg` and the page's CGT panel.

Drawn the way Winning Ways and CGSuite draw it: temperature t upwards, and the
value axis reversed, so that Left's side (larger values) is on the left. The
left wall is in the first player's colour, the right wall in the second's
(explorer.render.palette), each labelled; the mast, above the temperature, is
dashed and labelled with the mean. Corners of the walls and the temperature
are marked on the axes with their exact values.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from explorer.cgt.thermograph import Thermograph
from explorer.render import palette

WIDTH, HEIGHT = 520, 360
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 60, 30, 40, 46


def fraction_text(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def thermograph_svg(th: Thermograph, title: str = "") -> str:
    """The thermograph as a standalone SVG document (text). O(corners)."""
    t_low = min(Fraction(0), th.temperature)
    t_top = max(th.temperature, Fraction(0)) + max(Fraction(1), abs(th.temperature) / 3)
    xs = [x for _, x in th.left] + [x for _, x in th.right]
    x_high, x_low = max(xs), min(xs)
    spread = max(x_high - x_low, Fraction(1))
    x_high, x_low = x_high + spread / 6, x_low - spread / 6
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM

    def px(x: Fraction) -> float:  # larger values to the left
        return MARGIN_LEFT + float((x_high - x) / (x_high - x_low)) * plot_w

    def py(t: Fraction) -> float:
        return MARGIN_TOP + float((t_top - t) / (t_top - t_low)) * plot_h

    def path(points) -> str:
        return " ".join(f"{px(x):.1f},{py(t):.1f}" for t, x in points)

    ink, soft, rule = palette.INK, palette.INK_SOFT, palette.RULE_LIGHT
    left_colour, right_colour = palette.FIRST.fill, palette.SECOND.fill
    font = 'font-family="sans-serif" font-size="12"'
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="thermograph">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{palette.WHITE}"/>']
    if title:
        parts.append(f'<text x="{WIDTH / 2:.0f}" y="18" text-anchor="middle" {font} fill="{ink}">'
                     f'{escape(title)}</text>')
    base = py(t_low)
    parts.append(f'<line x1="{MARGIN_LEFT}" y1="{base:.1f}" x2="{WIDTH - MARGIN_RIGHT}" y2="{base:.1f}" '
                 f'stroke="{rule}"/>')
    parts.append(f'<line x1="{MARGIN_LEFT}" y1="{MARGIN_TOP}" x2="{MARGIN_LEFT}" y2="{base:.1f}" stroke="{rule}"/>')
    # Temperature ticks: the bottom, 0, each corner of a wall, the temperature.
    ticks = sorted({t_low, Fraction(0), th.temperature} | {t for t, _ in th.left + th.right})
    for t in ticks:
        parts.append(f'<text x="{MARGIN_LEFT - 6}" y="{py(t) + 4:.1f}" text-anchor="end" {font} fill="{soft}">'
                     f't={fraction_text(t)}</text>')
        parts.append(f'<line x1="{MARGIN_LEFT}" y1="{py(t):.1f}" x2="{WIDTH - MARGIN_RIGHT}" y2="{py(t):.1f}" '
                     f'stroke="{palette.RULE_FAINT}"/>')
    for x in sorted({x for _, x in th.left + th.right}):
        parts.append(f'<text x="{px(x):.1f}" y="{base + 16:.1f}" text-anchor="middle" {font} fill="{soft}">'
                     f'{fraction_text(x)}</text>')
    parts.append(f'<text x="{MARGIN_LEFT + plot_w / 2:.0f}" y="{HEIGHT - 8}" text-anchor="middle" {font} '
                 f'fill="{soft}">value (Left ← → Right)</text>')
    # The mast, then the walls over it.
    parts.append(f'<line x1="{px(th.mean):.1f}" y1="{py(th.temperature):.1f}" x2="{px(th.mean):.1f}" '
                 f'y2="{MARGIN_TOP}" stroke="{soft}" stroke-width="2" stroke-dasharray="6 4"/>')
    parts.append(f'<text x="{px(th.mean) + 6:.1f}" y="{MARGIN_TOP + 12}" {font} fill="{ink}">mast: mean '
                 f'{fraction_text(th.mean)}, temperature {fraction_text(th.temperature)}</text>')
    for points, colour, label, anchor, shift in ((th.left, left_colour, "left wall", "end", -6),
                                                (th.right, right_colour, "right wall", "start", 6)):
        t0, x0 = points[0]
        if len(points) > 1:
            parts.append(f'<polyline points="{path(points)}" fill="none" stroke="{colour}" stroke-width="3"/>')
        else:  # the walls meet where they start (a number, or a number plus an infinitesimal)
            parts.append(f'<circle cx="{px(x0):.1f}" cy="{py(t0):.1f}" r="4" fill="{colour}"/>')
        parts.append(f'<text x="{px(x0) + shift:.1f}" y="{py(t0) - 6:.1f}" text-anchor="{anchor}" {font} '
                     f'fill="{colour}">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


# -- PNG: the same SVG, drawn by the Chromium scripts/install puts beside Graphviz --------------------
PNG_SCALE = 3  # device pixels per SVG pixel: 1,560 x 1,080 px, legible on a projector
PNG_TIMEOUT_S = 60
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def thermograph_png(svg: str, scale: int = PNG_SCALE, timeout: float = PNG_TIMEOUT_S) -> bytes:
    """The thermograph's SVG (thermograph_svg) as PNG bytes, drawn by headless Chromium (which
    scripts/install installs for the page's tests; Graphviz cannot read SVG and matplotlib is not a
    dependency), so the picture has one drawing, the SVG. A missing, failing or slow Chromium is a
    GameGraphError in one line. Cost: starting Chromium, a few seconds."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    from explorer.core.errors import GameGraphError

    exe = next((found for found in map(shutil.which, CHROMIUM_NAMES) if found), None)
    if exe is None:
        raise GameGraphError("a PNG thermograph is drawn by Chromium, which is not installed here (scripts/install "
                             "installs it; Debian: apt-get install chromium): write FILE.svg instead")
    with tempfile.TemporaryDirectory(prefix="gamegraph-thermograph-") as folder:
        page, shot = Path(folder) / "thermograph.svg", Path(folder) / "thermograph.png"
        page.write_text(svg, encoding="utf-8")
        command = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                   f"--user-data-dir={folder}/profile", f"--force-device-scale-factor={int(scale)}",
                   f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={shot}", page.as_uri()]
        try:
            done = subprocess.run(command, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise GameGraphError(f"Chromium took more than {timeout:g} s to draw the PNG thermograph; "
                                 "write FILE.svg instead") from None
        except OSError as error:
            raise GameGraphError(f"Chromium could not be started to draw the PNG thermograph: {error.strerror}") from None
        data = shot.read_bytes() if shot.exists() else b""
        if done.returncode != 0 or not data.startswith(b"\x89PNG\r\n\x1a\n"):
            last = (done.stderr.decode(errors="replace").strip().splitlines() or ["no output"])[-1][:200]
            raise GameGraphError(f"Chromium could not draw the PNG thermograph (exit {done.returncode}: {last}); "
                                 "write FILE.svg instead")
        return data
