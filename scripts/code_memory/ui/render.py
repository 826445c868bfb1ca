"""HTML pieces of the memory browser: Markdown notes (markdown-it-py), highlighted snippets, SVG
plots and the knowledge-map graph. Everything from memory is escaped (memory text may hold HTML or
script — it is shown, never run). A note's Markdown links become links only to http(s), mailto or
relative addresses (``rel="nofollow noopener noreferrer"``); its images are shown as links, never
loaded. The plots' markup carries no attributes taken from memory.
"""

from __future__ import annotations

import html
import math
import re

from markdown_it import MarkdownIt
from markupsafe import Markup

from ..text.segment import bigrams, has_cjk

MAX_MARKDOWN_CHARS = 200_000          # a note longer than this is shown cut (the file view pages the rest)
LINK_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):", re.IGNORECASE)
_RENDERER = None


def safe_link(url: str) -> bool:
    """A link or image address the browser may follow: http(s), mailto, or one without a scheme
    (relative, ``#anchor``). ``javascript:``, ``data:``, ``vbscript:``, ``file:`` … are refused —
    markdown-it has decoded entities (``jav&#x61;script:``) and percent-encoded controls before this."""
    found = _SCHEME.match(url.strip())
    return found is None or found.group(1).lower() in LINK_SCHEMES


def _image_as_link(self, tokens, idx, options, env) -> str:
    """An image is never loaded (no request leaves for a tracker): its alt text, linked to it."""
    token = tokens[idx]
    label = html.escape(f"[image: {self.renderInlineAsText(token.children or [], options, env) or 'no description'}]")
    src = token.attrGet("src")
    return f'<a href="{html.escape(str(src))}" rel="nofollow noopener noreferrer">{label}</a>' if src else label


def _link_open(self, tokens, idx, options, env) -> str:
    tokens[idx].attrSet("rel", "nofollow noopener noreferrer")
    return self.renderToken(tokens, idx, options, env)


def _parser():
    """CommonMark with GFM tables and strikethrough; raw HTML off (shown as text); line breaks
    kept (notes are written line by line); links restricted to :func:`safe_link`."""
    global _RENDERER
    if _RENDERER is None:
        md = MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": False, "typographer": False})
        md.enable(["table", "strikethrough"])
        md.validateLink = safe_link
        md.add_render_rule("image", _image_as_link)
        md.add_render_rule("link_open", _link_open)
        _RENDERER = md
    return _RENDERER


def markdown(text: str) -> Markup:
    """A note as HTML through markdown-it-py: headings one level down (the page has the ``<h1>``),
    lists, tables, fenced code, quotes, emphasis; any HTML in the text is shown, never run."""
    text = text or ""
    if len(text) > MAX_MARKDOWN_CHARS:
        text = text[:MAX_MARKDOWN_CHARS] + "\n\n… (cut here: the rest is in the file view)"
    md = _parser()
    tokens = md.parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 1, 6)}"
    return Markup(md.renderer.render(tokens, md.options, {}))


def query_marks(query: str) -> list:
    """What to highlight for a query: its words; for Chinese runs also their two-character pieces."""
    terms = []
    for word in (query or "").split():
        if len(word) >= 2 or has_cjk(word):
            terms.append(word)
        if has_cjk(word) and len(word) > 2:
            terms.extend(bigrams(word))
    return sorted({t for t in terms if t.strip()}, key=len, reverse=True)[:40]


def highlight(text: str, terms: list) -> Markup:
    """``text`` escaped, each occurrence of a term (case-insensitive) wrapped in ``<mark>``."""
    text = text or ""
    low = text.lower()
    spans = []
    for term in terms:
        t = term.lower()
        start = low.find(t)
        while start >= 0 and len(spans) < 400:
            spans.append((start, start + len(t)))
            start = low.find(t, start + len(t))
    spans.sort()
    merged: list = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    out, pos = [], 0
    for s, e in merged:
        out.append(html.escape(text[pos:s]))
        out.append("<mark>" + html.escape(text[s:e]) + "</mark>")
        pos = e
    out.append(html.escape(text[pos:]))
    return Markup("".join(out))


