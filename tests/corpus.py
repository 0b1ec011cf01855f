"""The answers corpus: what the checker answers today, recorded once, so that a
rewrite of the rules engine can be held to every byte of it.

Each entry is one question and its answer as text:

* ``/v1/check`` for every conformance vector, and for the turns of seeded
  random games (the played turn with its history, and changed turns);
* ``/v1/legal-turns`` (as HTN and as objects), ``/v1/validate`` and
  ``/v1/perft`` (depth 1 and 2, with divide) at positions of those games;
* ``/v1/replay`` of each whole game, and of the game spoilt at a random turn;
* the ``hexodic-check`` command's text for check, legal, replay, validate and
  perft at a few of them.

``python -m tests.corpus`` writes ``tests/data/corpus.jsonl.gz`` afresh; do
that only when an answer is meant to change, and say which in the commit.
``tests/test_corpus.py`` asks every question again and compares the text.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from checker.notation import position_to_hpn, turn_to_htn
from checker.service import pipeline
from checker.service.problems import RequestError
from checker.tools import cli
from checker.tools.vectors import read_vectors
from tests.test_every_door import game, mutations

PATH = Path(__file__).with_name("data") / "corpus.jsonl.gz"
GAMES = 8

OPERATIONS = {
    "check": pipeline.check_request,
    "legal-turns": pipeline.legal_turns_request,
    "validate": pipeline.validate_request,
    "perft": pipeline.perft_request,
    "replay": pipeline.replay_request,
}


def questions() -> Iterator[dict]:
    """Every question of the corpus, in a fixed order."""
    for vector in read_vectors():
        body = {k: vector[k] for k in ("position", "turn", "history") if k in vector}
        yield {"op": "check", "body": body}
    for seed in range(GAMES):
        rng = random.Random(5000 + seed)
        steps = game(seed)
        sheet = []
        for i, (pos, history, turn) in enumerate(steps):
            hpn = position_to_hpn(pos)
            if turn is not None:
                htn = turn_to_htn(turn, pos)
                sheet.append(htn)
                past = [position_to_hpn(h) for h in history]
                yield {"op": "check", "body": {"position": hpn, "turn": htn, "history": past}}
                for changed in mutations(rng, pos, turn):
                    yield {"op": "check", "body": {"position": hpn, "turn": turn_to_htn(changed, pos)}}
            if i % 7 == 0:
                yield {"op": "legal-turns", "body": {"position": hpn}}
                yield {"op": "validate", "body": {"position": hpn}}
                yield {"op": "perft", "body": {"position": hpn, "depth": 1, "divide": True}}
            if i % 21 == 0:
                yield {"op": "perft", "body": {"position": hpn, "depth": 2, "divide": True}}
                yield {"op": "legal-turns", "body": {"position": hpn, "form": "objects"}}
                yield {"op": "cli", "argv": ["legal", hpn]}
                yield {"op": "cli", "argv": ["validate", hpn]}
                yield {"op": "cli", "argv": ["perft", hpn, "--depth", "2"]}
                if turn is not None:
                    yield {"op": "cli", "argv": ["check", hpn, turn_to_htn(turn, pos)]}
        yield {"op": "replay", "body": {"turns": sheet}}
        k = rng.randrange(len(sheet))
        yield {"op": "replay", "body": {"turns": [*sheet[:k], "d4 +d4", *sheet[k + 1 :]]}}


def answer(question: dict) -> str:
    """The answer's text: the JSON the service writes (a problem's JSON when the
    question is refused), or what the command prints and its exit status."""
    if question["op"] == "cli":
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(question["argv"])
        return json.dumps({"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()})
    try:
        return OPERATIONS[question["op"]].text(question["body"]).decode()
    except RequestError as exc:
        return pipeline.encode(exc.problem()).decode()


def load() -> list[dict]:
    """The recorded corpus: each question with its ``answer``."""
    with gzip.open(PATH, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def main() -> int:
    PATH.parent.mkdir(exist_ok=True)
    count = 0
    with gzip.GzipFile(PATH, "wb", mtime=0) as raw, io.TextIOWrapper(raw, encoding="utf-8") as f:
        for question in questions():
            f.write(json.dumps({**question, "answer": answer(question)}, ensure_ascii=False) + "\n")
            count += 1
    print(f"{PATH.name}: {count} answers", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
