"""PNG pictures (checker.drawing.png): the requested width, the drawing's
proportions, the text drawn with a real font, and the same bytes every time
(the picture URLs' ETag promises that)."""

from __future__ import annotations

import re

import pytest

from checker.drawing.png import MAX_WIDTH, MIN_WIDTH, PNG_SIGNATURE, png_size, svg_to_png
from checker.drawing.svg import render_svg
from checker.legality import check
from checker.notation import parse_htn
from checker.position import Position


@pytest.fixture(scope="module")
def svg() -> str:
    return render_svg(Position.start(), verdict=check(Position.start(), parse_htn("d4 +c3")))


def _svg_size(svg: str) -> tuple[int, int]:
    m = re.match(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    return int(m.group(1)), int(m.group(2))


@pytest.mark.parametrize("width", [MIN_WIDTH, 400, 800, MAX_WIDTH])
def test_png_has_the_requested_width_and_the_drawings_proportions(svg, width):
    png = svg_to_png(svg, width)
    assert png[:8] == PNG_SIGNATURE
    w, h = png_size(png)
    sw, sh = _svg_size(svg)
    assert w == width
    assert abs(h - width * sh / sw) <= 1  # scaled, not cropped or padded


@pytest.mark.parametrize("width", [MIN_WIDTH - 1, MAX_WIDTH + 1, 0, -400, 400.0, True, "400"])
def test_widths_out_of_bounds_are_refused(svg, width):
    with pytest.raises(ValueError, match="width"):
        svg_to_png(svg, width)


def test_text_is_drawn_with_a_font(svg):
    """Without a usable font the <text> elements draw nothing and the picture
    equals the one with every text removed (a container without fonts)."""
    without_text = re.sub(r"<text[^>]*>.*?</text>", "", svg)
    assert without_text.count("<text") == 0 < svg.count("<text")
    assert svg_to_png(svg, 400) != svg_to_png(without_text, 400)
    # and the caption alone changes the picture: the verdict's words are in it
    other = svg.replace("Illegal \u00b7 turn d4 +c3", "Legal \u00b7 turn d4 +c3")
    assert other != svg and svg_to_png(other, 400) != svg_to_png(svg, 400)


def test_same_drawing_same_bytes(svg):
    assert svg_to_png(svg, 300) == svg_to_png(svg, 300)
