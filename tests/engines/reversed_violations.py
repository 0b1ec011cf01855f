"""Right in every answer, but lists violations and turns backwards and
writes turns in upper case (HTN is read case-insensitively): the driver must
not care."""

from _wrap import run


def distort(request, answer):
    if request.get("op") == "check":
        answer["violations"] = list(reversed(answer["violations"]))
    if request.get("op") == "legal-turns":
        answer["turns"] = [t.upper() for t in reversed(answer["turns"])]
    return answer


if __name__ == "__main__":
    run(distort)
