"""What the tools declare about themselves: each parameter's type, bounds and description (the
JSON Schema a model reads before it calls), and each tool's hints (read-only, destructive, …).

Bounds come from the limits the library checks itself (memtool's field limits, the kv key rules,
search's ``top_k`` and ``get``'s line window), so the schema rejects exactly what the library would
refuse, before any work; the library's own checks stay, for the other doors (CLI, web UI).

No ``from __future__ import annotations``: the SDK builds the input schema from these objects.
"""

from typing import Annotated, Any, Dict, List, Literal, Optional, Union

from pydantic import AliasChoices, Field

from ..kv.keys import MAX_KEY_CHARS
from ..memory.todos import MAX_TEXT as TODO_MAX_CHARS
from ..memory.todos import STATUSES as TODO_STATUSES
from ..memtool.context import EMOTIONAL_FILTERS, KNOWN_TAGS
from ..memtool.knowledge_map import MAX_DEPTH
from ..memtool.store import FIELD_LIMITS, MAX_CONTENT_BYTES, MAX_LIMIT, MAX_TAGS
from ..search.engine import DEFAULT_GET_LINES, MAX_GET_LINES, MAX_TOP_K, MODES
from ..search.unified import MEMTOOL_PREFIX, SOURCES

LIST_LIMIT = 200          # memory_list answers at most this many entries
ITEM_ID_CHARS = 128       # memtool.store.ID_PATTERN: 1-128 characters


def described(kind, text: str, **bounds):
    """``kind`` with its description and bounds (pydantic ``Field`` keywords: ge, le, max_length …)."""
    return Annotated[kind, Field(description=text, **bounds)]


def tool(title: str, *, read_only: bool, destructive: bool = False, idempotent: bool = True,
         open_world: bool = False):
    """Mark a tool function with its MCP annotations (``server.build_server`` hands them to the SDK).

    read_only: changes no memory (reads may still be counted: memtool's access counts, the feedback
    loop's record of what a session was shown, the search index kept fresh). destructive: may replace
    or remove what is stored. idempotent: the same call again changes nothing more. open_world: talks
    to something outside the machine (no tool does)."""
    def mark(fn):
        fn.mcp_title = title
        fn.mcp_annotations = {"title": title, "readOnlyHint": read_only, "destructiveHint": destructive,
                              "idempotentHint": idempotent, "openWorldHint": open_world}
        return fn
    return mark


# --- shared by several tools ------------------------------------------------------------------
ItemType = Literal["project", "feature", "run"]
ItemTypeFilter = described(Optional[ItemType], "only memtool items of this layer: project (lasting facts), "
                           "feature (one requirement) or run (one execution)")
Tag = Annotated[str, Field(min_length=1, max_length=FIELD_LIMITS["tag"])]
Tags = Optional[Annotated[List[Tag], Field(max_length=MAX_TAGS)]]


def memtool_limit(what: str, default: int):
    return described(int, f"how many {what} at most (default {default})", ge=1, le=MAX_LIMIT)


# --- memory_search / memory_get / memory_list / memory_delete ------------------------------------
Query = described(str, "what to look for, in Chinese or English words (a question works); only the first "
                       "2,000 characters are used", min_length=1)
TopK = described(Optional[int], "how many hits at most (default config search.top_k, 6)", ge=1, le=MAX_TOP_K)
SearchMode = described(Optional[Literal[MODES]],
                       "auto (default: hybrid when vectors are available, else bm25), bm25 (words), "
                       "vector (meaning) or hybrid (both fused)")
Sources = described(Optional[List[Literal[SOURCES]]],
                    "search only these stores (default all): memory (the Markdown memory), workspace (this "
                    "workspace's notes), kv (set_memory keys), memtool (memory_store items)")
HitId = described(str, "a memory_search hit's id: a file path (relative to the memory root, or as returned), "
                       "kv:<key> or memtool:<id>", min_length=1,
                  validation_alias=AliasChoices("id", "path"))     # path: its older name, still accepted
FromLine = described(int, "first line to read, 1-based (files only)", ge=1)
Lines = described(int, f"how many lines to read (files only; default {DEFAULT_GET_LINES})", ge=1,
                  le=MAX_GET_LINES)
Store = described(Literal["memtool", "kv"], "memtool: the structured items of memory_store; kv: the "
                                            "key-value memory of set_memory")
ListPrefix = described(Optional[str], "memtool: only keys starting with this; kv: only keys under this folder "
                                      "(e.g. /user/preference)")
ListLimit = described(int, "how many entries at most, newest first (default 50)", ge=1, le=LIST_LIMIT)
DeleteId = described(str, "memtool:<id> or kv:<key>, as memory_search or memory_list gave it", min_length=1)

# --- memtool ----------------------------------------------------------------------------------
Content = described(str, "the memory, Markdown works best; at most 1 MiB (UTF-8); an update replaces the "
                         "item's content", max_length=MAX_CONTENT_BYTES)
NewItemType = described(Optional[ItemType], "project (lasting facts: glossary, invariants, boundaries), feature "
                        "(one requirement: goal_scope, contract, business_rules, scenarios, risk_notes) or run "
                        "(one execution: reproduction, stacktrace, logs_excerpt, diff_summary); new items "
                        "default to project, an update keeps the item's type unless given")
