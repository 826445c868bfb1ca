"""Capability generation (docs/evolution.md, Capabilities): recurring patterns become Claude Code Skills.

Four gates, all required:
  1. enabled    ``capabilities.enabled`` (env ``CAPABILITY_GENERATION``) is not false
  2. cooldown   ≥ ``cooldown_hours`` (24) since the last generation
  3. patterns   ≥ ``min_patterns`` (2) unaddressed, actionable patterns seen in ≥ ``min_pattern_count``
                (2) sessions of the signal window
  4. stability  the last ``success_window`` (5) sessions with an outcome succeeded ≥ ``min_success_rate``
                (60 %); fewer than 5 such sessions keep the gate closed

Then, per candidate pattern (most frequent first, at most ``max_per_run``): a Skill drafted by the
LLM backend (or a deterministic playbook when there is none or its answer does not validate) is
written to ``<skills_dir>/<name>/SKILL.md``, recorded in ``evolution/capabilities.jsonl``, indexed in
``rules/auto-capabilities.md`` of the memory root, and its pattern is marked ``addressed``.
A Skill directory code-memory did not write (or a SKILL.md changed since it wrote it) is never
overwritten: the name gets a ``-2`` … ``-9`` suffix instead.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field, replace

from ..config import DEFAULTS, section_values
from ..errors import CodeMemoryError
from ..fsutil import append_events, atomic_write_json, atomic_write_text, iter_jsonl, read_text
from ..memory.templates import seed_rule, template
from ..memory.tree import update_file
from ..paths import expand
from ..redact import redact
from ..review import queue as review_queue
from ..timeutil import now_iso, parse_ts
from .playbooks import TYPE_LABEL, TYPE_SHORT, playbook
from .signals import set_state

NAME_MAX = 64
DESCRIPTION_MAX = 1024
FORBIDDEN_IN_NAME = ("claude", "anthropic")
INDEX_BEGIN = "<!-- code-memory:auto-capabilities:begin -->"
INDEX_END = "<!-- code-memory:auto-capabilities:end -->"
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


_D = DEFAULTS["capabilities"]


@dataclass(frozen=True)
class Settings:
    """The ``capabilities`` config section as values (defaults: config.DEFAULTS)."""

    enabled: bool = _D["enabled"]
    cooldown_hours: float = _D["cooldown_hours"]
    min_patterns: int = _D["min_patterns"]
    min_pattern_count: int = _D["min_pattern_count"]
    success_window: int = _D["success_window"]
    min_success_rate: float = _D["min_success_rate"]
    max_per_run: int = _D["max_per_run"]
    skills_dir: str = _D["skills_dir"]
    use_llm: bool = _D["use_llm"]

    @classmethod
    def from_config(cls, section: dict | None) -> "Settings":
        out = cls(**section_values("capabilities", section, cls.__dataclass_fields__))
        if out.success_window < 1 or out.min_patterns < 1 or out.min_pattern_count < 1 or out.max_per_run < 1:
            raise CodeMemoryError("CONFIG_INVALID", "capabilities: counts must be >= 1")
        if not 0 <= out.min_success_rate <= 1:
            raise CodeMemoryError("CONFIG_INVALID", "capabilities.min_success_rate must be between 0 and 1")
        return out

    @property
    def skills_path(self) -> str:
        return expand(self.skills_dir)


# ---------------------------------------------------------------------------------------------
# names and front matter

def name_problem(name) -> str | None:
    """Why ``name`` is not a valid Skill name (Agent Skills spec), or None."""
    if not isinstance(name, str) or not name:
        return "empty"
    if len(name) > NAME_MAX:
        return f"longer than {NAME_MAX} characters"
    if not _NAME.match(name):
        return "not lowercase letters, digits and single hyphens"
    if any(word in name for word in FORBIDDEN_IN_NAME):
        return "contains a reserved word (claude, anthropic)"
    return None


def sanitize_name(text: str, max_len: int = NAME_MAX) -> str:
    name = re.sub(r"[^a-z0-9]+", "-", str(text).lower())
    for word in FORBIDDEN_IN_NAME:
        name = name.replace(word, "")
    name = re.sub(r"-{2,}", "-", name).strip("-")
    return name[:max_len].rstrip("-")


def skill_name_for(pattern: str) -> str:
    sig_type, _, subject = pattern.partition(":")
    return sanitize_name(f"auto-{TYPE_SHORT.get(sig_type, sig_type)}-{subject}")


def yaml_string(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML) on one line."""
    return json.dumps(" ".join(str(text).split()), ensure_ascii=False)


