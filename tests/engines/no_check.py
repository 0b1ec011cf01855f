"""Right, but offers no check op: the driver judges a vector's turn legal
when it is among the engine's legal-turns."""

from _wrap import run


def distort(request, answer):
    if request.get("op") == "hello":
        answer["ops"] = ["legal-turns", "play"]
    return answer


if __name__ == "__main__":
    run(distort)
