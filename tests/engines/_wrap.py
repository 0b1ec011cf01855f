"""The loop every test engine shares: the checker's engine (checker.tools.protocol)
with a distortion applied to each request and answer.

``distort(request, answer)`` returns the answer to send (a dict), a string
to send as the raw line, or ``None`` to send nothing.
"""

from __future__ import annotations

import json
import os
import sys

# The engines run as scripts (python tests/engines/x.py): make the repository importable.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from checker.tools import protocol as engine  # noqa: E402

START = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"


def run(distort) -> None:
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)
        answer = engine.handle(request)
        if answer is None:  # quit
            return
        out = distort(request, answer)
        if out is None:
            continue
        sys.stdout.write((out if isinstance(out, str) else json.dumps(out)) + "\n")
        sys.stdout.flush()