def bar_chart(rows: list, *, width: int = 560, bar: int = 18, colors: tuple = ("#3b82f6",)) -> Markup:
    """Horizontal bars: ``rows`` = [(label, value, …more values stacked)]."""
    if not rows:
        return Markup('<p class="muted">nothing yet · 暂无</p>')
    top = max(sum(v for v in r[1:] if v) for r in rows) or 1
    label_w, gap = 190, 6
    height = len(rows) * (bar + gap) + gap
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}">']
    for i, row in enumerate(rows):
        y = gap + i * (bar + gap)
        label = str(row[0])
        parts.append(f'<text x="{label_w - 6}" y="{y + bar * 0.72:.1f}" text-anchor="end">'
                     f'{html.escape(label[:28] + ("…" if len(label) > 28 else ""))}</text>')
        x = label_w
        for j, value in enumerate(row[1:]):
            w = (width - label_w - 50) * (value or 0) / top
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colors[j % len(colors)]}">'
                         f'<title>{html.escape(label)}: {value}</title></rect>')
            x += w
        total = sum(v for v in row[1:] if v)
        parts.append(f'<text x="{x + 4:.1f}" y="{y + bar * 0.72:.1f}">{total:g}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def histogram(values: list, *, bins: int = 10, width: int = 560, height: int = 160,
              low: float = 0.0, high: float = 1.0) -> Markup:
    """Column histogram of ``values`` in [low, high]."""
    if not values:
        return Markup('<p class="muted">nothing yet · 暂无</p>')
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, max(0, int((v - low) / (high - low) * bins)))] += 1
    top = max(counts) or 1
    col = (width - 40) / bins
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {width} {height + 20}" width="{width}" height="{height + 20}">']
    for i, c in enumerate(counts):
        h = (height - 10) * c / top
        x = 20 + i * col
        lo = low + (high - low) * i / bins
        parts.append(f'<rect x="{x + 2:.1f}" y="{height - h:.1f}" width="{col - 4:.1f}" height="{h:.1f}" fill="#10b981">'
                     f'<title>{lo:.1f}–{lo + (high - low) / bins:.1f}: {c}</title></rect>')
        parts.append(f'<text x="{x + col / 2:.1f}" y="{height + 14}" text-anchor="middle">{lo:.1f}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _ring(ids: list, cx: float, cy: float, radius: float, turn: float = 0.0) -> dict:
    return {nid: (cx + radius * math.cos(2 * math.pi * i / len(ids) + turn),
                  cy + radius * math.sin(2 * math.pi * i / len(ids) + turn)) for i, nid in enumerate(ids)}


def _positions(nodes: list, size: int) -> dict:
    """A topic map: rings by depth (the centers inside). An overview (one depth): each cluster on
    its own circle, the clusters around the middle."""
    mid, reach = size / 2, size * 0.42
    by_depth: dict = {}
    for node in nodes:
        by_depth.setdefault(node.get("depth", 1), []).append(node)
    pos: dict = {}
    if len(by_depth) > 1:
        depths = sorted(by_depth)
        for rank, depth in enumerate(depths):
            ids = [n["id"] for n in sorted(by_depth[depth], key=lambda n: (n.get("cluster", 0), n["id"]))]
            alone = rank == 0 and len(ids) == 1
            radius = 0 if alone else reach * (rank + 0.4) / (len(depths) - 1 + 0.4)
            pos.update(_ring(ids, mid, mid, radius, rank * 0.5))
        return pos
    clusters: dict = {}
    for node in nodes:
        clusters.setdefault(node.get("cluster", 0), []).append(node["id"])
    groups = sorted(clusters.values(), key=len, reverse=True)
    around = 0 if len(groups) == 1 else reach * 0.55
    for i, ids in enumerate(groups):
        angle = 2 * math.pi * i / len(groups)
        cx, cy = mid + around * math.cos(angle), mid + around * math.sin(angle)
        radius = 0 if len(ids) == 1 else min(reach * (0.42 if len(groups) > 1 else 0.95), 14 + 10 * math.sqrt(len(ids)))
        pos.update(_ring(ids, cx, cy, radius))
    return pos


def graph(nodes: list, edges: list, *, size: int = 720) -> Markup:
    """The knowledge map as SVG; each node links to its item page (its text in the tooltip; names
    are written beside the nodes when there are few enough to read)."""
    if not nodes:
        return Markup('<p class="muted">no memtool items to draw · 没有可绘制的条目</p>')
    pos = _positions(nodes, size)
    labelled = len(nodes) <= 30
    parts = [f'<svg class="graph" role="img" viewBox="0 0 {size} {size}" width="{size}" height="{size}">']
    for edge in edges:
        a, b = pos.get(edge["from"]), pos.get(edge["to"])
        if a and b:
            parts.append(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"/>')
    palette = ("#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2", "#65a30d", "#dc2626")
    for node in nodes:
        x, y = pos[node["id"]]
        r = 9 if node.get("is_center") else 6
        color = palette[node.get("cluster", 0) % len(palette)]
        label = str(node.get("label") or "")
        parts.append(f'<a href="/memtool/{html.escape(node["id"])}"><g class="node">'
                     f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{color}">'
                     f'<title>{html.escape(label)}\n{html.escape(str(node.get("summary") or ""))}</title></circle>'
                     + (f'<text x="{x + r + 3:.1f}" y="{y + 4:.1f}">{html.escape(label[:24])}</text>' if labelled
                        or node.get("is_center") else "") + '</g></a>')
    parts.append("</svg>")
    return Markup("".join(parts))
