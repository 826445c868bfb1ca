"""Every configuration key in one place: its default, its type, what it does, its allowed values.

:data:`SCHEMA` is the only list. ``config.DEFAULTS`` is built from it, ``config.load_config``
validates each layer against it, and ``config.example.json`` and the reference table of
docs/configuration.md are generated from it (``python -m code_memory.config_reference``; a test
fails when either checked-in file is stale). Standard library only, no imports: the hooks load it
on their hot path.

A :class:`Key` is a leaf (``"search.top_k"``); a :class:`Group` documents the object holding keys
(``"search"``). A key whose default is an empty ``{}`` or ``[]`` takes its value whole.
"""

from __future__ import annotations

from .paths import DEFAULT_ROOT

_KINDS = {bool: "boolean", int: "integer", float: "number", str: "string", list: "list", dict: "object"}


class Key:
    """One setting. ``kind``: its type when the default is None (else the default's type);
    ``choices``: the values it may take; ``items``: the values a list may hold; ``low``/``high``:
    inclusive bounds of a number; ``project``: a project's own .claude/code-memory.json may set it
    (never a path, a model, a command or an endpoint)."""

    __slots__ = ("name", "default", "doc", "kind", "choices", "items", "low", "high", "project")

    def __init__(self, name, default, doc, *, kind=None, choices=None, items=None, low=None, high=None,
                 project=False):
        self.name, self.default, self.doc = name, default, doc
        self.kind = kind or type(default)
        self.choices, self.items, self.low, self.high, self.project = choices, items, low, high, project

    @property
    def type_name(self) -> str:
        return _KINDS.get(self.kind, self.kind.__name__)

    def problem(self, value) -> str | None:
        """What is wrong with ``value`` beyond its type (a choice or a bound), else None."""
        if value is None:
            return None
        if self.choices and str(value).strip().lower() not in {c.lower() for c in self.choices}:
            return f"should be one of {', '.join(self.choices)}, got {value!r}"
        if self.items and isinstance(value, list):
            bad = [v for v in value if v not in self.items]
            if bad:
                return f"may hold only {', '.join(self.items)}; unknown {', '.join(map(str, bad))}"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if self.low is not None and value < self.low:
                return f"should be at least {self.low}, got {value}"
            if self.high is not None and value > self.high:
                return f"should be at most {self.high}, got {value}"
        return None


class Group:
    """An object of the configuration (``"search"``, ``"review.mode"``) and what it is for."""

    __slots__ = ("name", "doc")

    def __init__(self, name, doc):
        self.name, self.doc = name, doc