def front_matter(text: str) -> dict:
    """The top-level ``key: value`` pairs of a SKILL.md front matter (values JSON-decoded when quoted)."""
    if not text.startswith("---\n"):
        return {}
    end = text.find("\n---", 4)
    out = {}
    for line in text[4:end if end > 0 else len(text)].split("\n"):
        m = re.match(r"^([A-Za-z][\w-]*):\s*(.*)$", line)
        if m:
            value = m.group(2).strip()
            if value.startswith('"'):
                try:
                    value = json.loads(value)
                except ValueError:
                    pass
            out[m.group(1)] = value
    return out


# ---------------------------------------------------------------------------------------------
# drafting a skill

@dataclass
class Draft:
    name: str
    title: str
    description: str
    triggers: list
    steps: list
    backend: str = "template"
    fallback_reason: str | None = None
    extra: dict = field(default_factory=dict)


def _describe(title: str, triggers: list, candidate: dict, window: int) -> str:
    words = ", ".join(dict.fromkeys(t for t in triggers if t))
    text = (f"Use when you see {words}. {title}: a recurring {TYPE_LABEL.get(candidate['type'], 'problem')} "
            f"in this user's sessions ({candidate['count']} of the last {window}); gives the concrete steps that "
            f"fixed it and how to avoid it.")
    return text[:DESCRIPTION_MAX]


def _example_triggers(candidate: dict) -> list:
    """Distinctive tokens of the examples: error codes and class names (EADDRINUSE, JSONDecodeError)."""
    found = []
    for text in candidate.get("examples", []):
        for token in re.findall(r"\b(?:E[A-Z]{3,}|[A-Z][A-Za-z]+(?:Error|Exception))\b", text):
            if token not in found:
                found.append(token)
    return found[:4]


def template_draft(candidate: dict, window: int) -> Draft:
    title, triggers, steps = playbook(candidate["pattern"])
    triggers = list(dict.fromkeys(list(triggers) + _example_triggers(candidate)))
    return Draft(skill_name_for(candidate["pattern"]), title, _describe(title, triggers, candidate, window),
                 triggers, list(steps))


LLM_SYSTEM = ("You write Claude Code Skills (SKILL.md files) that help an AI coding agent handle a developer's "
              "recurring problems. Reply with one JSON object only, no prose, no code fences.")


def llm_prompt(candidate: dict, window: int, draft: Draft) -> str:
    examples = "\n".join(f"- {e}" for e in candidate.get("examples", [])) or "- (none recorded)"
    steps = "\n".join(f"{i}. {s}" for i, s in enumerate(draft.steps, 1))
    projects = f"; projects: {', '.join(candidate['projects'])}" if candidate.get("projects") else ""
    return redact(
        f"A problem keeps recurring in a developer's Claude Code sessions.\n"
        f"Pattern: {candidate['pattern']} (a {TYPE_LABEL.get(candidate['type'], 'problem')}), seen in "
        f"{candidate['count']} of the last {window} sessions{projects}.\n"
        f"Lines from the session summaries:\n{examples}\n\n"
        f"A first draft of the skill (improve it: make it specific to these examples, concrete commands):\n"
        f"name: {draft.name}\ntitle: {draft.title}\ntriggers: {', '.join(draft.triggers)}\nsteps:\n{steps}\n\n"
        'Return JSON: {"name": "lowercase letters, digits and hyphens, at most 60 characters, without the words '
        'claude or anthropic", "title": "a short title", "description": "at most 600 characters, starting with '
        '\'Use when\' and naming the concrete trigger words: error messages, commands, Chinese and English '
        'phrases", "triggers": ["3 to 10 trigger words or phrases"], "steps": ["3 to 8 concrete imperative '
        'steps, with the commands to run"]}')


