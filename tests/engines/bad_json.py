"""Answers legal-turns with a line that is not JSON."""

from _wrap import run


def distort(request, answer):
    if request.get("op") == "legal-turns":
        return "turns: a1 +a1, a1 +a2"
    return answer


if __name__ == "__main__":
    run(distort)
