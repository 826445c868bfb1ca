"""Knowledge map (docs/stores.md § memtool): a graph around a topic, grown breadth-first over related ids.

The centers are the top :data:`CENTER_LIMIT` search hits for the topic (depth 0). Each node's related
ids are followed to depth ``depth - 1`` (``depth`` = number of node layers, so 2 = centers and their
neighbours). A non-center node whose mixed score is below ``min_score`` is left out. Edges join two
nodes of the map (undirected, listed once). Clusters are the connected components, labelled by
their most common key.

Renderings: :func:`to_mermaid` (a ``graph LR`` block for Markdown viewers) and :func:`to_html` (one
self-contained file with an inline SVG — no scripts, no network — that a browser opens as is).
"""

from __future__ import annotations

import html
import math
from collections import Counter, deque

from .errors import param_error
from .store import check_number

CENTER_LIMIT = 5
MAX_NODES = 200
MAX_DEPTH = 5


def build(store, topic: str, *, depth=2, min_score=0.3, type=None) -> dict:
    if not topic or not topic.strip():
        raise param_error("Required parameter --topic is missing", "Use --topic \"center topic\"")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise param_error(f"depth must be an integer between 1 and {MAX_DEPTH}, got {depth!r}")
    min_score = check_number("min_score", min_score, 0.0, 1.0) or 0.0
    centers = store.search(topic, type=type, limit=CENTER_LIMIT, track=False)["items"]
    base = {"center_topic": topic, "depth": depth, "min_score": min_score}
    if not centers:
        return {**base, "nodes": [], "edges": [], "clusters": [], "total_nodes": 0,
                "message": "No memories found"}
    nodes, known = {}, {c["id"]: c for c in centers}
    queue = deque((c["id"], 0) for c in centers)
    while queue and len(nodes) < MAX_NODES:
        item_id, level = queue.popleft()
        if item_id in nodes or level >= depth:
            continue
        item = known.get(item_id)
        if item is None:
            continue
        if level > 0 and item["mixed_score"] < min_score:
            continue
        nodes[item_id] = _node(item, level)
        if level + 1 < depth:
            fresh = [r for r in item["related_ids"] if r not in known]
            known.update(store.get_many(fresh))
            queue.extend((r, level + 1) for r in item["related_ids"] if r not in nodes)
    edges, seen = [], set()
    for node_id in nodes:
        for other in known[node_id]["related_ids"]:
            pair = tuple(sorted((node_id, other)))
            if other in nodes and pair not in seen:
                seen.add(pair)
                edges.append({"from": node_id, "to": other, "type": "related"})
    clusters = _clusters(nodes, edges)
    return {**base, "nodes": list(nodes.values()), "edges": edges, "clusters": clusters,
            "total_nodes": len(nodes)}


def overview(store, *, limit: int = 60) -> dict:
    """The map without a topic: the ``limit`` most recently updated items and the links among them
    (the same shape as :func:`build`; every node at depth 1)."""
    items = store.list(sort_by="updated", limit=limit)
    ids = {it["id"] for it in items}
    nodes = {it["id"]: _node(it, 1) for it in items}
    edges, seen = [], set()
    for it in items:
        for other in it.get("related_ids") or []:
            pair = tuple(sorted((it["id"], other)))
            if other in ids and pair not in seen:
                seen.add(pair)
                edges.append({"from": it["id"], "to": other, "type": "related"})
    return {"center_topic": "", "depth": 1, "nodes": list(nodes.values()), "edges": edges,
            "clusters": _clusters(nodes, edges), "total_nodes": len(nodes), "total_items": store.info()["items"]}


def _node(item: dict, level: int) -> dict:
    first_line = (item["content"] or "").strip().splitlines()[0] if (item["content"] or "").strip() else ""
    return {"id": item["id"], "key": item["key"], "type": item["type"], "label": _label(item),
            "summary": first_line[:120], "confidence": item["confidence_score"],
            "consolidation": float(item["consolidation_score"] or 0.0), "mixed_score": item["mixed_score"],
            "depth": level, "is_center": level == 0}


def _label(item: dict) -> str:
    if item.get("key"):
        return f"{item['type']}:{item['key']}"
    text = " ".join((item.get("content") or "").split())
    return text[:32] + ("…" if len(text) > 32 else "")