def _strings(value, low: int, high: int, max_chars: int) -> list | None:
    if not isinstance(value, list) or not low <= len(value) <= high:
        return None
    out = [" ".join(str(v).split()) for v in value if isinstance(v, str) and v.strip()]
    if len(out) != len(value) or any(len(v) > max_chars for v in out):
        return None
    return out


def parse_llm_draft(text: str, base: Draft) -> Draft:
    """Validate the LLM's JSON answer into a Draft; raises ValueError saying what was wrong."""
    body = text.strip()
    fence = re.match(r"^```(?:json)?\s*(.*?)\s*```$", body, re.S)
    if fence:
        body = fence.group(1)
    try:
        data = json.loads(body)
    except ValueError:
        raise ValueError("answer is not JSON") from None
    if not isinstance(data, dict):
        raise ValueError("answer is not a JSON object")
    steps = _strings(data.get("steps"), 2, 12, 400)
    if steps is None:
        raise ValueError("steps must be 2-12 strings of at most 400 characters")
    triggers = _strings(data.get("triggers"), 1, 12, 80) or base.triggers
    name = sanitize_name(str(data.get("name") or ""), NAME_MAX - 8)
    if not name.startswith("auto-"):
        name = sanitize_name("auto-" + name, NAME_MAX - 3)
    if name_problem(name) or name == "auto":
        name = base.name
    title = " ".join(str(data.get("title") or base.title).split())[:80]
    description = " ".join(str(data.get("description") or "").split())
    if len(description) < 20:
        raise ValueError("description missing or too short")
    if not any(t.lower() in description.lower() for t in triggers):
        description = f"{description} Triggers: {', '.join(triggers)}."
    return Draft(name, title, description[:DESCRIPTION_MAX], triggers, steps)


def llm_draft(candidate: dict, window: int, backend, base: Draft) -> Draft:
    result = backend.complete(llm_prompt(candidate, window, base), system=LLM_SYSTEM, max_tokens=1200)
    draft = parse_llm_draft(result.text, base)
    draft.backend = result.backend
    draft.extra = {"model": result.model}
    return draft


def render_skill(draft: Draft, candidate: dict, window: int, generated_at: str) -> str:
    occurrences = [f"- {e}" for e in candidate.get("examples", [])]
    if candidate.get("projects"):
        occurrences.append(f"- projects: {', '.join(candidate['projects'])}")
    occurrences.append(f"- sessions: {', '.join(candidate.get('sessions', []))}")
    query = " ".join(draft.triggers[:2]).replace('"', "'")
    intro = (f"This problem came up in {candidate['count']} of your last {window} Claude Code sessions. "
             f"Follow these steps when it shows up, and search memory first (`memory-search.py "
             f"\"{query}\"`) for what fixed it before.")
    values = {"name": draft.name, "description": yaml_string(draft.description), "pattern": candidate["pattern"],
              "generated_at": generated_at, "title": draft.title, "intro": intro,
              "steps": "\n".join(f"{i}. {s}" for i, s in enumerate(draft.steps, 1)),
              "occurrences": "\n".join(occurrences), "count": str(candidate["count"]), "window": str(window)}
    # one pass, so text inside a value (an example with "{name}") is never substituted again
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template("SKILL.md"))


# ---------------------------------------------------------------------------------------------
# gates

def generations(paths) -> list:
    return [r for r in iter_jsonl(paths.capabilities_log) if r.get("event_type") == "generation"]


def last_generation_ts(paths) -> float | None:
    """The later of generator_state.json and the last generation in capabilities.jsonl (either
    file alone is enough, so deleting the state file does not reset the cooldown)."""
    stamps = [parse_ts(r.get("timestamp")) for r in generations(paths)]
    try:
        state = json.loads(read_text(paths.generator_state) or "{}")
    except ValueError:
        state = {}
    if isinstance(state, dict):
        stamps.append(parse_ts(state.get("last_generation_at")))
    stamps = [s for s in stamps if s is not None]
    return max(stamps) if stamps else None


