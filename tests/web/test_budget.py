"""The work budget without a server (checker/service/budget.py): the request
pipeline yields between a batch's items, the cap on expensive requests, and
both stay free of Flask (the command line and bench/ use the pipeline).
tests/web/test_clients.py shows the same under the real gunicorn."""

from __future__ import annotations

import subprocess
import sys

import pytest

from checker.service import budget, pipeline
from checker.service.problems import RequestError
from tests.helpers import START_HPN


def test_the_pipeline_and_the_budget_load_no_web_framework():
    code = (
        "import sys, checker.service.pipeline, checker.service.budget, checker.tools.cli; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'werkzeug', 'gevent'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_batch_pauses_before_each_item(monkeypatch):
    paused = []
    monkeypatch.setattr(pipeline, "pause", lambda: paused.append(len(paused)))
    # c3 +d4 legal, d4 +c3 the opening restriction (RULES §4); 7 is not an object: its problem
    items = [{"position": START_HPN, "turn": "c3 +d4"}, {"position": START_HPN, "turn": "d4 +c3"}, 7]
    results = pipeline.batch_request({"items": items})["results"]
    assert len(paused) == 3 == len(results)
    assert [r.get("legal") for r in results[:2]] == [True, False] and results[2]["status"] == 422


def test_the_cap_admits_up_to_its_limit_and_frees_the_slot_after_an_error():
    with budget.admitted(2), budget.admitted(2):
        with pytest.raises(RequestError) as refused:
            with budget.admitted(2):
                pass
    assert (refused.value.status, refused.value.slug) == (503, "busy")
    assert refused.value.headers == {"Retry-After": str(budget.RETRY_AFTER_SECONDS)}
    with pytest.raises(ZeroDivisionError):
        with budget.admitted(1):
            _ = 1 / 0
    with budget.admitted(1):  # the failed one gave its slot back
        pass
