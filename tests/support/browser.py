"""A real headless browser for the memory browser's tests and README screenshots: Debian's
``chromium`` driven by Playwright through ``executable_path`` (Playwright's own browser download
is not used). ``unavailable()`` says why the browser tests must skip (tests/run.sh installs both).
``tofu(page, selector)`` finds the Chinese characters that the page draws as boxes (no CJK font)."""

from __future__ import annotations

import os
import re
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


def launch(playwright, **env):
    """Debian's chromium, headless. Its singleton socket lives under $TMPDIR, which must stay short
    (a socket path is at most 107 bytes; pytest's per-test dirs under xdist are longer): /tmp."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=FLAGS,
                                      env={**os.environ, "TMPDIR": "/tmp", **env})


# A code point no font maps (the last private-use one of plane 16): what the browser draws for it
# is its "no glyph" box — a Chinese character drawn exactly like it is a box too.
NO_GLYPH = "\U0010fffd"
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_PROBE = """([chars, selector]) => {
  const host = document.querySelector(selector);
  chars.forEach((ch, i) => {
    const probe = document.createElement('span');
    probe.textContent = ch;
    probe.dataset.tofuProbe = String(i);
    probe.style.cssText = 'position:fixed;left:0;top:' + (i * 48) + 'px;width:48px;height:48px;line-height:48px;' +
      'overflow:hidden;z-index:99999;background:#fff;color:#000';
    host.appendChild(probe);
  });
}"""


def tofu(page, selector: str, limit: int = 6) -> dict:
    """The Chinese characters of ``selector``'s text that render as boxes: each is drawn alone in
    the element's own font (a probe inside it: a white 48-pixel square at a whole-pixel spot) and compared pixel for pixel
    with :data:`NO_GLYPH` drawn the same way. Returns ``{"checked", "boxes", "fonts"}`` — the fonts
    the browser reports for the element (Chrome DevTools Protocol ``CSS.getPlatformFontsForNode``)."""
    chars = list(dict.fromkeys(_CJK.findall(page.locator(selector).first.inner_text())))[:limit]
    if not chars:
        return {"checked": [], "boxes": [], "fonts": []}
    page.evaluate(_PROBE, [chars + [NO_GLYPH], selector])
    try:
        shots = [page.locator(f"[data-tofu-probe='{i}']").screenshot() for i in range(len(chars) + 1)]
    finally:
        page.evaluate("() => document.querySelectorAll('[data-tofu-probe]').forEach(p => p.remove())")
    return {"checked": chars, "boxes": [c for c, shot in zip(chars, shots) if shot == shots[-1]],
            "fonts": fonts_of(page, selector)}


def fonts_of(page, selector: str) -> list:
    """The families the browser drew ``selector``'s text with (CDP ``CSS.getPlatformFontsForNode``)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument")["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        return [f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
    finally:
        cdp.detach()
