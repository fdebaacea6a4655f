"""The page's PNG downloads at the resolution chosen (issue 37): render.dot.png_image draws at any resolution
the CLI's --dpi takes, the page offering PNG_RESOLUTIONS; a picture too large at the one chosen is drawn at the
highest that fits (the page's button has no line to refuse in), where the CLI refuses in one line."""

from __future__ import annotations

import shutil
import struct

import pytest

from explorer.core.errors import InvalidParameter
from explorer.render import dot

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot is not installed")

SOURCE = 'digraph g { a [label="a position"]; b [label="another"]; a -> b [label="X a3"] }'


def size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height in pixels, from its IHDR chunk."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def test_the_resolution_chosen_scales_the_picture():
    at = {dpi: size(dot.png_image(SOURCE, dpi=dpi)) for dpi in dot.PNG_RESOLUTIONS}
    assert dot.DEFAULT_DPI in dot.PNG_RESOLUTIONS and size(dot.png_image(SOURCE)) == at[dot.DEFAULT_DPI]
    low, high = min(dot.PNG_RESOLUTIONS), max(dot.PNG_RESOLUTIONS)
    for i in (0, 1):
        assert at[high][i] / at[low][i] == pytest.approx(high / low, rel=0.05)


def test_a_bad_resolution_is_one_line():
    with pytest.raises(InvalidParameter) as refused:
        dot.png_image(SOURCE, dpi=10**9)
    assert "\n" not in str(refused.value) and "--dpi" in str(refused.value)


def test_too_many_pixels_draws_the_highest_resolution_that_fits_where_the_cli_refuses(monkeypatch, tmp_path):
    width, height = size(dot.png_image(SOURCE, dpi=300))
    monkeypatch.setattr(dot, "MAX_PIXELS", width * height // 4)
    fitted = size(dot.png_image(SOURCE, dpi=300))
    assert fitted[0] * fitted[1] <= dot.MAX_PIXELS and fitted[0] >= width // 2 * 0.95
    with pytest.raises(InvalidParameter):
        dot.render(SOURCE, tmp_path / "x.png", dpi=300)
    assert not (tmp_path / "x.png").exists()
