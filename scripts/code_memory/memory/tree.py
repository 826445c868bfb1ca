"""The memory tree (docs/stores.md § The memory tree) and the one owner of its shared documents:
creating a root from the templates, the area files (``areas/<kind>/<name>/``), the locked
read-modify-write every writer of a shared file uses, and every change to

  rules.md   a project's (or a group's) rules by ``## category``: read, append under a category
             (exact-line dedup; a verified rule promotes its hypothesis in place), edit a line in
             place, archive (take out) and restore a line;
  MEMORY.md  its sections — pitfalls (append with near-duplicate filtering, promote, edit, archive,
             restore) and best practices (append, retire).

No other module names ``rules.md`` or writes these two files (tests/test_architecture.py checks):
the summarizer, the review queue, the feedback loop's archive, distill and the browser's edits all
come here. Daily notes are :mod:`.daily`, session notes :mod:`.sessions`.

Every whole-file write is temp file + rename; every read-modify-write holds a lock, so two hooks or
two summarizer workers never lose each other's lines.
"""

from __future__ import annotations

import os

from ..errors import CodeMemoryError
from ..fsutil import atomic_write_text, create_new_text, ensure_dir, file_lock, read_text
from ..markdown import append_to_section, heading_above, headings, section_lines, section_range
from ..paths import AREA_KINDS, MemoryPaths, safe_name
from . import verification
from .templates import BEST_PRACTICES_HEADING, PITFALLS_HEADING, seed_rule, seed_rules, template

RULES_FILE = "rules.md"
DEFAULT_CATEGORY = "通用 (General)"
RESTORED_HEADING = "## Restored"


def init_root(paths: MemoryPaths) -> dict:
    """Create a memory root from the templates. Existing files are never overwritten.

    Returns ``{"created": [...], "existing": [...]}`` with paths relative to the root.
    """
    created, existing = [], []
    for directory in (paths.root, paths.daily, paths.sessions, paths.evolution, paths.kv,
                      paths.rules, paths.index_dir, *(os.path.join(paths.areas, k) for k in AREA_KINDS)):
        ensure_dir(directory)
    os.chmod(paths.root, 0o700)
    ensure_dir(paths.logs, 0o700)

    def place(rel: str, text: str) -> None:
        if create_new_text(os.path.join(paths.root, rel), text):
            created.append(rel)
        else:
            existing.append(rel)

    place("MEMORY.md", template("MEMORY.md"))
    for name in seed_rules():
        place(os.path.join("rules", name), seed_rule(name))
    return {"created": created, "existing": existing}


def area_files(kind: str) -> list:
    """The files an area of ``kind`` holds: summary.md, facts.json, and rules.md for projects."""
    return ["summary.md", "facts.json"] + ([RULES_FILE] if kind == "projects" else [])


def ensure_area(paths: MemoryPaths, kind: str, name: str) -> str:
    """Create ``areas/<kind>/<name>/`` with its :func:`area_files`."""
    directory = paths.area_dir(kind, name)
    ensure_dir(directory)
    label = safe_name(name)
    for fname in area_files(kind):
        target = os.path.join(directory, fname)
        if not os.path.exists(target):  # the fast path; create_new_text decides under races
            create_new_text(target, template(fname, name=label, kind=kind[:-1]))
    return directory


def lock_path_for(path: str) -> str:
    """The hidden sidecar lock of a file: ``<dir>/.<name>.lock``."""
    return os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".lock")


def update_file(path: str, transform, default_text: str = "") -> str:
    """Read-modify-write ``path`` under its lock: ``transform(old_text) -> new_text``."""
    with file_lock(lock_path_for(path)):
        old = read_text(path)
        new = transform(old if old is not None else default_text)
        if new != old:
            atomic_write_text(path, new)
        return new


# ---------------------------------------------------------------------------------------------
# rules.md

def rules_path(paths: MemoryPaths, project: str) -> str:
    """``areas/projects/<project>/rules.md`` (a group's rules live under its name alike)."""
    return os.path.join(paths.project_dir(project), RULES_FILE)


def read_rules(paths: MemoryPaths, project: str) -> str:
    """The project's rules.md ("" when it has none)."""
    return read_text(rules_path(paths, project), "") or ""


def all_rules(paths: MemoryPaths) -> list:
    """``[(project, text)]`` of every project's rules.md, by project name."""
    import glob  # here: glob loads re, which the hooks' hot path must not pay for

    out = []
    for path in sorted(glob.glob(os.path.join(paths.areas, "projects", "*", RULES_FILE))):
        out.append((os.path.basename(os.path.dirname(path)), read_text(path, "") or ""))
    return out


