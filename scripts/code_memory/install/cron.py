"""The weekly job in the user's crontab (``install.sh --cron`` → ``code-memory cron install``).

One line, tagged so it can be found, replaced and removed without touching anything else:
  17 3 * * 0 CODE_MEMORY_PYTHON=<python> <repo>/scripts/weekly-consolidate.sh --root <root> >> <root>/logs/weekly.log 2>&1 # code-memory:weekly-consolidate
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess

from ..errors import CodeMemoryError, invalid

TAG = "# code-memory:weekly-consolidate"
_FIELD = r"(\*|\d+(-\d+)?(,\d+(-\d+)?)*)(/\d+)?"
_SCHEDULE = re.compile(r"^(@(weekly|daily|monthly)|" + r"\s+".join([_FIELD] * 5) + r")$")


def _crontab() -> str:
    binary = shutil.which("crontab")
    if not binary:
        raise CodeMemoryError("CRON_UNAVAILABLE", "crontab is not installed",
                              hint="install cron (apt install cron) or run `code-memory consolidate` from a "
                                   "systemd timer / launchd job once a week")
    return binary


def read_lines() -> list:
    proc = subprocess.run([_crontab(), "-l"], capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        if "no crontab" in proc.stderr.lower():
            return []
        raise CodeMemoryError("CRON_UNAVAILABLE", f"crontab -l failed: {proc.stderr.strip()[:200]}")
    return proc.stdout.splitlines()


def _write(lines: list) -> None:
    text = "\n".join(lines) + "\n" if lines else ""
    proc = subprocess.run([_crontab(), "-"], input=text, capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        raise CodeMemoryError("CRON_UNAVAILABLE", f"crontab could not be written: {proc.stderr.strip()[:200]}")


def job_line(schedule: str, script: str, root: str, python: str) -> str:
    if not _SCHEDULE.match(schedule.strip()):
        raise invalid(f"not a cron schedule: {schedule!r}", hint="five fields, e.g. '17 3 * * 0' (Sundays 03:17)")
    log = os.path.join(root, "logs", "weekly.log")
    return (f"{schedule.strip()} CODE_MEMORY_PYTHON={shlex.quote(python)} {shlex.quote(script)} "
            f"--root {shlex.quote(root)} >> {shlex.quote(log)} 2>&1 {TAG}")


def install(schedule: str, script: str, root: str, python: str) -> dict:
    """Add (or replace) the tagged line; every other line is kept as it is."""
    line = job_line(schedule, script, root, python)
    lines = read_lines()
    kept = [entry for entry in lines if TAG not in entry]
    _write(kept + [line])
    return {"installed": True, "line": line, "replaced": len(lines) - len(kept)}


def remove() -> dict:
    lines = read_lines()
    kept = [entry for entry in lines if TAG not in entry]
    if len(kept) != len(lines):
        _write(kept)
    return {"removed": len(lines) - len(kept)}


def status() -> dict:
    entries = [entry for entry in read_lines() if TAG in entry]
    return {"installed": bool(entries), "lines": entries}
