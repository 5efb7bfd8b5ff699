"""The long run of the command-line fuzz harness (issue 13; the sharp run is
tests/test_cli_fuzz.py): every hostile case of every command, each in a process of its own as a
user would run it (so what FFmpeg or SQLite print on the real stderr counts too), and many more
hypothesis examples of hostile JSON for every observation and table format.

Run on demand from the repository root: ``python benchmarks/cli_fuzz.py [--every N]
[--examples N]``; ``--every 3`` runs one case in three in a process of its own (all of them
run in-process anyway). Prints how many inputs ran and every promise broken.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fuzz_helpers import (  # noqa: E402 - the checkout's own harness, found through ROOT
    cases,
    corpus,
    kept_inputs,
    run_in_process,
    run_subprocess,
    sharp_cases,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=1,
                        help="run one case in N in a process of its own (default: all)")
    parser.add_argument("--examples", type=int, default=2000,
                        help="hypothesis examples per observation or table format")
    args = parser.parse_args()
    started = time.monotonic()
    broken: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        files = corpus(Path(folder) / "corpus")
        table = cases(files, Path(folder) / "out")
        kept = kept_inputs(files, Path(folder) / "out")  # every case on the corpus as made
        counts = {"in-process": 0, "own process": 0}
        for command, arglists in table.items():
            for index, case in enumerate(arglists):
                outcomes = [run_in_process(case, kept)]
                # (a NUL cannot be in a process's arguments: such a case runs in-process only)
                if index % args.every == 0 and not any("\x00" in arg for arg in case):
                    outcomes.append(run_subprocess(case, kept=kept))
                counts["in-process"] += 1
                counts["own process"] += len(outcomes) - 1
                broken += [f"{' '.join(o.args)[:160]}: {o.problem()}"
                           for o in outcomes if o.problem()]
            print(f"{' '.join(command):18} {len(arglists):5} cases  "
                  f"({time.monotonic() - started:6.0f} s)", flush=True)
        for case, stdout in sharp_cases(files):
            outcome = run_subprocess(case, stdout, kept)
            counts["own process"] += 1
            if outcome.problem():
                broken.append(f"{' '.join(case)[:160]}: {outcome.problem()}")
    print(f"hostile command lines: {counts['in-process']} in-process, "
          f"{counts['own process']} in their own process; broken promises: {len(broken)}")
    for line in broken:
        print("  BROKEN", line)
    hypothesis = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/test_cli_fuzz.py", "-k", "answers_any_json"],
        cwd=ROOT, env={**os.environ, "CONDUCTOR_FUZZ_EXAMPLES": str(args.examples)},
        capture_output=True, text=True, check=False,
    )
    formats = 4 + 2
    print(f"hypothesis: {args.examples} examples x {formats} formats "
          f"(4 referee, 2 score): {hypothesis.stdout.strip().splitlines()[-1]}")
    print(f"total {time.monotonic() - started:.0f} s")
    return 1 if broken or hypothesis.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
