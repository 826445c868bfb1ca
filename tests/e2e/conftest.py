"""Fixtures for the end-to-end tests: the real Claude Code binary (``$CODE_MEMORY_TEST_CLAUDE_BIN``,
installed by tests/run.sh) driven by the loopback stand-in API in a private HOME.

Reusable pieces live in ``tests/support`` (``standin_api``, ``claude_runner``) so other test
modules can build their own sessions.
"""

from __future__ import annotations

import os
import sys

import pytest

from support.claude_runner import ClaudeRunner
from support.standin_api import StandinAPI


@pytest.fixture(scope="session")
def claude_bin():
    path = os.environ.get("CODE_MEMORY_TEST_CLAUDE_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.skip(os.environ.get("CODE_MEMORY_TEST_CLAUDE_SKIP_REASON")
                    or "CODE_MEMORY_TEST_CLAUDE_BIN is not set: run the suite with tests/run.sh")
    return path


@pytest.fixture
def standin():
    with StandinAPI(default_text="done") as api:
        yield api


@pytest.fixture
def project_dir(tmp_path):
    """The session's working directory: a project named "alpha"."""
    path = tmp_path / "work" / "alpha"
    path.mkdir(parents=True)
    return path


@pytest.fixture
def claude_runner(claude_bin, standin, isolated_home, project_dir):
    """A runner with the test's HOME and memory root; hooks find the test venv's python."""
    env = {"CODE_MEMORY_ROOT": os.environ["CODE_MEMORY_ROOT"], "CODE_MEMORY_PYTHON": sys.executable,
           # no warm search server left behind per test root (test_search_server_e2e.py turns it on)
           "CODE_MEMORY_SEARCH__SERVER": "0"}
    return ClaudeRunner(claude_bin, standin, home=isolated_home, cwd=project_dir, env=env)


@pytest.fixture
def search_server_env(memory_root):
    """Turn the warm search server on for one test, as users run it (sockets in a private directory),
    and stop it when the test ends so no server outlives its test root."""
    import shutil
    import tempfile

    from code_memory.search import client

    sockets = tempfile.mkdtemp(prefix="cme-", dir="/tmp")       # short: a socket path has ~100 bytes
    yield {"CODE_MEMORY_SEARCH__SERVER": "1", client.SOCKET_DIR_ENV: sockets}
    os.environ[client.SOCKET_DIR_ENV] = sockets
    try:
        ping = client.call(memory_root, "ping", {}, 5.0, start_server=False)
        if ping:
            os.kill(ping["pid"], 15)
    finally:
        del os.environ[client.SOCKET_DIR_ENV]
        shutil.rmtree(sockets, ignore_errors=True)

