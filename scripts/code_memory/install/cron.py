"""The weekly job in the user's crontab (``install.sh --cron`` → ``code-memory cron install``).

One line, tagged so it can be found, replaced and removed without touching anything else:
  17 3 * * 0 CODE_MEMORY_PYTHON=<python> CODE_MEMORY_ENV_FILE=<env file> <repo>/scripts/weekly-consolidate.sh --root <root> >> <root>/logs/weekly.log 2>&1 # code-memory:weekly-consolidate

cron runs the job with a bare environment — no API key, a PATH without ``claude`` — so the install
records how the job reaches the LLM (:func:`llm_access`): the configured backend as ``auto`` would
choose it now, in an env file readable only by the user (``~/.claude/code-memory/weekly.env``,
mode 0600, never in the memory root): the API key variable (and ``ANTHROPIC_BASE_URL``) for the
``anthropic`` backend, or the absolute path of ``claude`` (and its directory on PATH) for
``claude -p``. ``weekly-consolidate.sh`` sources it. Without an LLM the install says so, and the
job's LLM steps report ``degraded``.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess

from ..config import setting
from ..errors import CodeMemoryError, invalid
from ..fsutil import atomic_write_text

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


def job_line(schedule: str, script: str, root: str, python: str, env_file: str | None = None) -> str:
    if not _SCHEDULE.match(schedule.strip()):
        raise invalid(f"not a cron schedule: {schedule!r}", hint="five fields, e.g. '17 3 * * 0' (Sundays 03:17)")
    log = os.path.join(root, "logs", "weekly.log")
    env = f"CODE_MEMORY_ENV_FILE={shlex.quote(env_file)} " if env_file else ""
    return (f"{schedule.strip()} CODE_MEMORY_PYTHON={shlex.quote(python)} {env}{shlex.quote(script)} "
            f"--root {shlex.quote(root)} >> {shlex.quote(log)} 2>&1 {TAG}")


def llm_access(section: dict, env) -> dict:
    """How the weekly job will reach the LLM: ``{"backend", "via", "variables": {name: value}}`` —
    ``auto`` resolved the way :func:`code_memory.llm.choose_backend_name` does right now."""
    from ..llm import ClaudeCliBackend, choose_backend_name

    name = choose_backend_name(section, env)
    if name == "anthropic":
        key = setting(section, "llm.api_key_env")
        variables = {"CODE_MEMORY_LLM__BACKEND": "anthropic", key: env[key]}
        if env.get("ANTHROPIC_BASE_URL"):
            variables["ANTHROPIC_BASE_URL"] = env["ANTHROPIC_BASE_URL"]
        return {"backend": name, "via": f"the anthropic SDK, with {key} from the env file", "variables": variables}
    if name == "claude-cli":
        binary = os.path.abspath(ClaudeCliBackend(section, None, env).binary())
        return {"backend": name, "via": f"claude -p at {binary}",
                "variables": {"CODE_MEMORY_LLM__BACKEND": "claude-cli", "CODE_MEMORY_LLM__CLAUDE_BIN": binary,
                              "PATH": f"{os.path.dirname(binary)}:/usr/local/bin:/usr/bin:/bin"}}
    return {"backend": "none", "via": "no LLM", "variables": {"CODE_MEMORY_LLM__BACKEND": "none"},
            "warning": "no LLM reachable now: the weekly job will run without one (no fact extraction, "
                       "deterministic summaries and Skills; its LLM steps report degraded). Set "
                       f"{setting(section, 'llm.api_key_env')} or put claude on PATH, then run "
                       "`code-memory cron install` again"}


def write_env_file(path: str, variables: dict) -> None:
    """``export NAME='value'`` lines, mode 0600 (the file may hold an API key)."""
    lines = ["# code-memory weekly job: how it reaches the LLM (written by `code-memory cron install`)"]
    lines += [f"export {name}={shlex.quote(str(value))}" for name, value in variables.items()]
    atomic_write_text(path, "\n".join(lines) + "\n", mode=0o600)


def install(schedule: str, script: str, root: str, python: str, env_file: str | None = None,
            llm: dict | None = None) -> dict:
    """Add (or replace) the tagged line; every other line is kept as it is. With ``llm``
    (:func:`llm_access`) its variables go to ``env_file`` first and the line names that file."""
    if llm is not None and env_file:
        write_env_file(env_file, llm["variables"])
    line = job_line(schedule, script, root, python, env_file if llm is not None else None)
    lines = read_lines()
    kept = [entry for entry in lines if TAG not in entry]
    _write(kept + [line])
    out = {"installed": True, "line": line, "replaced": len(lines) - len(kept)}
    if llm is not None:
        out["llm"] = {"backend": llm["backend"], "via": llm["via"], "env_file": env_file}
        if llm.get("warning"):
            out["warning"] = llm["warning"]
    return out


def remove(env_file: str | None = None) -> dict:
    lines = read_lines()
    kept = [entry for entry in lines if TAG not in entry]
    if len(kept) != len(lines):
        _write(kept)
    out = {"removed": len(lines) - len(kept)}
    if env_file and os.path.isfile(env_file):
        os.unlink(env_file)
        out["env_file_removed"] = env_file
    return out


def status(env_file: str | None = None) -> dict:
    entries = [entry for entry in read_lines() if TAG in entry]
    out = {"installed": bool(entries), "lines": entries}
    if env_file and os.path.isfile(env_file):
        llm = {"env_file": env_file, "variables": []}        # names only, never the values
        with open(env_file, encoding="utf-8") as fh:
            for line in fh:
                name, sep, value = line[len("export "):].partition("=") if line.startswith("export ") else ("", "", "")
                if sep:
                    llm["variables"].append(name)
                    if name == "CODE_MEMORY_LLM__BACKEND":
                        llm["backend"] = (shlex.split(value) or [""])[0]
        out["llm"] = llm
    return out
