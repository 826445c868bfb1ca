"""Claude Code's sandbox as the hard boundary around the memory (docs/security.md § The sandbox):
the ``sandbox`` and ``permissions.deny`` entries ``code-memory sandbox install`` writes — surgically.

What is written (Claude Code 2.1.330's settings schema; ``//`` starts an absolute path):

* ``~/.claude/settings.json``: ``sandbox.enabled: true`` and ``sandbox.allowUnsandboxedCommands:
  false`` (a command may not ask to leave the sandbox); ``sandbox.filesystem.denyRead`` and
  ``denyWrite`` of the memory root (Bash sees none of it, writes none of it); ``permissions.deny``
  ``Read(//ROOT/**)`` and ``Edit(//ROOT/**)`` (Claude's own file tools, which the sandbox does not
  cover, refuse it too).
* each registered workspace's ``.claude/settings.local.json``: the same for the *other*
  workspaces' ``memory/`` directories (a session in one workspace reads none of the others').

The hooks and the MCP server run outside the sandbox: they serve a session its own project's
memory through the access policy (search/access.py). Bash inside the sandbox gets none of it and
is told to use the MCP tools (cli/common.py).

Ours are the entries that name the memory root or a workspace's memory directory; install removes
ours, then adds ours (running it twice writes nothing the second time); remove takes ours out and
puts ``enabled`` / ``allowUnsandboxedCommands`` back as they were before install (kept in
``~/.claude/code-memory/sandbox-state.json``). Every change backs the file up first
(:func:`code_memory.install.settings.apply`).
"""

from __future__ import annotations

import json
import os
import shutil

from ..fsutil import atomic_write_text
from .settings import apply, load_settings, settings_invalid

ENFORCED = {"enabled": True, "allowUnsandboxedCommands": False}


def _abs(path: str) -> str:
    """A sandbox path: ``//`` + the real absolute path (Claude Code resolves ``/x`` against the
    settings file's directory)."""
    return "/" + os.path.realpath(path)


def _tool_rules(path: str) -> list:
    return [f"Read({_abs(path)}/**)", f"Edit({_abs(path)}/**)"]


def _ours(entry, roots) -> bool:
    if not isinstance(entry, str):
        return False
    for root in roots:
        real = _abs(root)
        if entry in (real, real + "/**") or any(entry == f"{tool}({real}/**)" for tool in ("Read", "Edit")):
            return True
    return False


def _section(data: dict, *keys) -> dict:
    node = data
    for key in keys:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        if not isinstance(child, dict):
            raise settings_invalid("settings.json", f'"{".".join(keys)}" is not an object')
        node = child
    return node


def _list(section: dict, key: str, where: str) -> list:
    value = section.setdefault(key, [])
    if not isinstance(value, list):
        raise settings_invalid(where, f'"{key}" is not a list')
    return value


def _strip(data: dict, roots) -> dict:
    """``data`` without our entries (containers we emptied removed)."""
    out = json.loads(json.dumps(data))
    fs = ((out.get("sandbox") or {}).get("filesystem")) if isinstance(out.get("sandbox"), dict) else None
    if isinstance(fs, dict):
        for key in ("denyRead", "denyWrite"):
            if isinstance(fs.get(key), list):
                fs[key] = [e for e in fs[key] if not _ours(e, roots)]
                if not fs[key]:
                    del fs[key]
        if not fs:
            del out["sandbox"]["filesystem"]
    perms = out.get("permissions")
    if isinstance(perms, dict) and isinstance(perms.get("deny"), list):
        perms["deny"] = [e for e in perms["deny"] if not _ours(e, roots)]
        if not perms["deny"]:
            del perms["deny"]
        if not perms:
            del out["permissions"]
    return out


def _add(data: dict, where: str, read: list, write: list, tools: list) -> None:
    fs = _section(data, "sandbox", "filesystem")
    for key, entries in (("denyRead", read), ("denyWrite", write)):
        if entries:
            target = _list(fs, key, where)
            target += [e for e in entries if e not in target]
    if tools:
        deny = _list(_section(data, "permissions"), "deny", where)
        deny += [e for e in tools if e not in deny]


def user_plan(path: str, root: str, workspaces, remove: bool, previous: dict | None) -> dict:
    """The change of the user settings: ``{path, changed, settings, previous}``."""
    current = load_settings(path)
    ours = [root, *[ws.memory_dir for ws in workspaces]]
    data = _strip(current, ours)
    box = data.get("sandbox") if isinstance(data.get("sandbox"), dict) else None
    before = dict(previous or {})
    if remove:
        if box is not None:
            for key, value in ENFORCED.items():
                if box.get(key) == value:            # still ours: put back what was there
                    if before.get(key) is None:
                        box.pop(key, None)
                    else:
                        box[key] = before[key]
            if not box:
                del data["sandbox"]
    else:
        box = _section(data, "sandbox")
        if previous is None:
            before = {key: box.get(key) for key in ENFORCED}
        box.update(ENFORCED)
        _add(data, path, [_abs(root)], [_abs(root)], _tool_rules(root))
    return {"path": path, "changed": data != current, "settings": data, "previous": before}


