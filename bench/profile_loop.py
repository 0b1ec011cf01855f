"""A loop of one benchmarked operation, to profile (run from the repository root):

    .venv/bin/python -m cProfile -s cumtime bench/profile_loop.py OP [POSITION] [RUNS]

OP is one of the in-process operations of bench/bench.py (check_legal,
check_illegal, request_hpn, request_json, enumerate), or wsgi_check /
wsgi_healthz: POST /v1/check with the position's legal turn (HPN) / GET
/healthz through the Flask app's test client, no network.  POSITION is one of
the names in POSITIONS of bench/bench.py (default crowded); RUNS the number of
calls (default 2000).  The set-up (imports, positions) is in the profile too:
it is the same for every OP and shrinks relative to the loop as RUNS grows.
"""

import json
import sys

from bench.run import POSITIONS, operations


def wsgi_ops(name: str) -> dict:
    from checker.web import create_app

    client = create_app({"TESTING": True}).test_client()
    _, hpn, legal_htn, _ = next(p for p in POSITIONS if p[0] == name)
    body = json.dumps({"position": hpn, "turn": legal_htn})
    assert client.post("/v1/check", data=body, content_type="application/json").status_code == 200
    return {
        "wsgi_check": lambda: client.post("/v1/check", data=body, content_type="application/json"),
        "wsgi_healthz": lambda: client.get("/healthz"),
    }


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    op = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "crowded"
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    if op.startswith("wsgi_"):
        fn = wsgi_ops(name)[op]
    else:
        fn = next(item for item in operations() if item["name"] == name)["ops"][op]
    for _ in range(runs):
        fn()
