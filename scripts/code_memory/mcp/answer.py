"""Every tool answers in one shape: a ``CallToolResult`` whose one text block is compact JSON (no
indentation: the SDK would pretty-print a dict, ~5× the text) and whose structured content is the
same object — ``{"ok": true, …}`` for a result, ``{"ok": false, "error": CODE, "message": …,
"hint": …}`` with ``isError`` for a failure, whatever raised it: the library, or the SDK rejecting
arguments that do not match the input schema (:func:`rejected_arguments`)."""


def compact(result: dict, is_error: bool = False):
    """The ``CallToolResult`` for ``result`` (``{"ok": true, …}`` unless it says ``ok`` itself)."""
    import json

    from mcp.types import CallToolResult
    answer = result if "ok" in result else {"ok": True, **result}
    text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"), default=str)
    # wire names: SDK 1.x and 2.x spell the Python attributes differently, the protocol's alike
    return CallToolResult.model_validate({"content": [{"type": "text", "text": text}],
                                          "structuredContent": json.loads(text), "isError": is_error})


def failure(error) -> object:
    """The error answer of a :class:`code_memory.errors.CodeMemoryError`."""
    return compact(error.to_dict(), is_error=True)


def rejected_arguments(validation_error) -> object:
    """The error answer for arguments the input schema refused (a pydantic ``ValidationError``):
    each offending parameter and why, without echoing the value (it is the caller's data)."""
    from ..errors import invalid
    problems, fields = [], []
    for err in validation_error.errors():
        field = ".".join(str(part) for part in err.get("loc", ())) or "arguments"
        fields.append(field)
        problems.append(f"{field}: {err.get('msg', 'invalid')}")
    return failure(invalid("; ".join(problems), hint="the tool's input schema gives each parameter's type, "
                                                     "bounds and allowed values", fields=sorted(set(fields))))


def without_content(put_result: dict) -> dict:
    """A memtool put answer without the stored text echoed back (its length instead)."""
    item = dict(put_result.get("item") or {})
    content = item.pop("content", None)
    item["content_chars"] = len(content or "")
    return {**put_result, "item": item}
