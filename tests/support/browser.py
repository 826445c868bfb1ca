"""A real headless browser for the memory browser's tests and README screenshots: Debian's
``chromium`` driven by Playwright through ``executable_path`` (Playwright's own browser download
is not used). ``unavailable()`` says why the browser tests must skip (tests/run.sh installs both)."""

from __future__ import annotations

import os
import shutil

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions"]


def chromium_path() -> str | None:
    explicit = os.environ.get("CODE_MEMORY_TEST_CHROMIUM")
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def unavailable() -> str | None:
    """Why no browser test can run here, or None."""
    reason = os.environ.get("CODE_MEMORY_TEST_CHROMIUM_SKIP_REASON")
    if reason:
        return reason
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if chromium_path() is None:
        return "Debian's chromium is not installed (apt-get install chromium; tests/run.sh does it when it can)"
    return None


def launch(playwright):
    return playwright.chromium.launch(executable_path=chromium_path(), args=FLAGS)
