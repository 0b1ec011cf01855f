"""Never answers legal-turns: it sleeps.  It writes its process id to the
file named by HANG_PID_FILE first, so the test can see it was stopped."""

import os
import time

from _wrap import run


def distort(request, answer):
    if request.get("op") == "legal-turns":
        with open(os.environ["HANG_PID_FILE"], "w") as f:
            f.write(str(os.getpid()))
        time.sleep(3600)
    return answer


if __name__ == "__main__":
    run(distort)
