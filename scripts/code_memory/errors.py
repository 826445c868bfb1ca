"""Error codes and the exception every library layer raises.

Library code raises :class:`CodeMemoryError` with a stable code; only the edges (CLI, hooks,
MCP) turn it into output. Each code has one exit status and one meaning (docs/cli.md § Exit codes
is generated from these two tables).
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
    "TODO_AMBIGUOUS": 2,
    "REVIEW_CORRUPT": 7,
    "REVIEW_TARGET_GONE": 3,
    "PORT_IN_USE": 11,
    "UI_UNAVAILABLE": 5,
}

# code -> what it means, for the exit-code table of docs/cli.md (a test wants one for every code)
MEANINGS = {
    "INTERNAL_ERROR": "an unexpected failure (`CODE_MEMORY_DEBUG=1` prints a traceback on stderr)",
    "INVALID_ARGUMENT": "a missing or malformed argument",
    "CONFIG_INVALID": "a configuration file or value that cannot be used",
    "KV_KEY_INVALID": "a kv key that is not a valid path (`/scope/…`)",
    "KV_SOURCE_INVALID": "a kv source other than the allowed ones",
    "KV_PROVENANCE_REQUIRED": "a kv write from a tool without its provenance",
    "KV_CONTENT_INVALID": "kv content that is not valid (too large, not an object, a secret)",
    "NOT_FOUND": "the thing named does not exist",
    "MEMORY_WORKSPACE_NOT_FOUND": "no registered workspace here",
    "MEMORY_FILE_NOT_FOUND": "the memory file does not exist",
    "MEMORY_INDEX_CORRUPTED": "the search index cannot be read; `code-memory index --full` rebuilds it",
    "MEMORY_INDEX_FAILED": "indexing failed",
    "MEMORY_SEARCH_FAILED": "the search failed",
    "MEMORY_STATUS_FAILED": "the status could not be read",
    "MEMORY_FTS_DISABLED": "this SQLite has no FTS5",
    "MEMORY_PATH_TRAVERSAL": "a path outside the memory root and the registered workspaces",
    "MEMORY_SCOPE_DENIED": "refused for a Claude Code session or a detached process (widening, another "
                           "root, the review queue), or not confirmed with the code on the terminal",
    "MEMORY_SANDBOXED": "inside Claude Code's sandbox (`code-memory sandbox install`) this shell cannot see the "
                        "memory root: use the MCP tools",
    "MEMORY_WRITE_FAILED": "a memory file could not be written (nothing was lost)",
    "MEMORY_READ_FAILED": "a memory file could not be read",
    "MEMORY_ENCODING_UNSUPPORTED": "the file to update is not UTF-8; it was left untouched",
    "LINK_FAILED": "the bin directory for the command links cannot be used",
    "LOCK_TIMEOUT": "another process held a lock too long; retry",
    "LINT_BLOCKED": "a lint command found blocking problems",
    "CRON_UNAVAILABLE": "crontab is missing or failed",
    "MODEL_UNAVAILABLE": "the embedding model cannot be loaded or fetched; search goes on with BM25",
    "CONSOLIDATE_INCOMPLETE": "a weekly-consolidate step failed; the others ran, the report was written",
    "SETTINGS_INVALID": "Claude Code's settings.json is malformed; it was left unchanged",
    "CONFLICT": "a proposal was changed or decided elsewhere since you read it, or a to-do already is "
                "closed (open); reload it",
    "TODO_AMBIGUOUS": "the words name several to-dos; name one by its id (`code-memory todo list`)",
    "REVIEW_CORRUPT": "a proposal file cannot be read",
    "REVIEW_TARGET_GONE": "the project a proposal belongs to was removed; it stays pending",
    "PORT_IN_USE": "`code-memory ui --port N`: that port is taken; leave `--port` out for a free one",
    "UI_UNAVAILABLE": "the `ui` extra is not installed",
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
