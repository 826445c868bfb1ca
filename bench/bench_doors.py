#!/usr/bin/env python3
"""The doors' costs and the fetch-and-run detector on text it was not written for.

    .venv-test/bin/python bench/bench_doors.py [--smoke] [--json OUT]

1. **Fetch-and-run on real text** (text/fetch_run.py). Every line of the documentation and code on
   this machine — ``/usr/share/doc``, this Python's standard library and site-packages, the npm
   packages under ``.cache`` — that names a download tool (curl, wget, iwr, Invoke-WebRequest,
   DownloadString …) is one case. Reported: how many the detector flags (each printed, for a person
   to judge), and how many of the others carry a word that runs code (``| sh``, ``| iex``,
   ``eval``, ``bash <(``, ``| python``) — the candidates for a miss, printed too. Baseline: no
   detector (every such line reaches the next session). The detector's own test cases
   (tests/adversarial/test_fetch_and_run.py) were written alongside it; these lines were not.
2. **What a command pays to know who is asking** (caller.py): ``identify()`` — session variables,
   the Claude Code ancestor (``/proc``), the terminal, the process session — and the configured
   root, median of 300 calls in this process; it runs once per CLI call.

``--smoke`` scans 200 files and times 20 calls. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import sysconfig
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))

from code_memory import caller  # noqa: E402
from code_memory.text.fetch_run import fetches_and_runs  # noqa: E402

FETCH_WORD = re.compile(r"(?i)\b(curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b")
RUN_WORD = re.compile(r"(?i)(\|\s*(sudo\s+)?(ba|z)?sh\b|\|\s*iex\b|invoke-expression|\bsource\s+<\(|\beval\b|"
                      r"\bsh\s+-c\b|bash\s+<\(|\|\s*python)")
SUFFIXES = (".md", ".rst", ".txt", ".html", ".sh", ".py", ".ps1", ".js", ".cjs")
MAX_BYTES = 2_000_000


def corpus_roots() -> list:
    roots = ["/usr/share/doc", sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
             os.path.join(REPO, ".cache")]
    return [r for r in dict.fromkeys(roots) if os.path.isdir(r)]


def scan(max_files: int | None) -> dict:
    seen, flagged, candidates = set(), [], []
    files = lines = 0
    for root in corpus_roots():
        for folder, _dirs, names in os.walk(root):
            for name in names:
                if not name.endswith(SUFFIXES) and name != "README":
                    continue
                if max_files is not None and files >= max_files:
                    break
                try:
                    with open(os.path.join(folder, name), "rb") as fh:
                        text = fh.read(MAX_BYTES).decode("utf-8", "replace")
                except OSError:
                    continue
                files += 1
                for line in text.splitlines():
                    lines += 1
                    key = line.strip()
                    if not FETCH_WORD.search(key) or key in seen:
                        continue
                    seen.add(key)
                    if fetches_and_runs(key):
                        flagged.append(key[:200])
                    elif RUN_WORD.search(key):
                        candidates.append(key[:200])
    return {"roots": corpus_roots(), "files": files, "lines": lines, "lines_naming_a_download_tool": len(seen),
            "flagged": len(flagged), "flagged_lines": flagged, "unflagged_with_a_run_word": len(candidates),
            "unflagged_with_a_run_word_lines": candidates[:50]}


def timing(calls: int) -> dict:
    def median_us(fn) -> float:
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - started) * 1e6)
        return round(statistics.median(samples), 1)

    who = caller.identify()
    return {"identify_us": median_us(caller.identify),
            "configured_roots_us": median_us(lambda: caller.configured_roots(who)), "calls": calls}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="200 files, 20 calls: a few seconds")
    parser.add_argument("--json", help="also write the result here")
    args = parser.parse_args(argv)
    result = {"fetch_and_run": scan(200 if args.smoke else None), "caller": timing(20 if args.smoke else 300),
              "load": os.getloadavg()[0]}
    text = json.dumps(result, ensure_ascii=False, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
