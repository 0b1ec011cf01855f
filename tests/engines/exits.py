"""Exits (status 3) on its first legal-turns request, saying why on stderr."""

import sys

from _wrap import run


def distort(request, answer):
    if request.get("op") == "legal-turns":
        sys.stderr.write("exits.py: out of patience\n")
        sys.exit(3)
    return answer


if __name__ == "__main__":
    run(distort)
