"""Drawing: a position, and a verdict on a turn, as a picture.

- :mod:`checker.drawing.svg`  the board as SVG, with the verdict the caller gives drawn on it
- :mod:`checker.drawing.png`  an SVG drawing as PNG (resvg)

May import: the rules engine (:mod:`checker`'s own modules) and resvg.  Never
the request handling (:mod:`checker.service`), the tools or the web.
"""