def rules_owner(paths: MemoryPaths, file_path: str) -> str | None:
    """The project (or group) name when ``file_path`` is ``<root>/areas/projects/<name>/rules.md``."""
    if os.path.basename(file_path) != RULES_FILE:
        return None
    parent = os.path.dirname(os.path.realpath(file_path))
    projects_dir = os.path.realpath(os.path.join(paths.areas, "projects"))
    if os.path.dirname(parent) != projects_dir:
        return None
    return os.path.basename(parent)


def _promote(lines: list, text: str, ver: dict, new_line: str, added: list) -> bool:
    """True when ``text`` is already a line of ``lines``; a hypothesis line is replaced by
    ``new_line`` (in place) when ``ver`` verifies it — later evidence promotes a hypothesis."""
    for i, line in enumerate(lines):
        if not line.startswith(("- ", "* ")):
            continue
        old_text, old_state, _ = verification.parse(line)
        if old_text != text:
            continue
        if ver.get("state") == "verified" and old_state != "verified":
            lines[i] = new_line
            added.append(new_line)
        return True
    return False


def _update(path: str, transform, dry_run: bool, preview: dict | None) -> None:
    """Apply ``transform`` under the file's lock — or, with ``dry_run``, only show it: ``preview``
    receives the text ``before`` and ``after``."""
    if not dry_run:
        update_file(path, transform)
        return
    before = read_text(path) or ""
    after = transform(before)
    if preview is not None:
        preview.update(before=before, after=after)


def append_rules(paths: MemoryPaths, project: str, rules: list, dry_run: bool = False,
                 preview: dict | None = None) -> list:
    """Append ``- rule`` lines under ``## <category>`` in the project's rules.md. ``rules``:
    ``[{"text", "category", "verification"}]``, each text and category one clean line. A rule
    already present anywhere in the file is skipped — or, when it was a hypothesis and this one is
    verified, its line is replaced (promoted). Returns the lines added or promoted."""
    if not rules or not project:
        return []
    if not dry_run:
        ensure_area(paths, "projects", project)
    added: list = []

    def transform(text: str) -> str:
        lines = text.rstrip("\n").split("\n") if text else []
        present = {line.strip() for line in lines}
        for item in rules:
            rule_text = item["text"]
            ver = item.get("verification") or {}
            rule_line = "- " + verification.mark(rule_text, ver.get("state"), ver.get("evidence") or ())
            if not rule_text or _promote(lines, rule_text, ver, rule_line, added):
                continue
            if rule_line.strip() in present:
                continue
            heading = "## " + ((item.get("category") or "").replace("#", "") or DEFAULT_CATEGORY)
            if heading in lines:
                start = lines.index(heading) + 1
                end = next((i for i, _level, _text in headings(lines, start)), len(lines))
                while end > start and lines[end - 1].strip() == "":
                    end -= 1
                lines.insert(end, rule_line)
            else:
                while lines and lines[-1].strip() == "":
                    lines.pop()
                lines += ["", heading, rule_line]
            present.add(rule_line.strip())
            added.append(rule_line)
        return "\n".join(lines) + "\n"

    _update(rules_path(paths, project), transform, dry_run, preview)
    return added


# ---------------------------------------------------------------------------------------------
# MEMORY.md

def read_memory(paths: MemoryPaths) -> str:
    """MEMORY.md's text ("" when there is none)."""
    return read_text(paths.memory_md, "") or ""


def memory_section(paths: MemoryPaths, heading: str) -> list:
    """The lines of one MEMORY.md section (PITFALLS_HEADING, BEST_PRACTICES_HEADING)."""
    return section_lines(read_memory(paths), heading)


def append_pitfalls(paths: MemoryPaths, pitfalls: list, is_new, dry_run: bool = False,
                    preview: dict | None = None) -> list:
    """Append pitfalls to MEMORY.md's pitfalls section. ``pitfalls``: ``[{"text", "verification"}]``,
    each text one clean line; ``is_new(existing_texts, candidate_texts)`` returns the candidates
    that are no near-duplicate of a line already there (or of each other). A pitfall already there
    as a hypothesis is promoted in place when this one is verified. Returns the lines added."""
    if not pitfalls:
        return []
    added: list = []

    def transform(text: str) -> str:
        if not text:
            text = template("MEMORY.md")
        existing = [ln for ln in section_lines(text, PITFALLS_HEADING) if ln.strip().startswith(("-", "*"))]
        lines = text.split("\n")
        marked = {}
        for item in pitfalls:
            line = item.get("text") or ""
            if line:
                ver = item.get("verification") or {}
                marked.setdefault(line, verification.mark(line, ver.get("state"), ver.get("evidence") or ()))
        bare = [verification.parse(ln)[0] for ln in existing]
        promoted = []
        for line in list(marked):
            ver = verification.parse(marked[line])
            if line in bare and _promote(lines, line, {"state": ver[1]}, "- " + marked[line], promoted):
                del marked[line]
        text = "\n".join(lines) if promoted else text
        added.extend(promoted)
        bullets = ["- " + marked[line] for line in is_new(bare, list(marked))]
        added.extend(bullets)
        return append_to_section(text, PITFALLS_HEADING, bullets)

    _update(paths.memory_md, transform, dry_run, preview)
    return added


