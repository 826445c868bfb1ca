"""JSON for the hook hot path without ``import json``.

``import json`` costs a hook process ~8 ms (it pulls in ``re``, ``enum`` and friends) — a third of
the PostToolUse budget. The standard library's own C accelerator ``_json`` parses and encodes just
as ``json`` does; this module calls it directly and falls back to ``json`` where ``_json`` is
missing. Same results and the same error type (``ValueError``) as ``json.loads``/``json.dumps``.
"""

from __future__ import annotations

try:
    import _json
except ImportError:  # pragma: no cover — interpreters without the C accelerator
    _json = None

_WS = " \t\n\r"


class _Context:  # what _json.make_scanner reads from a JSONDecoder
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo = None

    @staticmethod
    def parse_constant(name):
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


_scanner = _json.make_scanner(_Context()) if _json else None
_encoders = {}


def loads(text):
    """``json.loads`` for str or UTF-8 bytes."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    if _scanner is None:
        import json
        return json.loads(text)
    start = len(text) - len(text.lstrip(_WS))
    try:
        value, end = _scanner(text, start)
    except (StopIteration, SystemError):
        # bad input: let json itself raise its JSONDecodeError (the C scanner only builds that
        # error when json.decoder is already imported, and reports SystemError otherwise)
        import json
        return json.loads(text)
    if text[end:].strip(_WS):
        import json
        return json.loads(text)
    return value


def _default(obj):
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def dumps(obj, ensure_ascii: bool = False, compact: bool = False, default=None) -> str:
    """``json.dumps(obj, ensure_ascii=…)`` (separators ", " / ": ", or "," / ":" when compact)."""
    if _json is None:
        import json
        return json.dumps(obj, ensure_ascii=ensure_ascii, default=default,
                          separators=(",", ":") if compact else None)
    key = (ensure_ascii, compact, default)
    encoder = _encoders.get(key)
    if encoder is None:
        encode_str = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
        item_sep, key_sep = (",", ":") if compact else (", ", ": ")
        # markers=None: no circular-reference bookkeeping (our values are plain trees)
        encoder = _json.make_encoder(None, default or _default, encode_str, None, key_sep, item_sep,
                                     False, False, True)
        _encoders[key] = encoder
    return "".join(encoder(obj, 0))