def candidates(analysis: dict, settings: Settings) -> list:
    """Unaddressed, actionable patterns seen in at least ``min_pattern_count`` window sessions,
    most frequent first."""
    found = [p for p in analysis["patterns"] if p["state"] == "active" and p["actionable"]
             and p["count"] >= settings.min_pattern_count]
    return sorted(found, key=lambda p: (-p["count"], -p["streak"], p["pattern"]))


def evaluate_gates(paths, settings: Settings, analysis: dict, outcomes: list, now: float | None = None) -> dict:
    now = time.time() if now is None else now
    last = last_generation_ts(paths)
    hours = None if last is None else round((now - last) / 3600.0, 2)
    cands = candidates(analysis, settings)
    recent = outcomes[-settings.success_window:]
    rate = round(sum(1 for o in recent if o["outcome"] == "success") / len(recent), 4) if recent else None
    gates = [
        {"gate": "enabled", "passed": bool(settings.enabled), "value": bool(settings.enabled),
         "required": "CAPABILITY_GENERATION (capabilities.enabled) is not false"},
        {"gate": "cooldown", "passed": hours is None or hours >= settings.cooldown_hours,
         "value": hours, "last_generation_at": None if last is None else now_iso(last),
         "required": f">= {settings.cooldown_hours:g} h since the last generation"},
        {"gate": "patterns", "passed": len(cands) >= settings.min_patterns, "value": len(cands),
         "patterns": [p["pattern"] for p in cands],
         "required": f">= {settings.min_patterns} unaddressed patterns seen in >= {settings.min_pattern_count} "
                     f"of the last {analysis.get('window_size', 8)} sessions"},
        {"gate": "stability", "passed": len(recent) >= settings.success_window and rate is not None
         and rate >= settings.min_success_rate, "value": rate, "sessions": len(recent),
         "required": f">= {settings.min_success_rate:.0%} success over the last {settings.success_window} sessions"},
    ]
    return {"open": all(g["passed"] for g in gates), "gates": gates, "candidates": cands}


# ---------------------------------------------------------------------------------------------
# writing skills

def _sha(path: str) -> str | None:
    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return None


def _owned(paths) -> dict:
    """SKILL.md path -> the digest code-memory last wrote there."""
    return {r["path"]: r.get("digest") for r in generations(paths) if r.get("path")}


def choose_target(skills_dir: str, name: str, owned: dict) -> tuple:
    """``(name, SKILL.md path, replaces_own_file)``: the name itself when free or holding our own
    unmodified file, else the first free ``name-2`` … ``name-9``. Raises if none is free."""
    for i in range(1, 10):
        suffix = "" if i == 1 else f"-{i}"
        candidate = name[:NAME_MAX - len(suffix)].rstrip("-") + suffix
        directory = os.path.join(skills_dir, candidate)
        path = os.path.join(directory, "SKILL.md")
        if not os.path.lexists(directory):
            return candidate, path, False
        if os.path.isfile(path) and owned.get(path) and _sha(path) == owned[path]:
            return candidate, path, True
    raise CodeMemoryError("MEMORY_WRITE_FAILED", f"skill names {name} … {name}-9 are all taken by your own skills")


def _draft_for(candidate: dict, window: int, settings: Settings, backend) -> Draft:
    base = template_draft(candidate, window)
    if not settings.use_llm:
        return replace(base, fallback_reason="capabilities.use_llm is false")
    if backend is None or getattr(backend, "name", "none") == "none":
        return replace(base, fallback_reason="no LLM backend")
    try:
        return llm_draft(candidate, window, backend, base)
    except ValueError as exc:
        return replace(base, fallback_reason=f"LLM answer rejected: {exc}")
    except Exception as exc:  # LLMError (timeout, http, budget, …): the template is the fallback
        return replace(base, fallback_reason=f"LLM failed: {getattr(exc, 'kind', type(exc).__name__)}")