def workspace_plans(workspaces, remove: bool) -> list:
    """Each registered workspace's ``.claude/settings.local.json``: the other workspaces' memory."""
    out = []
    for ws in workspaces:
        if not os.path.isdir(ws.root):
            continue
        path = os.path.join(ws.root, ".claude", "settings.local.json")
        others = [o.memory_dir for o in workspaces if o.id != ws.id]
        current = load_settings(path)
        data = _strip(current, others + [ws.memory_dir])
        if not remove and others:
            _add(data, path, [_abs(o) for o in others], [_abs(o) for o in others],
                 [rule for o in others for rule in _tool_rules(o)])
        out.append({"path": path, "changed": data != current, "settings": data, "workspace": ws.id})
    return out


def state_path(settings_path: str) -> str:
    return os.path.join(os.path.dirname(settings_path), "code-memory", "sandbox-state.json")


def read_state(settings_path: str) -> dict | None:
    try:
        with open(state_path(settings_path), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def change(settings_path: str, root: str, workspaces, remove: bool = False, dry_run: bool = False) -> dict:
    """Install (or remove) our entries; what changed, per file."""
    state = read_state(settings_path)
    user = user_plan(settings_path, root, workspaces, remove, (state or {}).get("previous"))
    plans = [user, *workspace_plans(workspaces, remove)]
    files = [{"path": p["path"], "changed": p["changed"], **({"workspace": p["workspace"]} if "workspace" in p else {})}
             for p in plans]
    if dry_run:
        return {"files": files, "written": False}
    for plan, summary in zip(plans, files):
        summary.update(apply(plan))
    if remove:
        try:
            os.unlink(state_path(settings_path))
        except FileNotFoundError:
            pass
    else:
        os.makedirs(os.path.dirname(state_path(settings_path)), exist_ok=True)
        atomic_write_text(state_path(settings_path), json.dumps({"root": os.path.realpath(root),
                                                                 "previous": user["previous"]}) + "\n", mode=0o600)
    return {"files": files, "written": any(f.get("written") for f in files)}


def bubblewrap() -> dict:
    """What Claude Code's sandbox needs on Linux (bubblewrap, socat) and whether it is there."""
    import sys
    if sys.platform == "darwin":
        return {"platform": "macOS", "available": True, "missing": []}
    missing = [tool for tool in ("bwrap", "socat") if shutil.which(tool) is None]
    return {"platform": sys.platform, "available": not missing, "missing": missing,
            **({"install": "sudo apt-get install bubblewrap socat (or your distribution's packages)"} if missing else {})}


def status(settings_path: str, root: str, workspaces) -> dict:
    """Whether the sandbox protects the memory root as :func:`change` would make it, and why not."""
    data = load_settings(settings_path)
    box = data.get("sandbox") if isinstance(data.get("sandbox"), dict) else {}
    fs = box.get("filesystem") if isinstance(box.get("filesystem"), dict) else {}
    deny = (data.get("permissions") or {}).get("deny") if isinstance(data.get("permissions"), dict) else None
    problems = []
    if box.get("enabled") is not True:
        problems.append("sandbox.enabled is not true")
    if box.get("allowUnsandboxedCommands") is not False:
        problems.append("sandbox.allowUnsandboxedCommands is not false: a command may ask to run outside it")
    for key in ("denyRead", "denyWrite"):
        if _abs(root) not in (fs.get(key) or []):
            problems.append(f"sandbox.filesystem.{key} does not name the memory root {os.path.realpath(root)}")
    missing_tools = [r for r in _tool_rules(root) if r not in (deny or [])]
    if missing_tools:
        problems.append(f"permissions.deny lacks {', '.join(missing_tools)}")
    stale = [p["workspace"] for p in workspace_plans(workspaces, False) if p["changed"]]
    if stale:
        problems.append(f"workspaces without the others' memory denied: {', '.join(stale)} (a workspace registered "
                        "after install?)")
    tools = bubblewrap()
    if not tools["available"]:
        problems.append(f"missing {', '.join(tools['missing'])}: Claude Code cannot start its sandbox")
    return {"settings": settings_path, "root": os.path.realpath(root), "protected": not problems,
            "problems": problems, "platform": tools, "workspaces": [ws.id for ws in workspaces]}
