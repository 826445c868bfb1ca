"""Tool answers as compact JSON: the text block Claude reads is ``{"ok":true,…}`` without
indentation (the SDK would pretty-print a dict, ~5× the text), and the same object is the
structured content. Errors stay the server's (a ToolError carrying the error object)."""


def compact(result: dict):
    """A ``CallToolResult`` whose text is the compact JSON of ``{"ok": true, **result}``."""
    import json

    from mcp.types import CallToolResult, TextContent
    answer = result if "ok" in result else {"ok": True, **result}
    text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"), default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=json.loads(text))


def without_content(put_result: dict) -> dict:
    """A memtool put answer without the stored text echoed back (its length instead)."""
    item = dict(put_result.get("item") or {})
    content = item.pop("content", None)
    item["content_chars"] = len(content or "")
    return {**put_result, "item": item}