def append_best_practices(paths: MemoryPaths, lines: list) -> None:
    """Append list lines to MEMORY.md's best-practices section."""
    update_file(paths.memory_md, lambda text: append_to_section(text, BEST_PRACTICES_HEADING, lines))


def retire_best_practices(paths: MemoryPaths, lines) -> None:
    """Take these lines out of MEMORY.md's best-practices section (elsewhere they stay)."""
    gone = set(lines)

    def transform(old: str) -> str:
        rows = old.split("\n")
        start, end = section_range(rows, BEST_PRACTICES_HEADING)
        return "\n".join(rows[:start] + [ln for ln in rows[start:end] if ln not in gone] + rows[end:])

    update_file(paths.memory_md, transform)


# ---------------------------------------------------------------------------------------------
# one experience line (a rule of a rules.md, a pitfall of MEMORY.md): find, edit, archive, restore

def _line_file(paths: MemoryPaths, kind: str, project: str | None):
    """(path, finder) of the lines of ``kind``: ``finder(text) -> [(index, line, experience_id)]``."""
    from .experience import pitfall_lines, rule_lines
    if kind == "pitfall":
        return paths.memory_md, pitfall_lines
    return rules_path(paths, project), (lambda text: rule_lines(project, text))


def _find(text: str, experience_id: str, finder):
    for index, line, eid in finder(text):
        if eid == experience_id:
            return index, line
    return None


def find_line(paths: MemoryPaths, kind: str, project: str | None, experience_id: str):
    """``(path, line, section heading or "")`` of the experience's line now, or None."""
    path, finder = _line_file(paths, kind, project)
    text = read_text(path, "") or ""
    found = _find(text, experience_id, finder)
    if found is None:
        return None
    return path, found[1], heading_above(text.split("\n"), found[0])


def list_prefix(line: str) -> str:
    """The list marker a line starts with (``- ``, ``* ``, ``1. ``, with its indent); ``- `` else."""
    stripped = line.lstrip()
    indent = line[:len(line) - len(stripped)]
    for marker in ("- ", "* ", "+ "):
        if stripped.startswith(marker):
            return indent + marker
    digits = len(stripped) - len(stripped.lstrip("0123456789"))
    if digits and stripped[digits:digits + 2] in (". ", ") "):
        return indent + stripped[:digits + 2]
    return indent + "- "


def replace_line(paths: MemoryPaths, kind: str, project: str | None, experience_id: str,
                 expected: str | None, new_text: str) -> dict:
    """Replace the experience's line where it stands with ``new_text`` (its list marker kept).
    ``expected``: the line as the caller last saw it. Returns ``{"path", "old", "new"}``; raises
    NOT_FOUND (no file) or CONFLICT (the line changed or is gone)."""
    path, finder = _line_file(paths, kind, project)
    if not os.path.isfile(path):
        raise CodeMemoryError("NOT_FOUND", f"{os.path.relpath(path, paths.root)} does not exist")
    done: dict = {}

    def transform(current: str) -> str:
        found = _find(current, experience_id, finder)
        if found is not None and (expected is None or found[1].strip() == expected.strip()):
            lines = current.split("\n")
            new_line = list_prefix(found[1]) + new_text
            done.update(old=found[1], new=new_line)
            lines[found[0]] = new_line
            return "\n".join(lines)
        raise CodeMemoryError("CONFLICT", f"{experience_id} changed or was removed since the page was loaded",
                              hint="reload the page and edit the current text")

    update_file(path, transform)
    return {"path": path, **done}


def remove_line(paths: MemoryPaths, kind: str, project: str | None, experience_id: str) -> bool:
    """Take the experience's line out of its file; False when it is no longer there."""
    path, finder = _line_file(paths, kind, project)
    removed = {}

    def transform(text):
        found = _find(text, experience_id, finder)
        if not found:
            return text
        lines = text.split("\n")
        del lines[found[0]]
        removed["ok"] = True
        return "\n".join(lines)

    update_file(path, transform)
    return bool(removed)


def restore_line(paths: MemoryPaths, kind: str, path: str, section: str, line: str) -> None:
    """Put an archived line back into ``path`` under ``section`` (for none: the pitfalls section,
    or ``## Restored`` of a rules.md); nothing when the line is there already."""
    heading = section or (PITFALLS_HEADING if kind == "pitfall" else RESTORED_HEADING)

    def transform(text):
        if line in text.split("\n"):
            return text
        return append_to_section(text, heading, [line])

    update_file(path, transform)
