"""Every install path the README gives, each on a fresh environment and followed by one short real
Claude Code session whose hooks run:

* ``pip install .`` + ``code-memory init|hooks install|mcp register|links install|cron install`` (no
  checkout left behind: the hooks and the weekly job run the copies the wheel ships),
* ``uv tool install .`` + ``code-memory hooks install``,
* ``./install.sh`` on a machine with nothing installed (its own venv, found by the shims themselves;
  ``--extras none``: the hooks need none, and downloading them would cost CI a minute),
* the plugin (``claude --plugin-dir``) with nothing installed: the system ``python3`` runs the hooks.

Each session asserts on what reached the model: SessionStart injected MEMORY.md (the session-start
hook ran Python), and the first Read brought the project's rules (a PreToolUse hook did too) — a hook
command that does not resolve (exit 127) injects nothing. One wheel is built per test session, from a
copy of the files a clone has, and installed without dependencies: the hooks need none.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys

import pytest

from code_memory.hooks.registry import HOOKS
from code_memory.install import links
from conftest import REPO
from e2e.test_hooks_e2e import write
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e

MARK = "E2E-INSTALL-PITFALL"
RULE = "E2E-INSTALL-RULE"
# what a clone holds that an install reads (tests, docs and benches are not needed)
SHIPPED = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "install.sh", "scripts", "hooks", "bin",
           ".claude-plugin", ".mcp.json")
FAKE_CRONTAB = '#!/bin/sh\nf="$(dirname "$0")/crontab.txt"\nif [ "$1" = "-l" ]; then cat "$f" 2>/dev/null || exit 1; ' \
               'else cat > "$f"; fi\n'


@pytest.fixture(scope="session")
def source_copy(tmp_path_factory):
    """The checkout's shipped files in a directory of their own (builds write there, not here)."""
    dest = tmp_path_factory.mktemp("clone") / "code-memory"
    dest.mkdir()
    for name in SHIPPED:
        src = os.path.join(REPO, name)
        if os.path.isdir(src):
            shutil.copytree(src, dest / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)
    return dest


