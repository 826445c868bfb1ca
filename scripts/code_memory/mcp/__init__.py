"""The MCP server (``server``) and its tool sets.

Each tool module (``memory_tools``, ``memtool_tools``, ``kv_tools``, ``todo_tools``) has
``tools(context) -> list`` returning plain functions: the function name is the tool name, the
docstring its description, the annotated parameters its input schema, the returned dict its result. A failure is raised as
:class:`code_memory.errors.CodeMemoryError` (or a subclass); the server turns it into an
``isError`` result whose text is the error object ``{"ok": false, "error", "message", "hint", …}``.
To add tools, add a module and name it in ``server.TOOL_MODULES``.
"""
