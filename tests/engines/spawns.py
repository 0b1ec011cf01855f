"""The checker's engine with a child process of its own (a sleep, in the
engine's process group), both process ids written to the file named by
SPAWN_PID_FILE, so a test can see that conform leaves neither running.
SPAWN_HOW says how the run goes: "pass" (no change), "fail" (an extra
turn at the start) or "hang" (legal-turns never answered)."""

import os
import subprocess
import sys
import time

from _wrap import START, run

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
with open(os.environ["SPAWN_PID_FILE"], "w") as f:
    f.write(f"{os.getpid()} {child.pid}\n")
HOW = os.environ.get("SPAWN_HOW", "pass")


def distort(request, answer):
    if request.get("op") == "legal-turns":
        if HOW == "hang":
            with open(os.environ["SPAWN_PID_FILE"], "a") as f:
                f.write("asked\n")
            time.sleep(3600)
        if HOW == "fail" and request.get("position") == START:
            answer["turns"].append("d4 +d4")
    return answer


if __name__ == "__main__":
    run(distort)