@pytest.fixture(scope="session")
def wheel(source_copy, tmp_path_factory):
    """One wheel per test session, built like ``pip install .`` builds it (offline: the test venv has
    setuptools)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(out), str(source_copy)], check=True, capture_output=True)
    return str(next(out.glob("code_memory-*.whl")))


def run(argv, env=None, **kwargs):
    proc = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})}, **kwargs)
    assert proc.returncode == 0, f"{argv}: rc={proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return proc.stdout


def our_commands(settings_path) -> list:
    with open(settings_path, encoding="utf-8") as fh:
        hooks = json.load(fh)["hooks"]
    return [h["command"] for groups in hooks.values() for g in groups for h in g["hooks"]
            if h["command"].endswith("# code-memory")]


def check_hook_commands(settings_path, shims_dir: str, python_dir: str | None):
    """Every hook command runs a shim of ``shims_dir`` that exists, pinning a Python of
    ``python_dir`` (an environment's bin/), or none."""
    commands = our_commands(settings_path)
    assert len(commands) == len(HOOKS)
    for command in commands:
        words = shlex.split(command, comments=True)
        pins = [w.split("=", 1)[1] for w in words if w.startswith("CODE_MEMORY_PYTHON=")]
        assert [os.path.dirname(p) for p in pins] == ([python_dir] if python_dir else []), command
        shim = words[-1]
        assert os.path.dirname(shim) == shims_dir and os.access(shim, os.X_OK), command


def session_with_hooks(runner, standin, memory_root, project_dir, **run_kwargs):
    """One session: a Read of a file in project alpha, then done. SessionStart must have injected
    MEMORY.md's pitfall, and the Read must have brought alpha's rules."""
    write(os.path.join(memory_root, "MEMORY.md"), f"# MEMORY\n\n## 避坑经验 (Pitfalls)\n\n- {MARK}: flush first\n")
    write(os.path.join(memory_root, "areas", "projects", "alpha", "rules.md"), f"# alpha\n\n## 规范\n\n- {RULE}\n")
    (project_dir / ".git").mkdir(exist_ok=True)
    target = write(project_dir / "calc.py", "total = 1\n")
    standin.push(main(tool("Read", file_path=target)), main({"text": "done"}))
    result = runner.run("read calc.py", **run_kwargs)
    assert result.ok, result.describe()
    first, after_read = standin.message_requests("main")[:2]
    assert any(MARK in s for s in strings_in(first["body"])), "SessionStart injected nothing"
    assert any(RULE in s and "recalled memory" in s for s in strings_in(after_read["body"])), \
        "the Read brought no rules: the PreToolUse hook did not run"


def fake_crontab(tmp_path):
    bin_dir = tmp_path / "cron-bin"
    bin_dir.mkdir()
    (bin_dir / "crontab").write_text(FAKE_CRONTAB)
    (bin_dir / "crontab").chmod(0o755)
    (bin_dir / "crontab.txt").write_text("0 1 * * * backup.sh\n")   # the user's own line stays
    return bin_dir


def test_pip_install_then_init_hooks_mcp_and_cron(wheel, claude_runner, claude_bin, standin, tmp_path,
                                                  isolated_home, memory_root, project_dir):
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv])
    run([venv / "bin" / "pip", "install", "--quiet", "--no-deps", "--no-index", "--disable-pip-version-check", wheel])
    site = run([venv / "bin" / "python", "-c", "import code_memory, os; print(os.path.dirname(code_memory.__file__))"])
    package = site.strip()
    cli = venv / "bin" / "code-memory"
    assert run([cli, "--version"]).startswith(f"code-memory 0.1.0 from {package} ")
    crontab_dir = fake_crontab(tmp_path)
    env = {"PATH": f"{crontab_dir}:/usr/bin:/bin"}   # nothing of ours on PATH: the venv is not activated
    created = json.loads(run([cli, "init"], env))["created"]    # the templates are package data
    assert "MEMORY.md" in created and os.path.join("rules", "memory-loader.md") in created
    probe = ("from code_memory.hooks.pending import summarizer_command; import sys; "
             "print(summarizer_command(None)[1:])")       # what SessionEnd starts: no checkout script
    assert run([venv / "bin" / "python", "-c", probe]).strip() == "['-m', 'code_memory.cli.summary']"
    run([cli, "hooks", "install"], env)
    check_hook_commands(claude_runner.settings_path, os.path.join(package, "_shell", "hooks"), str(venv / "bin"))
    run([cli, "mcp", "register", "--claude", claude_bin], env)
    with open(isolated_home / ".claude.json", encoding="utf-8") as fh:
        server = json.load(fh)["mcpServers"]["code-memory"]
    assert run([server["command"], *server["args"], "--version"]).startswith("code-memory-mcp 0.1.0")
    run([cli, "links", "install"], env)     # the PATH step: the venv's console scripts, linked
    linked = isolated_home / ".local" / "bin"
    assert {name: os.readlink(linked / name) for name in os.listdir(linked)} == \
        {name: str(venv / "bin" / name) for name in links.NAMES}
    run([cli, "cron", "install"], env)
    mine, line = (crontab_dir / "crontab.txt").read_text().splitlines()
    assert mine == "0 1 * * * backup.sh"
    assert line.endswith("# code-memory:weekly-consolidate") and f"{package}/_shell/scripts/" in line
    job = line.split(None, 5)[5]      # as cron runs it: sh, a bare environment
    done = subprocess.run(["/bin/sh", "-c", job], env={"HOME": str(isolated_home), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(os.path.join(memory_root, "logs", "weekly.log"), encoding="utf-8") as fh:
        report = json.loads(fh.read().strip().splitlines()[-1])
    assert report["ok"] is True and report["steps"], report

    session_with_hooks(claude_runner, standin, memory_root, project_dir, env={"CODE_MEMORY_PYTHON": ""})


def test_uv_tool_install_then_hooks(wheel, claude_runner, standin, tmp_path, isolated_home, memory_root,
                                    project_dir):
    uv = shutil.which("uv", path=os.path.dirname(sys.executable))
    if not uv:
        pytest.skip("uv is not installed in the test venv (pip install -e '.[dev]')")
    bin_dir = isolated_home / ".local" / "bin"
    env = {"UV_TOOL_DIR": str(tmp_path / "uv-tools"), "UV_TOOL_BIN_DIR": str(bin_dir),
           "UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_PYTHON_DOWNLOADS": "never"}
    run([uv, "tool", "install", "--offline", "--python", sys.executable, wheel], env)
    assert sorted(os.listdir(bin_dir)) == sorted(links.NAMES)   # uv links every console script: ours only
    cli = bin_dir / "code-memory"
    out = run([cli, "--version"], {"PATH": "/usr/bin:/bin"})
    package = out.split(" from ", 1)[1].split(" (", 1)[0]
    assert package.startswith(str(tmp_path / "uv-tools"))
    run([cli, "init"])
    run([cli, "hooks", "install"])
    check_hook_commands(claude_runner.settings_path, os.path.join(package, "_shell", "hooks"),
                        str(tmp_path / "uv-tools" / "code-memory" / "bin"))
    session_with_hooks(claude_runner, standin, memory_root, project_dir, env={"CODE_MEMORY_PYTHON": ""})


def test_install_sh_on_a_machine_with_nothing_installed(source_copy, claude_runner, standin, isolated_home,
                                                        memory_root, project_dir):
    out = run([source_copy / "install.sh", "--extras", "none"], {"PYTHON": "/usr/bin/python3", "PATH": "/usr/bin:/bin"})
    assert "[code-memory] done" in out
    venv_python = isolated_home / ".claude" / "code-memory" / "venv" / "bin" / "python"
    assert venv_python.exists()
    # the default venv: the shims find it by themselves, nothing is pinned
    check_hook_commands(claude_runner.settings_path, str(source_copy / "hooks"), None)
    linked = isolated_home / ".local" / "bin" / "code-memory"
    assert run([linked, "--version"]).startswith(f"code-memory 0.1.0 from {source_copy}/scripts/code_memory ")
    session_with_hooks(claude_runner, standin, memory_root, project_dir, env={"CODE_MEMORY_PYTHON": ""})


def test_plugin_with_nothing_installed(claude_runner, standin, memory_root, project_dir):
    """No venv, no CODE_MEMORY_PYTHON: the hooks run with the system python3, standard library only."""
    session_with_hooks(claude_runner, standin, memory_root, project_dir, plugin_dirs=[REPO],
                       env={"CODE_MEMORY_PYTHON": "", "PATH": "/usr/bin:/bin"})
