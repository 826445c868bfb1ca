"""Workspace memory (docs/stores.md § Workspace memory): a directory with ``memory/YYYY-MM-DD.md`` day files and an optional
``memory/MEMORY.md``, registered in config (``workspaces.paths``) and indexed with its own
``workspace_id``. Modules: registry (which workspaces exist, ids, the session's workspace), entries
(templates and format checks, pure), store (remember, compact — locked writes), report (status,
validate).
"""
