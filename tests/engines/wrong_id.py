"""Answers legal-turns under the wrong id (one more than the request's)."""

from _wrap import run


def distort(request, answer):
    if request.get("op") == "legal-turns":
        answer["id"] = request["id"] + 1
    return answer


if __name__ == "__main__":
    run(distort)