def _clusters(nodes: dict, edges: list) -> list:
    adjacency = {n: set() for n in nodes}
    for edge in edges:
        adjacency[edge["from"]].add(edge["to"])
        adjacency[edge["to"]].add(edge["from"])
    clusters, assigned = [], set()
    for start in nodes:
        if start in assigned:
            continue
        members, stack = [], [start]
        assigned.add(start)
        while stack:
            current = stack.pop()
            members.append(current)
            for nxt in adjacency[current] - assigned:
                assigned.add(nxt)
                stack.append(nxt)
        keys = Counter(nodes[m]["key"] or nodes[m]["type"] for m in members)
        clusters.append({"label": keys.most_common(1)[0][0], "size": len(members), "node_ids": members})
    clusters.sort(key=lambda c: -c["size"])
    return clusters


def _mermaid_text(text: str) -> str:
    return text.replace('"', "'").replace("\n", " ")


def to_mermaid(graph: dict) -> str:
    lines = ["graph LR"]
    alias = {node["id"]: f"n{i}" for i, node in enumerate(graph["nodes"])}
    for node in graph["nodes"]:
        label = _mermaid_text(node["label"])
        shape = f'(["{label}"])' if node["is_center"] else f'["{label}"]'
        lines.append(f"  {alias[node['id']]}{shape}")
    for edge in graph["edges"]:
        lines.append(f"  {alias[edge['from']]} --- {alias[edge['to']]}")
    centers = [alias[n["id"]] for n in graph["nodes"] if n["is_center"]]
    if centers:
        lines.append("  classDef center fill:#ffe8a3,stroke:#b8860b")
        lines.append(f"  class {','.join(centers)} center")
    return "\n".join(lines)


def _layout(graph: dict, size: int) -> dict:
    """Concentric rings: centers in the middle ring, each deeper layer on a wider ring."""
    by_depth = {}
    for node in graph["nodes"]:
        by_depth.setdefault(node["depth"], []).append(node["id"])
    middle = size / 2
    ring = size / (2 * (max(by_depth) + 2)) if by_depth else 1
    positions = {}
    for level, ids in by_depth.items():
        radius = ring * (level + (0.6 if len(by_depth.get(0, [])) > 1 or level else 0))
        for i, node_id in enumerate(ids):
            angle = 2 * math.pi * i / len(ids) + level * 0.4
            positions[node_id] = (middle + radius * math.cos(angle), middle + radius * math.sin(angle))
    return positions


def to_html(graph: dict) -> str:
    size = 900
    pos = _layout(graph, size)
    esc = html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="100%" '
             f'style="max-width:{size}px;background:#fcfcfc;border:1px solid #ddd">']
    for edge in graph["edges"]:
        (x1, y1), (x2, y2) = pos[edge["from"]], pos[edge["to"]]
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#999"/>')
    colors = {"project": "#7aa6d8", "feature": "#8cc084", "run": "#e6a15c"}
    for node in graph["nodes"]:
        x, y = pos[node["id"]]
        radius = 10 + 14 * max(node["mixed_score"], 0.0)
        stroke = ' stroke="#b8860b" stroke-width="4"' if node["is_center"] else ' stroke="#555"'
        tip = f"{node['label']}\n{node['summary']}\nconfidence {node['confidence']:.2f} · " \
              f"consolidation {node['consolidation']:.2f} · depth {node['depth']}"
        parts.append(f'<g><title>{esc(tip)}</title><circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" '
                     f'fill="{colors.get(node["type"], "#bbb")}"{stroke}/>'
                     f'<text x="{x:.1f}" y="{y + radius + 14:.1f}" font-size="12" text-anchor="middle" '
                     f'font-family="sans-serif">{esc(node["label"])}</text></g>')
    parts.append("</svg>")
    rows = "".join(
        f"<tr><td>{esc(n['label'])}</td><td>{n['type']}</td><td>{n['depth']}</td>"
        f"<td>{n['confidence']:.2f}</td><td>{n['consolidation']:.2f}</td><td>{esc(n['summary'])}</td></tr>"
        for n in graph["nodes"])
    title = esc(f"Knowledge map: {graph['center_topic']}")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title>"
            "<style>body{font-family:sans-serif;margin:24px}td,th{padding:4px 8px;border-bottom:1px solid "
            "#eee;text-align:left;vertical-align:top}</style></head><body>"
            f"<h1>{title}</h1><p>{len(graph['nodes'])} memories, {len(graph['edges'])} links, depth "
            f"{graph['depth']}. Centers have a gold ring; circle size follows the mixed score; "
            "blue = project, green = feature, orange = run. Hover a circle for details.</p>"
            + "".join(parts) +
            "<h2>Memories</h2><table><tr><th>memory</th><th>type</th><th>depth</th><th>confidence</th>"
            f"<th>consolidation</th><th>summary</th></tr>{rows}</table></body></html>\n")
