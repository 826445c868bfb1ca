"""Error codes and the exception every library layer raises.

Library code raises :class:`CodeMemoryError` with a stable code; only the edges (CLI, hooks,
MCP) turn it into output. Each code has one exit status, listed in the README.
"""

from __future__ import annotations

# code -> process exit status. Codes are stable: scripts and agents rely on them.
EXIT_CODES = {
    "INTERNAL_ERROR": 1,
    "INVALID_ARGUMENT": 2,
    "CONFIG_INVALID": 2,
    "KV_KEY_INVALID": 2,
    "KV_SOURCE_INVALID": 2,
    "KV_PROVENANCE_REQUIRED": 2,
    "KV_CONTENT_INVALID": 2,
    "NOT_FOUND": 3,
    "MEMORY_WORKSPACE_NOT_FOUND": 3,
    "MEMORY_FILE_NOT_FOUND": 3,
    "MEMORY_INDEX_CORRUPTED": 4,
    "MEMORY_INDEX_FAILED": 4,
    "MEMORY_SEARCH_FAILED": 4,
    "MEMORY_STATUS_FAILED": 4,
    "MEMORY_FTS_DISABLED": 5,
    "MEMORY_PATH_TRAVERSAL": 6,
    "MEMORY_SCOPE_DENIED": 6,
    "MEMORY_SANDBOXED": 6,
    "MEMORY_WRITE_FAILED": 7,
    "MEMORY_READ_FAILED": 7,
    "MEMORY_ENCODING_UNSUPPORTED": 7,
    "LINK_FAILED": 7,
    "LOCK_TIMEOUT": 8,
    "LINT_BLOCKED": 20,
    "CRON_UNAVAILABLE": 5,
    "MODEL_UNAVAILABLE": 5,
    "CONSOLIDATE_INCOMPLETE": 9,
    "SETTINGS_INVALID": 21,
    "CONFLICT": 10,
    "REVIEW_CORRUPT": 7,
    "REVIEW_TARGET_GONE": 3,
    "PORT_IN_USE": 11,
    "UI_UNAVAILABLE": 5,
}


class CodeMemoryError(Exception):
    """A failure with a stable code, a human message and an optional hint.

    ``extra`` carries additional JSON-safe fields for the error object (never memory text).
    """

    def __init__(self, code: str, message: str, hint: str | None = None, **extra):
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.extra = extra

    @property
    def exit_code(self) -> int:
        return EXIT_CODES.get(self.code, 1)

    def to_dict(self) -> dict:
        out = {"ok": False, "error": self.code, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        out.update(self.extra)
        return out


def invalid(message: str, hint: str | None = None, **extra) -> CodeMemoryError:
    return CodeMemoryError("INVALID_ARGUMENT", message, hint, **extra)