def run(paths, settings: Settings, analysis: dict, outcomes: list, backend=None, dry_run: bool = False,
        now: float | None = None, queue_skills: bool = False) -> dict:
    """Check the gates and, when they are all open, generate Skills for the top candidates."""
    now = time.time() if now is None else now
    status = evaluate_gates(paths, settings, analysis, outcomes, now)
    result = {"open": status["open"], "dry_run": dry_run, "gates": status["gates"], "generated": [], "skipped": []}
    if not status["open"]:
        return result
    window = analysis.get("window_size", 8)
    stamp = now_iso(now)
    owned = _owned(paths)
    skills_dir = settings.skills_path
    for cand in status["candidates"][:settings.max_per_run]:
        draft = _draft_for(cand, window, settings, backend)
        try:
            name, path, replaces = choose_target(skills_dir, draft.name, owned)
        except CodeMemoryError as exc:
            result["skipped"].append({"pattern": cand["pattern"], "reason": exc.message})
            continue
        draft.name = name
        text = render_skill(draft, cand, window, stamp)
        item = {"name": name, "path": path, "pattern": cand["pattern"], "pattern_count": cand["count"],
                "backend": draft.backend, "replaces_own_file": replaces, "description": draft.description}
        if draft.fallback_reason:
            item["fallback_reason"] = draft.fallback_reason
        if dry_run:
            result["generated"].append({**item, "content": text})
            continue
        record = {"name": name, "trigger": cand["type"], "pattern": cand["pattern"], "pattern_count": cand["count"],
                  "backend": draft.backend, "triggers": draft.triggers, "description": draft.description,
                  **({"fallback_reason": draft.fallback_reason} if draft.fallback_reason else {}), **draft.extra}
        if queue_skills:
            prop = review_queue.propose(paths.root, "skill", text, title=name, target=os.path.relpath(path, skills_dir),
                                        payload=record, source="capability-generator",
                                        verification={"state": "hypothesis"})
            result.setdefault("queued", []).append({**item, "proposal": prop["id"] if prop else None,
                                                    "already_reviewed": prop is None})
            continue
        item = commit_skill(paths, settings, text, record, now=now, owned=owned)
        result["generated"].append(item)
    if result["generated"] and not dry_run:
        result["index"] = record_generation(paths, [g["name"] for g in result["generated"]], stamp)
    return result


def record_generation(paths, names: list, stamp: str) -> str:
    """After Skills were written: the generator's state (cooldown) and the index of Skills."""
    atomic_write_json(paths.generator_state, {"last_generation_at": stamp, "generated": names})
    return rebuild_index(paths)


def commit_skill(paths, settings: Settings, text: str, record: dict, now: float | None = None,
                 owned: dict | None = None) -> dict:
    """Write a Skill's SKILL.md (the name taken again if it became busy), record the generation
    and mark its pattern addressed. Used by the generator in ``auto`` mode and by review approval."""
    now = time.time() if now is None else now
    stamp = now_iso(now)
    owned = _owned(paths) if owned is None else owned
    name, path, replaces = choose_target(settings.skills_path, record.get("name") or "skill", owned)
    if name != record.get("name"):
        text = text.replace(f"name: {record.get('name')}\n", f"name: {name}\n", 1)
    atomic_write_text(path, text)
    owned[path] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    fields = {k: v for k, v in record.items() if k not in ("name", "trigger")}
    append_events(paths.capabilities_log, [{
        "timestamp": stamp, "event_type": "generation", "capability_name": name, "type": "Skill",
        "trigger": record.get("trigger"), **fields, "path": path, "digest": owned[path]}])
    if record.get("pattern"):
        set_state(paths, record["pattern"], "addressed", reason=f"skill {name} generated",
                  by="capability-generator", now=now, capability=name)
    item = {"name": name, "path": path, "pattern": record.get("pattern"), "pattern_count": record.get("pattern_count"),
            "backend": record.get("backend"), "replaces_own_file": replaces, "description": record.get("description")}
    if record.get("fallback_reason"):
        item["fallback_reason"] = record["fallback_reason"]
    return item


