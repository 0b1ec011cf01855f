"""Benchmark of the pictures: drawing a verdict as SVG and as PNG, beside the
check it draws, in one run.  Run from the repository root with ``make bench``
(after bench/bench.py) or ``.venv/bin/python bench/pictures.py``.

For the start position with "d4 +c3" (illegal: the opening restriction) and
a crowded midgame with a legal Move: ``check``, ``render_svg`` (drawing the
verdict), ``svg_to_png`` at 200, 400, 800 (the default) and
1600 px, and ``GET /v1/render.png`` through the app in-process (WSGI, no
network): a first request that draws, and a conditional one answered 304.
Median and p90 of CPU time per call (time.process_time_ns: the 2-core
machines are shared, so wall time mostly measures the neighbours), after a
warm-up; sizes in bytes.
"""

from __future__ import annotations

import statistics
import time
from urllib.parse import urlencode

from checker.drawing.png import RASTERISER, svg_to_png
from checker.drawing.svg import render_svg
from checker.legality import check
from checker.notation import START_HPN, parse_hpn, parse_htn
from checker.web import create_app

# A crowded midgame (seeded random game 4 after 22 half-moves, as in bench.py):
# all 14 stones on the board; A's Move capture b2xa1 and a raise of b1 is legal.
CROWDED = (
    "0B2*0B0A/02A111A/1001B00/2A001101/0A0B01A11/0200B0B/00A01B A 0:3:6:1:11:P:- 0:2:5:0:10:PL:- 22",
    "b2xa1 +b1",
)

WIDTHS = (200, 400, 800, 1600)


def timed(fn, seconds: float = 0.6, at_least: int = 5) -> tuple[float, float]:
    """Median and p90 of CPU time per call, in ms."""
    fn()
    samples: list[int] = []
    deadline = time.monotonic() + seconds
    while len(samples) < at_least or time.monotonic() < deadline:
        t = time.process_time_ns()
        fn()
        samples.append(time.process_time_ns() - t)
    samples.sort()
    return statistics.median(samples) / 1e6, samples[int(0.9 * (len(samples) - 1))] / 1e6


def rows():
    client = create_app({"TESTING": True}).test_client()
    for name, hpn, turn_text in (
        ("start, d4 +c3 (illegal)", START_HPN, "d4 +c3"),
        ("crowded midgame, legal Move", *CROWDED),
    ):
        position, turn = parse_hpn(hpn), parse_htn(turn_text)
        yield name, "check", timed(lambda: check(position, turn)), None
        verdict = check(position, turn)
        svg = render_svg(position, verdict=verdict)
        yield name, "render_svg (draws the verdict)", timed(lambda: render_svg(position, verdict=verdict)), len(svg)
        for w in WIDTHS:
            yield name, f"svg_to_png {w} px", timed(lambda: svg_to_png(svg, w)), len(svg_to_png(svg, w))
        url = "/v1/render.png?" + urlencode({"position": hpn, "turn": turn_text})
        first = client.get(url)
        assert first.status_code == 200, first.get_data(as_text=True)
        yield name, "GET /v1/render.png (800 px)", timed(lambda: client.get(url)), len(first.data)
        etag = first.headers["ETag"]
        again = client.get(url, headers={"If-None-Match": etag})
        assert again.status_code == 304
        yield (
            name,
            "GET /v1/render.png, If-None-Match: 304",
            timed(lambda: client.get(url, headers={"If-None-Match": etag})),
            0,
        )


def section() -> str:
    """The pictures' figures as a section of the report."""
    lines = [f"Pictures ({RASTERISER}); CPU time per call, ms"]
    lines.append(f"{'position':30s} {'operation':42s} {'median':>8s} {'p90':>8s} {'bytes':>9s}")
    for name, op, (med, p90), size in rows():
        lines.append(f"{name:30s} {op:42s} {med:8.2f} {p90:8.2f} {'' if size is None else size:>9}")
    return "\n".join(lines)
