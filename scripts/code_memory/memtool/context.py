"""Context extraction for episodic memory (docs/stores.md § memtool): when, in what mood, how urgent, what kind
of work. Pure: the caller passes the local time of the write.

Tags:
* time — ``work_hours`` (09:00–17:59), ``late_night`` (22:00–05:59), ``weekend`` (Sat/Sun);
* emotion — ``positive`` / ``negative`` by which lexicon has more hits (weight +0.5 / −0.3),
  ``urgent`` (+0.3 on top), ``calm`` (refactoring/review wording, no urgency);
* task type — ``debugging``, ``testing``, ``api_design``, ``data_model``, ``performance``,
  ``deployment``, ``security``.
The emotional weight is clamped to [−1, 1]. Lexicons are English and Chinese; English words match at
word starts (``fail`` matches ``failed``; ``db`` does not match ``feedback``), Chinese by substring.
"""

from __future__ import annotations

import datetime as dt
import re

WORK_HOURS = (9, 18)
LATE_NIGHT = (22, 6)

EMOTION_LEXICON = {
    "positive": ["success", "succeed", "solved", "resolved", "fixed", "works", "working now", "done",
                 "improved", "optimized", "passed", "解决", "完成", "成功", "修复", "优化", "改进", "搞定",
                 "通过"],
    "negative": ["error", "fail", "bug", "crash", "exception", "broken", "timeout", "timed out",
                 "regression", "问题", "错误", "失败", "超时", "崩溃", "异常", "报错", "故障", "卡死"],
    "urgent": ["urgent", "critical", "asap", "immediately", "blocking", "blocker", "hotfix", "p0",
               "outage", "紧急", "立即", "马上", "阻塞", "严重", "线上事故"],
    "calm": ["refactor", "review", "cleanup", "tidy", "document", "重构", "整理", "梳理", "文档"],
}

TASK_LEXICON = {
    "debugging": ["error", "exception", "stacktrace", "traceback", "debug", "bug", "crash", "报错",
                  "异常", "调试", "排查", "堆栈"],
    "testing": ["test", "pytest", "unittest", "assert", "coverage", "测试", "用例", "断言"],
    "api_design": ["api", "endpoint", "rest api", "restful", "grpc", "graphql", "接口",
                   "契约", "路由"],
    "data_model": ["db", "database", "schema", "table", "sql", "migration", "index", "数据库",
                   "表结构", "字段", "索引", "迁移"],
    "performance": ["latency", "slow", "performance", "throughput", "memory leak", "cpu", "性能",
                    "延迟", "卡顿", "内存泄漏"],
    "deployment": ["deploy", "release", "rollback", "docker", "kubernetes", "k8s", "ci/cd", "部署",
                   "发布", "上线", "回滚"],
    "security": ["security", "vulnerability", "xss", "csrf", "injection", "authentication",
                 "authorization", "permission",
                 "安全", "漏洞", "注入", "权限", "鉴权"],
}

POSITIVE_WEIGHT = 0.5
NEGATIVE_WEIGHT = -0.3
URGENT_BOOST = 0.3

EMOTIONAL_FILTERS = ("positive", "negative", "urgent")
KNOWN_TAGS = ("work_hours", "late_night", "weekend", "positive", "negative", "urgent", "calm",
              *TASK_LEXICON)


def _compile(words):
    english = [re.escape(w) for w in words if w.isascii()]
    chinese = [re.escape(w) for w in words if not w.isascii()]
    parts = []
    if english:
        parts.append(r"(?<![a-z0-9_])(?:" + "|".join(english) + ")")
    if chinese:
        parts.append("|".join(chinese))
    return re.compile("|".join(parts))


_EMOTION = {name: _compile(words) for name, words in EMOTION_LEXICON.items()}
_TASK = {name: _compile(words) for name, words in TASK_LEXICON.items()}


def _hits(pattern, text: str) -> int:
    return len(set(pattern.findall(text)))


def time_tags(local_time: dt.datetime) -> list:
    tags = []
    hour = local_time.hour
    if WORK_HOURS[0] <= hour < WORK_HOURS[1]:
        tags.append("work_hours")
    elif hour >= LATE_NIGHT[0] or hour < LATE_NIGHT[1]:
        tags.append("late_night")
    if local_time.weekday() >= 5:
        tags.append("weekend")
    return tags


def extract(content: str, local_time: dt.datetime) -> tuple:
    """(context_tags, emotional_weight) for a memory written at ``local_time``."""
    text = (content or "").lower()
    tags = time_tags(local_time)
    weight = 0.0
    positive = _hits(_EMOTION["positive"], text)
    negative = _hits(_EMOTION["negative"], text)
    if positive > negative:
        weight = POSITIVE_WEIGHT
        tags.append("positive")
    elif negative > positive:
        weight = NEGATIVE_WEIGHT
        tags.append("negative")
    urgent = _hits(_EMOTION["urgent"], text) > 0
    if urgent:
        weight += URGENT_BOOST
        tags.append("urgent")
    elif _hits(_EMOTION["calm"], text):
        tags.append("calm")
    for name, pattern in _TASK.items():
        if pattern.search(text):
            tags.append(name)
    return tags, max(-1.0, min(1.0, weight))


def matches_emotion(item: dict, emotional_filter: str) -> bool:
    """The emotional filter of contextual search.

    positive / negative: the item carries that tag, or its weight has that sign — except that the
    urgency boost alone (+0.3 on a neutral text) does not make an urgent item "positive".
    urgent: the ``urgent`` tag.
    """
    weight = float(item.get("emotional_weight") or 0.0)
    tags = item.get("context_tags") or []
    if emotional_filter == "positive":
        return "positive" in tags or (weight > 0 and "urgent" not in tags and "negative" not in tags)
    if emotional_filter == "negative":
        return "negative" in tags or weight < 0
    if emotional_filter == "urgent":
        return "urgent" in tags
    raise ValueError(emotional_filter)