SCHEMA = (
    Key("memory_root", DEFAULT_ROOT,
        "Where the memory tree lives. Also settable with $CODE_MEMORY_ROOT or --root."),
    Key("projects", {},
        "Map of path prefix -> project name. Without a match the git top-level directory name is used "
        "(worktrees share it), else the directory name."),
    Key("project_groups", {},
        "Map of group name -> list of project names. Members also get areas/projects/<group>/rules.md "
        "injected with their own rules."),
    Group("search",
          "Search defaults (memory-search.py)."),
    Key("search.default_mode", "auto",
        "auto | bm25 | vector | hybrid. auto = hybrid when an embedding model can be loaded, else bm25.",
        choices=("auto", "bm25", "vector", "hybrid"), project=True),
    Key("search.top_k", 6,
        "Number of hits returned.",
        low=1, project=True),
    Key("search.rrf_k", 60,
        "The k of reciprocal rank fusion, score = sum 1/(k + rank).",
        low=0),
    Key("search.snippet_chars", 700,
        "Maximum snippet length per hit (characters).",
        low=1, project=True),
    Key("search.candidates", 50,
        "How many hits each ranked list contributes to fusion.",
        low=1),
    Key("search.heading_weight", 3.0,
        "BM25 weight of the heading column relative to the body (whose weight is 1.0).",
        low=0),
    Key("search.title_weight", 1.0,
        "BM25 weight of the document title (its H1) relative to the body.",
        low=0),
    Key("search.fusion", "convex",
        "convex (default: min-max normalised BM25 and cosine, mixed by fusion_alpha, over both candidate "
        "lists) or rrf (reciprocal rank fusion).",
        choices=("convex", "rrf")),
    Key("search.fusion_alpha", 0.5,
        "Weight of BM25 in convex fusion (1 - alpha goes to the vector cosine).",
        low=0, high=1),
    Key("search.vector_weight", 0.5,
        "Weight of the vector list in rrf fusion (the BM25 list has weight 1).",
        low=0),
    Key("search.server", True,
        "Answer searches (memory-search.py, the recall hooks) from the warm per-root search server "
        "(docs/search.md § The warm search server); false: every search in its own process."),
    Key("search.server_idle_seconds", 3600,
        "The warm search server exits after this long without a request.",
        low=1),
    Key("search.server_timeout_seconds", 2.0,
        "How long memory-search.py waits for the warm server before searching in its own process.",
        low=0),
    Key("search.server_hook_timeout_seconds", 0.5,
        "How long the prompt-recall hook waits for the warm server; without an answer in time the prompt "
        "gets no recall (the hook never searches in its own process).",
        low=0),
    Group("index",
          "Indexing of the memory tree into .index/search.sqlite."),
    Key("index.window_lines", 40,
        "Markdown without headings is split into windows of this many lines.",
        low=1),
    Key("index.max_file_bytes", 2000000,
        "Files larger than this are skipped and reported.",
        low=0),
    Key("index.auto_rebuild", True,
        "Rebuild a missing or corrupted index automatically on the next search (reported in the output)."),
    Key("index.sweep_seconds", 300,
        "Longest time between two walks of every memory file; in between the index catches up from the "
        "change journal, directory mtimes and the server's watcher (docs/search.md § Keeping the index "
        "fresh); 0: every search walks.",
        low=0),
    Group("embedding",
          "Vector search with fastembed."),
    Key("embedding.enabled", True,
        "Use vectors at all. false = BM25 only."),
    Key("embedding.model", "BAAI/bge-small-zh-v1.5",
        "fastembed model name. BAAI/bge-small-zh-v1.5 by default; keep it when model_path holds a copy of "
        "that model, else a name of your own."),
    Key("embedding.model_path", None,
        "A local model directory (model.onnx or model_optimized.onnx + tokenizer.json + config files), e.g. a"
        " copy of the hub repo Qdrant/bge-small-zh-v1.5; loads with no network.",
        kind=str),
    Key("embedding.endpoint", None,
        "A model hub mirror for downloads (e.g. https://hf-mirror.com); null = $HF_ENDPOINT, else "
        "huggingface.co. Searches never download.",
        kind=str),
    Key("embedding.dim", None,
        "Vector size of a custom model (null = hidden_size of its config.json).",
        kind=int, low=1),
    Key("embedding.pooling", "cls",
        "cls | mean pooling of a custom model.",
        choices=("cls", "mean")),
    Key("embedding.normalize", True,
        "L2-normalize vectors of a custom model."),
    Key("embedding.batch_size", 16,
        "Texts per embedding batch while indexing.",
        low=1),
    Key("embedding.daemon", True,
        "Keep the model loaded in a background process so a search in a new process does not pay the model "
        "load."),
    Key("embedding.daemon_idle_seconds", 900,
        "The embedding daemon exits after this long without a request.",
        low=1),
    Key("embedding.daemon_start_wait_seconds", 5.0,
        "How long a search waits for a starting daemon before answering with BM25 (degraded).",
        low=0.001),
    Group("llm",
          "The LLM behind session summaries, fact extraction, semantic lint and capability generation."),
    Key("llm.backend", "auto",
        "auto | anthropic | claude-cli | none. auto = the anthropic SDK when it is installed and the API key "
        "variable is set, else `claude -p` when the binary is found, else none (deterministic summaries "
        "only).",
        choices=("auto", "anthropic", "claude-cli", "none")),
    Key("llm.model", "claude-haiku-4-5",
        "Model for the anthropic backend (Haiku by default)."),
    Key("llm.cli_model", "haiku",
        "--model for the claude-cli backend (haiku = the latest Haiku)."),
    Key("llm.claude_bin", "claude",
        "The claude executable for the claude-cli backend (a name on PATH or an absolute path)."),
    Key("llm.base_url", None,
        "API base URL for the anthropic backend; null = $ANTHROPIC_BASE_URL, else the SDK default.",
        kind=str),
    Key("llm.api_key_env", "ANTHROPIC_API_KEY",
        "Name of the environment variable that holds the API key (the key itself is never stored in config)."),
    Key("llm.timeout_seconds", 45.0,
        "Hard limit for one LLM call; the child or request is abandoned after it.",
        low=0.001),
    Key("llm.max_retries", 0,
        "SDK retries per call. 0 in the detached workers: a failed call falls back to the deterministic path.",
        low=0),
    Key("llm.daily_token_budget", 300000,
        "Input + output tokens allowed per calendar day across all code-memory LLM calls; over it calls are "
        "refused (deterministic path). 0 = no limit.",
        low=0),
    Group("summary",
          "Session summaries (session-summary.py) and fact extraction (auto-extract-facts.py)."),
    Key("summary.auto_extract", True,
        "JSON mode: summary + rules + pitfalls extracted and distributed. Also $AUTO_EXTRACT=true|false. "
        "false = Markdown summaries only."),
    Key("summary.min_chars", 500,
        "Conversations shorter than this (spoken text, characters) get a Markdown summary only, never "
        "extraction.",
        low=0),
    Key("summary.max_conversation_chars", 48000,
        "The conversation sent to the LLM is capped to this: the first third and the last two thirds are "
        "kept, the middle elided.",
        low=0),
    Key("summary.raw_cap_chars", 20000,
        "When the LLM times out the raw conversation is saved (redacted), capped to this many characters.",
        low=0),
    Key("summary.include_subagents", True,
        "Read subagent transcripts (<session>/subagents/agent-*.jsonl) too: their edits count as files touched."),
    Key("summary.max_output_tokens", 1500,
        "max_tokens of the summary request (JSON mode; Markdown mode uses at most 800).",
        low=1),
    Key("summary.pitfall_jaccard", 0.6,
        "A new pitfall is a duplicate of a MEMORY.md line when their character-trigram Jaccard similarity "
        "reaches this.",
        low=0),
    Key("summary.pitfall_containment", 0.8,
        "... or when the trigrams of the shorter line are contained in the other to this degree.",
        low=0),
    Key("summary.max_attempts", 3,
        "A pending snapshot whose summary failed (or fell back after a transient LLM error) is retried this "
        "many times, then parked as .failed.",
        low=1),
    Key("summary.max_pitfalls", 30,
        "MEMORY.md keeps at most this many pitfalls: past it, the summarizer and the weekly job archive the "
        "lowest-valued ones (restorable with memory-feedback.py restore).",
        low=0),
    Key("summary.facts_window_days", 7,
        "auto-extract-facts.py reads the session summaries of the last this many days.",
        low=0),
    Key("summary.facts_min_sessions", 2,
        "Only projects with at least this many sessions in the window get facts extracted.",
        low=0),
    Key("summary.facts_max_per_project", 3,
        "At most this many new facts per project per run (the LLM proposes 1 to this many).",
        low=0),
    Group("feedback",
          "Self-evolution: experience feedback scores (memory-feedback.py)."),
    Key("feedback.half_life_days", 90.0,
        "Half-life of the decay factor 0.5^(age_days/half_life); age = days since the experience was last "
        "referenced.",
        low=0.001),
    Key("feedback.archive_threshold", 0.3,
        "Experiences scoring below this are archive candidates (memory-feedback.py archive).",
        low=0),
    Key("feedback.high_value_threshold", 0.7,
        "Experiences scoring above this are high-value: listed first at session start, boosted in search.",
        low=0),
    Key("feedback.max_corrections", 3,
        "A session whose transcript shows this many user corrections + reverted edits counts as failed.",
        low=0),
    Key("feedback.max_tool_errors", 10,
        "A session whose transcript shows this many tool errors counts as failed.",
        low=0),
    Key("feedback.record_refs", True,
        "Record a reference whenever the hooks or the search hand an experience (pitfall, rule, fact) to "
        "Claude."),
    Key("feedback.search_boost", 0.2,
        "Search ranks a hit holding a high-value experience as if its score were this much higher (0.2 = 20 "
        "%), one holding only archive candidates half that much lower. 0 = off.",
        low=0),
    Group("signals",
          "Self-evolution: signals from session summaries and recurring patterns (signal-analyzer.py)."),
    Key("signals.window_sessions", 8,
        "Recurring patterns are counted over the last N session summaries.",
        low=1),
    Key("signals.high_threshold", 3,
        "A pattern seen in this many sessions of the window is HIGH.",
        low=1),
    Key("signals.critical_threshold", 5,
        "A pattern seen in this many sessions of the window is CRITICAL.",
        low=1),
    Key("signals.failure_streak", 3,
        "This many failed sessions in a row (feedback outcomes) are flagged as a failure streak.",
        low=0),
    Key("signals.reopen_after", 3,
        "An addressed pattern seen again in this many sessions after it was addressed is active again.",
        low=0),
    Key("signals.extra_rules", [],
        "Your own signal rules, checked before the built-in ones: [{\"type\": \"environment_issue\", \"subject\": "
        "\"vpn\", \"pattern\": \"VPN|公司网络\", \"needs_problem\": true}]."),
    Group("review",
          "The review queue: what extraction proposes is written at once or waits for approval "
          "(docs/browser.md § Review queue)."),
    Group("review.mode",
          "Per kind of extracted memory: write it at once (auto) or queue it for review (queue). "
          "docs/browser.md § Review queue."),
    Key("review.mode.rules", "auto",
        "auto = rules the summarizer extracts go to rules.md; queue = they wait in review/pending/ until "
        "`code-memory review approve ID` (or the web UI).",
        choices=("auto", "queue")),
    Key("review.mode.pitfalls", "auto",
        "auto = pitfalls go to MEMORY.md; queue = they wait for approval.",
        choices=("auto", "queue")),
    Key("review.mode.facts", "auto",
        "auto = extracted facts go to facts.json; queue = they wait for approval.",
        choices=("auto", "queue")),
    Key("review.mode.skills", "queue",
        "queue = generated Skills wait for approval; auto = they are written at once.",
        choices=("auto", "queue")),
    Key("review.mode.kv", "auto",
        "queue = a kv write from an untrusted source is kept under /untrusted/<key> and proposed for its real"
        " key; auto = refused or quarantined as kv.quarantine_untrusted says.",
        choices=("auto", "queue")),
    Group("capabilities",
          "Self-evolution: Claude Code Skills generated from recurring patterns (capability-generator.py)."),
    Key("capabilities.enabled", True,
        "Gate 1: generate Skills at all. Also set by the environment switch CAPABILITY_GENERATION=false."),
    Key("capabilities.cooldown_hours", 24.0,
        "Gate 2: hours that must pass after a generation before the next one.",
        low=0),
    Key("capabilities.min_patterns", 2,
        "Gate 3: how many unaddressed, actionable recurring patterns are needed.",
        low=0),
    Key("capabilities.min_pattern_count", 2,
        "Gate 3: in how many sessions of the signal window a pattern must appear to count.",
        low=0),
    Key("capabilities.success_window", 5,
        "Gate 4: how many of the latest sessions (with an outcome) are checked for stability.",
        low=0),
    Key("capabilities.min_success_rate", 0.6,
        "Gate 4: the success rate those sessions need (0.6 = 60 %).",
        low=0),
    Key("capabilities.max_per_run", 3,
        "At most this many Skills per generation run (most frequent patterns first).",
        low=0),
    Key("capabilities.skills_dir", "~/.claude/skills",
        "Where generated Skills are written: <skills_dir>/<name>/SKILL.md."),
    Key("capabilities.use_llm", True,
        "Draft Skills with the LLM backend (llm.*); false = always the deterministic playbook."),
    Group("consolidate",
          "Self-evolution: the weekly job (weekly-consolidate.sh, code-memory consolidate)."),
    Key("consolidate.days", 7,
        "The period the weekly report covers (stats, most-edited files, topics).",
        low=1),
    Key("consolidate.sessions_retention_days", 30,
        "Cleanup deletes session summaries (sessions/*.md) older than this. Their signals stay in "
        "evolution/signals.jsonl.",
        low=0),
    Key("consolidate.daily_retention_days", 90,
        "Cleanup deletes daily notes (daily/YYYY-MM-DD.md) older than this.",
        low=0),
    Key("consolidate.cleanup", True,
        "Run the cleanup step at all. MEMORY.md and areas/ are never touched."),
    Key("consolidate.top_files", 10,
        "How many most-edited files the report lists.",
        low=0),
    Key("consolidate.max_best_practices", 12,
        "The distill step keeps at most this many distilled lines in MEMORY.md's best-practices section "
        "(lines you wrote yourself are never removed).",
        low=0),
    Key("consolidate.cron_schedule", "17 3 * * 0",
        "When install.sh --cron runs the job (crontab syntax; default Sundays 03:17)."),
    Group("hooks",
          "The Claude Code hooks (docs/hooks.md)."),
    Key("hooks.disabled", [],
        "Hook names to switch off, e.g. [\"avoidance-gate\"]. CODE_MEMORY_HOOKS_DISABLED=1 switches every hook "
        "off."),
    Key("hooks.flag_dir", None,
        "Directory for the per-session flags; null = ${TMPDIR:-/tmp}/code-memory-<uid>. Set it through "
        "CODE_MEMORY_HOOKS__FLAG_DIR too, or the shell fast path will not find the flags.",
        kind=str),
    Key("hooks.flag_max_age_hours", 48,
        "Flags of sessions that ended without SessionEnd are removed after this long (at the next "
        "SessionStart).",
        low=0),
    Key("hooks.rules_injection", True,
        "rules-injector: on the first Read in a project each session, add its rules.md (+ group rules) to the"
        " context."),
    Key("hooks.rules_gate", "deny",
        "rules-gate: deny = refuse an Edit/Write in a project whose rules are not loaded yet and say which "
        "file to read; inline = refuse once with the rules in the reason, so the retried edit passes; off = "
        "never refuse.",
        choices=("deny", "inline", "off")),
    Key("hooks.rules_max_bytes", 8000,
        "Cap on the injected rules (UTF-8 bytes); also on what a subagent gets at its start.",
        low=0),
    Key("hooks.readonly_agents", ["Explore", "Plan"],
        "Subagent types that cannot edit (SubagentStart agent_type; plugin:name matches name): they get no "
        "rules at their start. Every other subagent starts with the project's rules and a memory brief."),
    Key("hooks.schema_index", "projects/shared-db/schema-index.md",
        "The schema index injected into design subagents, relative to the memory root (or absolute)."),
    Key("hooks.schema_agents", ["Plan", "Explore", "architect"],
        "Subagent types (SubagentStart agent_type) that get the schema index."),
    Key("hooks.schema_once_per_session", True,
        "true = only the first matching subagent of a session gets it (the design's flag); false = every "
        "matching subagent."),
    Key("hooks.schema_max_bytes", 8000,
        "Cap on the injected schema index (UTF-8 bytes).",
        low=0),
    Key("hooks.session_start_blocks", ["review", "recent", "memory", "project_summary", "kv", "routing", "capabilities"],
        "What SessionStart injects, highest priority first: review (one line when memory proposals wait for "
        "review), recent (the last sessions of the project: topic, files, decisions, open to-dos), memory "
        "(MEMORY.md), project_summary, kv (the agent key-value memory's default read), routing (the "
        "rules/memory-loader.md rows whose target exists), capabilities (rules/auto-capabilities.md). When "
        "the budget is hit, the last blocks are cut first.",
        items=("review", "recent", "memory", "project_summary", "kv", "routing", "capabilities")),
    Key("hooks.session_start_max_chars", 6000,
        "One budget (characters) for everything SessionStart injects, header and fences included.",
        low=0),
    Group("hooks.session_start_block_chars",
          "Each SessionStart block's share of hooks.session_start_max_chars (characters) before the leftover "
          "is handed out."),
    Key("hooks.session_start_block_chars.recent", 2000,
        "Share (characters) of the recent-work block before the leftover is handed out.",
        low=0),
    Key("hooks.session_start_block_chars.memory", 1600,
        "Share of MEMORY.md (pitfalls are the part that is cut first).",
        low=0),
    Key("hooks.session_start_block_chars.project_summary", 900,
        "Share of the project's summary.md.",
        low=0),
    Key("hooks.session_start_block_chars.kv", 600,
        "Share of the kv default read.",
        low=0),
    Key("hooks.session_start_block_chars.routing", 700,
        "Share of the routing table.",
        low=0),
    Key("hooks.session_start_block_chars.capabilities", 600,
        "Share of the generated Skills index.",
        low=0),
    Key("hooks.session_start_block_chars.review", 200,
        "Share of the review-queue line (how many memory proposals wait).",
        low=0),
    Key("hooks.recent_sessions", 3,
        "How many recent sessions of the project the recent block shows (0 = no recent block).",
        low=0),
    Key("hooks.recent_max_age_days", 14,
        "Work sessions older than this are not shown as entries (their open to-dos still are, until they "
        "expire).",
        low=0),
    Key("hooks.todo_expire_days", 30,
        "An open to-do older than this (or than its reopening) expires: the brief names it once in an "
        "'expired' line for a week, then only `code-memory todo list --status expired` shows it (0 = never).",
        low=0),
    Key("hooks.autoclose_notice_days", 7,
        "A close the offline summarizer made stays listed in the brief, with its evidence, this many days "
        "after the finishing session leaves the shown entries, until the person confirms (`code-memory todo "
        "done <id>`) or reopens it (0 = off); for as long, the todo-check Stop hook asks the model about it "
        "when a turn touches it.",
        low=0),
    Key("hooks.todo_check", True,
        "todo-check (Stop): at the end of a turn that seems to be about an open to-do of the project, ask the "
        "model once whether its work finished it (it closes it or just stops); false = never ask."),
    Key("hooks.todo_check_roll_call", True,
        "todo-check's roll call: at the end of a turn shaped like a finish (it edited files or a command passed, "
        "its last command did not fail, its final message does not end on a question), ask the model which of the "
        "project's open to-dos (newest first, up to todo_check_roll_call_max) its work finished — whatever words "
        "they were written in; merged with the word question when both fire. At the session's first such turn, "
        "and again (at most 3 in all) only at one that edited files none of the earlier calls' turns did. "
        "false = the word/meaning trigger only."),
    Key("hooks.todo_check_roll_call_max", 8,
        "todo-check's roll call: how many open to-dos it names at most (newest first; each cut to 100 "
        "characters).",
        low=1, high=30),
    Key("hooks.todo_check_meaning_ask", None,
        "todo-check by meaning: on a turn that shares no words with any open to-do, ask about those whose cosine "
        "to the turn's closest piece reaches this (the embedding model, through the warm search server's op "
        "related; words only when no server or model answers in time). Unset: the value measured for the "
        "configured model (search/related.py CALIBRATED: the test model 0.7, local/multilingual-e5-small-q4 "
        "0.92) — by meaning is off for a model without one (the default bge-small-zh included: it cannot be "
        "measured offline here); above 1 = never on meaning alone.",
        kind=float, low=0.0),
    Key("hooks.todo_check_meaning_join", None,
        "todo-check by meaning: when the turn is asked about anyway, also name the open to-dos whose cosine "
        "reaches this (up to 3 in all, closest first) — a finish said in other words next to one said in the "
        "to-do's words. Unset: the value measured for the configured model (the test model: 0.2, "
        "local/multilingual-e5-small-q4: 0.84; none for others, so off); above 1 = never.",
        kind=float, low=0.0),
    Key("hooks.auto_init", True,
        "SessionStart creates the memory root from the templates when it is missing (plugin installs)."),
    Key("hooks.daily_notes", True,
        "extract-memory: write a daily note line per edited file."),
    Key("hooks.summarize_on_end", True,
        "SessionEnd/PreCompact start scripts/session-summary.py detached for the pending snapshot."),
    Key("hooks.summarizer", None,
        "The script SessionEnd/PreCompact start with --from-pending FILE; null = scripts/session-summary.py "
        "of this checkout.",
        kind=str),
    Key("hooks.log_level", "info",
        "info = log decisions (inject, deny, block) and errors; error = errors only. Log: "
        "<root>/logs/hooks.log.",
        choices=("info", "error")),
    Key("hooks.log_max_bytes", 1000000,
        "hooks.log is rotated to hooks.log.1 past this size.",
        low=0),
    Group("recall",
          "Recall at the moment of need: memory relevant to each prompt, and what memory knows about a file "
          "at its first Read/Edit (docs/hooks.md § Recall)."),
    Key("recall.prompt", True,
        "prompt-recall: search every store with each prompt and inject what passes the relevance gate (silent"
        " otherwise)."),
    Key("recall.file", True,
        "File-time recall: on the first Read or Edit of a file in a session, what memory knows about it "
        "(sessions that touched it, pitfalls and facts naming it)."),
    Key("recall.threshold", 0.25,
        "The relevance gate (coverage x specific, 0..1) for a question that points at nothing in front of "
        "the model ('why did we pick RRF?'): nothing is injected unless the best candidate reaches it. "
        "Default read off the measured curve in BENCHMARKS.md § Recall; higher = fewer, surer injections; "
        "above 1 = none.",
        low=0),
    Key("recall.threshold_work", 0.7,
        "The same gate for a prompt about the work at hand ('fix this test', '给这个函数加单元测试', any "
        "instruction): such prompts share words with every coding note, so they need more. Default from "
        "the same curve.",
        low=0),
    Key("recall.max_chars", 1500,
        "Budget of one prompt's recalled memory (characters, header and fences included).",
        low=0),
    Key("recall.max_items", 3,
        "At most this many memory items per prompt.",
        low=1),
    Key("recall.candidates", 8,
        "How many search hits are measured against the prompt.",
        low=1),
    Key("recall.mode", "auto",
        "auto = vectors only when the embedding daemon is already warm (a hook never waits for a model), else"
        " BM25; bm25 or hybrid force one.",
        choices=("auto", "bm25", "hybrid")),
    Key("recall.file_max_chars", 700,
        "Budget of what file-time recall injects for one file (characters).",
        low=0),
    Key("recall.file_sessions", 2,
        "At most this many sessions that touched the file are shown.",
        low=0),
    Group("lint",
          "The avoidance-gate rule engines run after each Edit/Write (docs/hooks.md § Lint rules)."),
    Key("lint.enabled", True,
        "Run the rule engines after Edit/Write (avoidance-gate)."),
    Key("lint.scope", "changed",
        "changed = report findings on the lines this edit touched (syntax errors always); file = the whole "
        "file.",
        choices=("changed", "file")),
    Key("lint.max_file_bytes", 1000000,
        "Larger files are not linted.",
        low=0),
    Key("lint.python_target", None,
        "Oldest Python the project supports, e.g. \"3.8\"; null = from the project's pyproject.toml "
        "requires-python, else no version rules. Project config may set it.",
        kind=str, project=True),
    Key("lint.bash_target", "3.2",
        "Oldest bash the shell scripts must run on (\"3.2\" = macOS /bin/bash). Project config may set it.",
        project=True),
    Key("lint.frontend_projects", [],
        "Project names whose *.js/*.jsx are checked against the antd v3 rules."),
    Key("lint.detect_antd_v3", True,
        "Also treat a project as antd v3 when its package.json depends on antd 3.x."),
    Key("lint.severity", {},
        "Per-rule override: {\"PY005\": \"block\" | \"warn\" | \"off\"}. Project config may set it.",
        project=True),
    Key("lint.user_rules", [],
        "Extra regex rules for every project: [{id, pattern, message, severity?, glob?, flags?}]; projects "
        "add their own in areas/projects/<name>/lint-rules.json."),
    Key("lint.semantic", False,
        "Tier 2: also ask the LLM (llm section) to review the edit for the project's rules. Also "
        "CLAUDE_SEMANTIC_LINT=true."),
    Key("lint.semantic_timeout_seconds", 8.0,
        "Time box of the tier 2 check; on timeout the edit passes.",
        low=0.001),
    Key("lint.semantic_max_bytes", 12000,
        "How much of the edited file tier 2 sends (around the changed lines).",
        low=0),
    Group("workspaces",
          "Workspace memory: directories with memory/YYYY-MM-DD.md (code-memory remember, code-memory "
          "workspace)."),
    Key("workspaces.paths", [],
        "Registered workspace directories (each has memory/YYYY-MM-DD.md and an optional memory/MEMORY.md). "
        "`code-memory workspace add DIR` appends here."),
    Key("workspaces.id_strategy", "name",
        "name = the directory name is the workspace id; hash = sha256(realpath)[:12] (unique when names "
        "repeat, stable per location).",
        choices=("name", "hash")),
    Key("workspaces.compact_after_days", 30,
        "workspace compact merges day files older than this many days into memory/MEMORY.md.",
        low=0),
    Group("kv",
          "Agent key-value memory (set_memory, code-memory kv)."),
    Key("kv.read_token_limit", 400,
        "Token budget of the default read (kv read and SessionStart); see README for how tokens are counted.",
        low=0),
    Key("kv.history_policy", "A",
        "A = keep log.jsonl (archived whole past rotate_lines, never deleted); B = archive the log at every "
        "compaction.",
        choices=("A", "B")),
    Key("kv.rotate_lines", 100000,
        "Policy A moves log.jsonl to kv/archive/ once it holds this many lines.",
        low=0),
    Key("kv.compact_after_lines", 10000,
        "A write reports compaction_due once this many log lines accumulated since the last compaction.",
        low=0),
    Key("kv.auto_compact", True,
        "Run compaction right after a CLI/MCP write that reports compaction_due."),
    Key("kv.drop_expired_on_compact", False,
        "Compaction also removes keys whose content.expired_at has passed from state.jsonl and kv/index (the "
        "log keeps them)."),
    Key("kv.quarantine_untrusted", False,
        "A write lacking required provenance is stored under /untrusted/<key> instead of being rejected "
        "(never in the default read)."),
    Key("kv.max_content_bytes", 65536,
        "Largest JSON content accepted by set_memory (bytes, UTF-8).",
        low=0),
    Key("kv.fsync", False,
        "fsync log.jsonl after every write (survives power loss, slower)."),
    Key("kv.summary_chars", 120,
        "Longest summary per line in the default read and kv ls.",
        low=0),
    Key("kv.recency_half_life_days", 7.0,
        "Recency score halves every this many days in the default read ranking.",
        low=0.001),
    Key("kv.lock_timeout", 10.0,
        "Seconds a write waits for the kv writer lock before LOCK_TIMEOUT.",
        low=0.001),
    Group("memtool",
          "The structured memory store behind the MCP server's memtool tools (docs/stores.md § memtool)."),
    Key("memtool.db", None,
        "memtool's database for the memtool command line, the MCP server and the search over every store; "
        "null = <memory_root>/memtool.db. --db, then $MEMTOOL_DB win.",
        kind=str),
)

KEYS = {entry.name: entry for entry in SCHEMA if isinstance(entry, Key)}
GROUPS = {entry.name: entry for entry in SCHEMA if isinstance(entry, Group)}


def defaults_tree() -> dict:
    """The defaults as the nested dict a config file holds (a fresh copy)."""
    tree: dict = {}
    for key in KEYS.values():
        *parents, leaf = key.name.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        default = key.default
        node[leaf] = type(default)(default) if isinstance(default, (list, dict)) else default
    return tree
