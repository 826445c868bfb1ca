"""Logical keys and their physical index paths (docs/stores.md § Agent key-value memory). Pure: no I/O.

A key is a logical path such as ``/user/calendar/2026-02-23_10-00_牙科复诊``. :func:`normalize_key`
validates and canonicalises it; :func:`index_relpath` maps it to a file below ``kv/index/``:

- every segment is percent-encoded where a character is not a Unicode letter/digit or one of
  ``- _ . ~ + , =`` (UTF-8 bytes, upper-case hex), and a leading ``.`` is encoded too, so no
  physical name is hidden, ``.`` or ``..``; :func:`decode_segment` reverses it exactly;
- an encoded segment longer than ``MAX_SEGMENT_BYTES`` is cut and suffixed with ``~`` + a hash of
  the whole segment (the only non-reversible case; the index file still holds the full key);
- the leaf file is ``<segment>@<hash8>.json`` where hash8 = sha1(key)[:8]: two keys that differ only
  in letter case never share a file on a case-insensitive file system (macOS).

The result is always a relative path of safe names, so joined to the index directory it cannot
leave it (the store additionally refuses symlinked directories that point outside).
"""

from __future__ import annotations

import hashlib
import unicodedata

from ..errors import CodeMemoryError
from ..names import refusal

MAX_KEY_CHARS = 1024
MAX_SEGMENTS = 32
MAX_SEGMENT_BYTES = 120          # encoded; + "@hash8.json" stays far below the 255-byte name limit
_TRUNCATED_KEEP_BYTES = 100
_SAFE_PUNCT = set("-_.~+,=")
FILE_SUFFIX = ".json"
RESERVED_NAMESPACES = ("kb", "untrusted")      # policy namespaces: always spelled in lower case


def _bad_key(message: str, key, code: str = "KV_KEY_INVALID") -> CodeMemoryError:
    return CodeMemoryError(code, message, hint="keys look like /namespace/category/name, e.g. /user/preference/style",
                           key_length=len(key) if isinstance(key, str) else None)


def normalize_key(key) -> str:
    """The canonical form of ``key`` or ``KV_KEY_INVALID`` / ``MEMORY_PATH_TRAVERSAL``.

    Rules: a string starting with ``/``; no control or invisible character (:mod:`code_memory.names`:
    NUL, CR, LF, ESC, U+0085, U+2028, zero-width and bidi controls …); no ``..`` anywhere;
    NFC-normalised; repeated ``/`` collapsed; a trailing ``/`` dropped; at least one segment; ``.``
    segments refused; the policy namespaces ``/kb`` and ``/untrusted`` in lower case whatever the
    spelling (``/KB/x`` is ``/kb/x``); at most ``MAX_KEY_CHARS`` characters and ``MAX_SEGMENTS``
    segments.
    """
    if not isinstance(key, str):
        raise _bad_key("key must be a string", key)
    if not key.startswith("/"):
        raise _bad_key("key must start with '/'", key)
    refused = refusal(key, "key")
    if refused:
        raise _bad_key(refused, key)
    if ".." in key:
        raise _bad_key("key must not contain '..'", key, code="MEMORY_PATH_TRAVERSAL")
    key = unicodedata.normalize("NFC", key)
    segments = [s for s in key.split("/") if s]
    if not segments:
        raise _bad_key("key needs at least one segment after '/'", key)
    namespace = unicodedata.normalize("NFKC", segments[0]).casefold()
    if namespace in RESERVED_NAMESPACES:
        segments[0] = namespace          # /KB/…, /ＫＢ/… and /kb/… are one namespace
    if any(s == "." for s in segments):
        raise _bad_key("key must not contain '.' segments", key, code="MEMORY_PATH_TRAVERSAL")
    if len(segments) > MAX_SEGMENTS:
        raise _bad_key(f"key has more than {MAX_SEGMENTS} segments", key)
    canonical = "/" + "/".join(segments)
    if len(canonical) > MAX_KEY_CHARS:
        raise _bad_key(f"key is longer than {MAX_KEY_CHARS} characters", key)
    return canonical


def normalize_prefix(prefix: str | None) -> str:
    """A key prefix for listing: ``""`` for everything, else a canonical key (no trailing slash)."""
    if prefix is None or prefix.strip("/") == "":
        return ""
    return normalize_key(prefix if prefix.startswith("/") else "/" + prefix)


def _char_is_safe(ch: str) -> bool:
    return ch.isalnum() or ch in _SAFE_PUNCT


def encode_segment(segment: str) -> str:
    """Reversible percent-encoding of one key segment (without length capping)."""
    out = []
    for i, ch in enumerate(segment):
        if _char_is_safe(ch) and not (i == 0 and ch == "."):
            out.append(ch)
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
    return "".join(out)


def decode_segment(encoded: str) -> str:
    """The inverse of :func:`encode_segment`."""
    raw = bytearray()
    i = 0
    while i < len(encoded):
        ch = encoded[i]
        if ch == "%" and _is_hex(encoded[i + 1:i + 3]):
            raw.append(int(encoded[i + 1:i + 3], 16))
            i += 3
        else:
            raw.extend(ch.encode("utf-8"))
            i += 1
    return raw.decode("utf-8", errors="replace")


def _is_hex(text: str) -> bool:
    return len(text) == 2 and all(c in "0123456789abcdefABCDEF" for c in text)


def _capped(encoded: str, original: str) -> str:
    if len(encoded.encode("utf-8")) <= MAX_SEGMENT_BYTES:
        return encoded
    kept, size, i = [], 0, 0
    while i < len(encoded):                     # cut on a character / %XX boundary
        piece = encoded[i:i + 3] if encoded[i] == "%" else encoded[i]
        piece_bytes = len(piece.encode("utf-8"))
        if size + piece_bytes > _TRUNCATED_KEEP_BYTES:
            break
        kept.append(piece)
        size += piece_bytes
        i += len(piece)
    digest = hashlib.sha1(original.encode("utf-8")).hexdigest()[:10]
    return "".join(kept) + "~" + digest


def physical_segment(segment: str) -> str:
    """The directory/file name used for one segment: encoded, then length-capped."""
    return _capped(encode_segment(segment), segment)


def key_hash(key: str) -> str:
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]


def index_relpath(key: str) -> str:
    """The index file of a canonical ``key``, relative to ``kv/index/`` (POSIX separators)."""
    segments = key.strip("/").split("/")
    parts = [physical_segment(s) for s in segments[:-1]]
    parts.append(f"{physical_segment(segments[-1])}@{key_hash(key)}{FILE_SUFFIX}")
    return "/".join(parts)


def prefix_reldir(prefix: str) -> str:
    """The directory below ``kv/index/`` holding the keys under canonical ``prefix``."""
    if not prefix:
        return ""
    return "/".join(physical_segment(s) for s in prefix.strip("/").split("/"))


def key_from_relpath(relpath: str) -> str | None:
    """Best-effort logical key of an index file path (exact unless a segment was truncated)."""
    if not relpath.endswith(FILE_SUFFIX):
        return None
    parts = relpath[: -len(FILE_SUFFIX)].split("/")
    leaf, sep, _hash = parts[-1].rpartition("@")
    if not sep:
        return None
    parts[-1] = leaf
    return "/" + "/".join(decode_segment(p) for p in parts)