ItemKey = described(Optional[str], "a logical key: with it the item is upserted on (type, key, task_id, "
                    "step_id)", min_length=1, max_length=FIELD_LIMITS["key"])
TaskId = described(Optional[str], "the task the memory belongs to", min_length=1, max_length=FIELD_LIMITS["task_id"])
StepId = described(Optional[str], "the step within the task", min_length=1, max_length=FIELD_LIMITS["step_id"])
ItemTags = described(Tags, f"free-form tags (at most {MAX_TAGS}, each at most {FIELD_LIMITS['tag']} characters)")
ItemSource = described(Optional[str], "where the memory came from (a URL, file, command …)",
                       max_length=FIELD_LIMITS["source"])
Confidence = described(Optional[Literal["high", "medium", "low"]], "how sure the memory is (default medium)")
Weight = described(Optional[float], "importance multiplier for ranking (default 1.0; above 1 ranks higher)", ge=0)
ItemId = described(Optional[str], "update this existing item (its id as memory_store, memory_list or "
                   "memory_search gave it; memtool: may be left out)", min_length=1, max_length=len(MEMTOOL_PREFIX) + ITEM_ID_CHARS)
RecallContext = described(Optional[str], "what you are doing now, in words; items matching it rank first")
RecallItemId = described(Optional[str], "read this one item in full instead (its id; memtool: may be left "
                         "out)", min_length=1, max_length=len(MEMTOOL_PREFIX) + ITEM_ID_CHARS)
RecallTaskId = described(Optional[str], "only items of this task", max_length=FIELD_LIMITS["task_id"])
FilterTags = described(Tags, "only items carrying all of these tags")
KeyPrefix = described(Optional[str], "only items whose key starts with this")
IncludeStale = described(bool, "also items marked stale (default false)")
SituationQuery = described(Optional[str], "words to find (optional when context_tags or emotional_filter is given)")
ContextTags = described(Optional[Annotated[List[Tag], Field(max_length=MAX_TAGS)]],
                        "the situation: " + ", ".join(KNOWN_TAGS) + " (extracted from each item's text and time)")
Emotion = described(Optional[Literal[EMOTIONAL_FILTERS]], "only items of this tone: positive (e.g. solved), "
                    "negative (failed) or urgent")
Topic = described(str, "the topic, in words", min_length=1)
Depth = described(int, "layers of nodes: 1 = the topic's own memories, 2 = also their neighbours (default 2)",
                  ge=1, le=MAX_DEPTH)
MinScore = described(float, "the least relevance (0-1) for a memory to join the map (default 0.3)", ge=0, le=1)
MinImportance = described(float, "the least importance (0-1) of a memory to list (default 0.5)", ge=0, le=1)

# --- kv ---------------------------------------------------------------------------------------
KvKey = described(str, "a logical path starting with / (e.g. /user/preference/style, "
                  "/user/calendar/2026-02-23_10-00_dentist, /kb/…); the same key overwrites (last write wins)",
                  min_length=2, max_length=MAX_KEY_CHARS, pattern="^/")
KvContent = described(Any, "any JSON, ideally an object with optional type, summary, importance (0-10), tags, "
                           "expired_at (ISO 8601); null deletes the key (a tombstone; {} is ordinary content); at "
                           "most kv.max_content_bytes (64 KiB by default) as compact JSON")
KvSource = described(Union[Dict[str, Any], str],
                     "where it came from (required): a short string such as \"chat\" for what the user said, or an "
                     "object {kind, name, retrieved_at, locator}: kind user/tool/web/file/system/agent; web, tool "
                     "and file sources and every /kb/ key need all four fields, e.g. {\"kind\": \"web\", \"name\": "
                     "\"example.com\", \"retrieved_at\": \"2026-02-22T10:00:00Z\", \"locator\": {\"url\": \"…\"}}")
TokenLimit = described(Optional[int], "the block's budget in tokens (default kv.read_token_limit, 400)", ge=0)
ReadTags = described(Optional[List[str]], "context tags that rank matching keys first (default: the session's "
                                          "project name)")
Now = described(Optional[str], "the time to judge expiry and recency by, ISO 8601 (default now)")
ReadPrefix = described(Optional[str], "only keys under this folder (e.g. /user)")

# --- memory_todo ------------------------------------------------------------------------------
TodoAction = described(Literal["list", "done", "reopen"],
                       "list (default): this project's to-dos with their ids; done: close one your work "
                       "finished (it leaves the next session's brief); reopen: open a closed one again")
TodoName = described(Optional[str], "done / reopen: the to-do — its id as the brief shows it (8 hex digits; a "
                     "unique prefix of 4+ works) or words of its text", min_length=1, max_length=TODO_MAX_CHARS)
TodoRemaining = described(Optional[str], "done only: your work finished the to-do only in part — say what is "
                          "left (one line); the to-do is closed and this text stays open as its own to-do (its id "
                          "is answered as remaining_id)", min_length=1, max_length=TODO_MAX_CHARS)
TodoStatus = described(Optional[Literal[TODO_STATUSES + ("all",)]],
                       "list only: open (default), done, carried (restated by a later session), expired or all")
