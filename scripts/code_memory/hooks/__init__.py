"""The hook layer (docs/hooks.md): one module per hook, all behind ``runtime.main``.

``hooks/<name>.sh`` (a thin shim with shell fast paths) runs ``scripts/code-memory-hook.py <name>``
with the venv's python and ``-S``; ``runtime`` reads the payload once, normalises it into a frozen
:class:`~code_memory.hooks.event.HookEvent`, loads the configuration, calls the hook module's
``handle(event, ctx)`` and prints exactly what the contract expects — or nothing. Every internal
error is logged (metadata only) and the process exits 0: hooks fail open.

Standard library only, and light imports: these modules run on every tool call.
"""
