#!/usr/bin/env python3
"""README screenshots of the memory browser, made by the same tooling as its browser tests: a root
populated by the real writers (tests/support/ui_data.py), the real `code-memory ui`, Debian's
chromium through Playwright.

    python bench/ui_screenshots.py [--out docs/screenshots] [--smoke]

``--smoke`` takes them of a smaller root into a temp directory and deletes them (the CI test); it
skips, saying why, where chromium is missing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))

from support import browser  # noqa: E402
from support.ui_server import UiServer, build_root, environment  # noqa: E402

SHOTS = [("search", "/search?q=连接池 pool"), ("timeline", "/timeline"), ("session", "/session/s-zh-1"),
         ("project", "/area/projects/alpha"), ("effectiveness", "/effectiveness"), ("map", "/map"),
         ("review", "/review"), ("proposal", "/review >> text=kv /user/preference/deploy")]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(REPO, "docs", "screenshots"))
    ap.add_argument("--smoke", action="store_true", help="a smaller root, screenshots into a temp dir (CI)")
    args = ap.parse_args(argv)
    reason = browser.unavailable()
    if reason:
        print(f"{'skipped' if args.smoke else 'cannot take screenshots'}: {reason}", file=sys.stderr)
        return 0 if args.smoke else 1
    from playwright.sync_api import sync_playwright

    home = tempfile.mkdtemp(prefix="ui-shots-")
    if args.smoke:
        args.out = os.path.join(home, "shots")
    build_root(home, memtool_items=20 if args.smoke else 80, extra_notes=10 if args.smoke else 40)
    os.makedirs(args.out, exist_ok=True)
    with UiServer(environment(home)) as ui, sync_playwright() as pw:
        chromium = browser.launch(pw)
        page = chromium.new_page(viewport={"width": 1280, "height": 800})
        page.goto(ui.url)
        boxes = browser.tofu(page, "nav")["boxes"]
        if boxes:
            print(f"refusing to take screenshots: {''.join(boxes)} are drawn as boxes (no Chinese font; "
                  "apt-get install fonts-wqy-microhei)", file=sys.stderr)
            return 1
        for name, path in SHOTS:
            path, _, click = path.partition(" >> ")       # a page, then a link on it to follow
            page.goto(ui.base + path)
            if click:
                page.click(click)
            page.wait_for_load_state("load")
            shoot(page, os.path.join(args.out, f"{name}.png"))
            print(os.path.join(args.out, f"{name}.png"))
        chromium.close()
    if args.smoke:
        import shutil
        shutil.rmtree(home, ignore_errors=True)
    return 0


def shoot(page, path: str, tries: int = 3) -> None:
    """A screenshot; chromium under load sometimes answers "Unable to capture screenshot" once (seen
    in a CI run on a page that had loaded), so it is tried again after a moment, then the error stands."""
    from playwright.sync_api import Error
    for attempt in range(tries):
        try:
            page.screenshot(path=path)
            return
        except Error:
            if attempt == tries - 1:
                raise
            page.wait_for_timeout(500)


if __name__ == "__main__":
    sys.exit(main())