# ---------------------------------------------------------------------------------------------
# the index (rules/auto-capabilities.md) and status

def skills(paths) -> list:
    """Every Skill code-memory generated (latest record per name) and whether it is still there
    and unmodified."""
    latest: dict = {}
    for rec in generations(paths):
        latest[rec.get("capability_name")] = rec
    out = []
    for name, rec in sorted(latest.items(), key=lambda kv: kv[1].get("timestamp", "")):
        digest = _sha(rec.get("path", ""))
        out.append({"name": name, "path": rec.get("path"), "pattern": rec.get("pattern"),
                    "generated_at": rec.get("timestamp"), "backend": rec.get("backend"),
                    "triggers": rec.get("triggers", []), "description": rec.get("description", ""),
                    "exists": digest is not None, "modified": digest is not None and digest != rec.get("digest")})
    return out


def index_block(entries: list) -> str:
    lines = [INDEX_BEGIN]
    for s in entries:
        triggers = ", ".join(s["triggers"][:8])
        lines.append(f"- **{s['name']}** — triggers: {triggers}. `{s['path']}` "
                     f"(pattern `{s['pattern']}`, {str(s['generated_at'])[:10]})")
    if not entries:
        lines.append("(no generated skills yet)")
    lines.append(INDEX_END)
    return "\n".join(lines)


def rebuild_index(paths) -> str:
    """Rewrite the generated block of ``rules/auto-capabilities.md`` (the rest of the file is kept)."""
    target = os.path.join(paths.rules, "auto-capabilities.md")
    block = index_block([s for s in skills(paths) if s["exists"]])
    default = seed_rule("auto-capabilities.md")

    def transform(text):
        start, end = text.find(INDEX_BEGIN), text.find(INDEX_END)
        if start >= 0 and end > start:
            return text[:start] + block + text[end + len(INDEX_END):]
        return text.rstrip("\n") + "\n\n" + block + "\n"

    update_file(target, transform, default_text=default)
    return target


# ---------------------------------------------------------------------------------------------
# with a loaded configuration (the CLI and weekly-consolidate)

def _inputs(cfg, persist: bool = True) -> tuple:
    from . import signals
    from .feedback import session_outcomes

    outcomes = session_outcomes(cfg.paths)
    analysis = signals.analyze(cfg.paths, signals.Settings.from_config(cfg.get("signals")),
                               outcomes=outcomes, persist=persist)
    return Settings.from_config(cfg.get("capabilities")), analysis, outcomes


def _backend(cfg, settings: Settings):
    if not settings.use_llm:
        return None
    from ..llm import LLMError, get_backend

    try:
        return get_backend(cfg, purpose="capability")
    except LLMError:
        return None


def generate_configured(cfg, dry_run: bool = False, use_llm: bool | None = None) -> dict:
    """Check the gates and generate, with settings, signals, outcomes and the LLM backend taken
    from a loaded Config. A dry run records nothing (not even new signal extractions)."""
    settings, analysis, outcomes = _inputs(cfg, persist=not dry_run)
    if use_llm is False:
        settings = replace(settings, use_llm=False)
    return run(cfg.paths, settings, analysis, outcomes, backend=_backend(cfg, settings), dry_run=dry_run,
               queue_skills="skill" in review_queue.queued_kinds(cfg.get("review")))


def status_configured(cfg, with_analysis: bool = False) -> dict:
    """Each gate with its current value, the candidates and the generated skills; changes nothing.
    ``with_analysis``: also the signal analysis the gates were computed from (``analysis``)."""
    settings, analysis, outcomes = _inputs(cfg, persist=False)
    gates = evaluate_gates(cfg.paths, settings, analysis, outcomes)
    out = {"open": gates["open"], "gates": gates["gates"],
           "candidates": [{k: p[k] for k in ("pattern", "count", "level", "streak", "examples")}
                          for p in gates["candidates"]],
           "skills_dir": settings.skills_path, "skills": skills(cfg.paths)}
    if with_analysis:
        out["analysis"] = analysis
    return out
