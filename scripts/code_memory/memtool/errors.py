"""memtool's error codes: its own contract (docs/stores.md § memtool, exit codes), separate from code-memory's.

| exit | code            | when                                                    |
|------|-----------------|---------------------------------------------------------|
| 1    | GENERAL_ERROR   | an unexpected failure                                   |
| 2    | PARAM_ERROR     | a missing or malformed argument (do not retry)          |
| 3    | NOT_FOUND       | get/put --id/delete of an id that does not exist        |
| 4    | DB_ERROR        | lock timeout, corrupt file, disk full (retry after 1-2 s)|
| 5    | FTS_UNAVAILABLE | SQLite has no FTS5; search falls back to LIKE (warning) |

:class:`MemtoolError` subclasses :class:`code_memory.errors.CodeMemoryError` so the shared edges can
print it, but maps codes to exit statuses through :data:`EXIT_CODES` here.
"""

from __future__ import annotations

import sqlite3

from ..errors import CodeMemoryError

EXIT_CODES = {
    "GENERAL_ERROR": 1,
    "PARAM_ERROR": 2,
    "NOT_FOUND": 3,
    "DB_ERROR": 4,
    "FTS_UNAVAILABLE": 5,
}

MEANINGS = {
    "GENERAL_ERROR": "an unexpected failure (`MEMTOOL_DEBUG=1` prints a traceback on stderr)",
    "PARAM_ERROR": "a missing or malformed argument (do not retry)",
    "NOT_FOUND": "get/put --id/delete of an id that does not exist",
    "DB_ERROR": "lock timeout, corrupt file, disk full (retry after 1-2 s)",
    "FTS_UNAVAILABLE": "SQLite has no FTS5; search falls back to LIKE (a warning)",
}

BUSY_TIMEOUT_MS = 5000
LOCKED_HINT = "Another process may be writing. Retry after a short delay."


class MemtoolError(CodeMemoryError):
    @property
    def exit_code(self) -> int:
        return EXIT_CODES.get(self.code, 1)


def param_error(message: str, hint: str | None = None, **extra) -> MemtoolError:
    return MemtoolError("PARAM_ERROR", message, hint, **extra)


def not_found(item_id: str) -> MemtoolError:
    return MemtoolError("NOT_FOUND", f"No memory item found with id: {item_id}",
                        "Check the id, or use search to find the item", id=item_id)


def db_error(exc: sqlite3.Error, db_path: str | None = None) -> MemtoolError:
    """Translate a sqlite3 error into DB_ERROR with a hint an agent can act on."""
    text = str(exc)
    lowered = text.lower()
    extra = {"db": db_path} if db_path else {}
    if "locked" in lowered or "busy" in lowered:
        return MemtoolError("DB_ERROR", f"Database is locked (timeout after {BUSY_TIMEOUT_MS}ms)",
                            LOCKED_HINT, **extra)
    if "readonly" in lowered or "read-only" in lowered:
        hint = "The database file or its directory is read-only; check permissions."
    elif "disk is full" in lowered:
        hint = "The disk is full; free space and retry."
    elif "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        hint = (f"The file is damaged; salvage what SQLite can read into a new file: memtool recover --db "
                f"{db_path or 'FILE'} --output {(db_path or 'FILE') + '.recovered'}")
    elif "unable to open" in lowered:
        hint = "Check that the directory of --db exists and is writable."
    elif "no such module: fts5" in lowered:
        hint = "This SQLite build lacks FTS5 but the database was created with it; use a Python with FTS5."
    else:
        hint = "Retry after a short delay; if it persists, check the database file."
    return MemtoolError("DB_ERROR", f"Database error: {text}", hint, **extra)
