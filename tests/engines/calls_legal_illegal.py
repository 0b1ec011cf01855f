"""Calls the legal vector hand-open-01 (A's first Place, "c3 +d4" from the
start) illegal (place.empty), and writes every request it gets, one JSON
line each, to the file named by ENGINE_LOG, so a test can see what it was
asked."""

import json
import os

from _wrap import START, run


def distort(request, answer):
    with open(os.environ["ENGINE_LOG"], "a") as log:
        log.write(json.dumps(request) + "\n")
    if request.get("op") == "check" and request.get("position") == START and request.get("turn") == "c3 +d4":
        answer.update(legal=False, violations=["place.empty"])
    return answer


if __name__ == "__main__":
    run(distort)
