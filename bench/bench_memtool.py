#!/usr/bin/env python3
"""memtool benchmark: put throughput, get-by-id and search latency at N items, in one process.

    python bench/bench_memtool.py [--items 10000] [--queries 300] [--db PATH] [--json] [--smoke]

Items are synthetic but shaped like real ones: mixed English/Chinese Markdown of 80-400 characters,
the three layers, task/step ids, tags. Puts run with the defaults (secret redaction, Chinese
segmentation, context extraction, related-item linking, FTS triggers, one transaction each).
Gets and searches use the defaults too (access tracking on, batched). Segmentation is warmed up
before timing (a one-off ~1-2 s import of jieba per process is not a per-put cost). ``--smoke``:
300 items, 30 queries (a few seconds; the CI test).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

from code_memory.memtool import recall, tokens
from code_memory.memtool.store import MemoryStore

TECH_EN = ("redis timeout pool connection retry backoff login token refresh jwt session cache index query "
           "schema migration deploy rollback release latency throughput memory leak worker queue kafka "
           "consumer producer offset lag checkout payment gateway invoice webhook signature nginx proxy "
           "upstream grpc endpoint contract validation password policy rate limit audit log trace span "
           "metric alert dashboard config feature flag experiment tenant permission role").split()
TECH_ZH = ("数据库 连接池 超时 重试 登录 令牌 刷新 缓存 索引 查询 迁移 部署 回滚 发布 延迟 吞吐 内存 泄漏 队列 "
           "消费者 生产者 支付 网关 发票 回调 签名 代理 接口 契约 校验 密码 策略 限流 审计 日志 告警 配置 权限 "
           "角色 画布 渲染 核心 运行机制 用户 订单 库存 搜索 推荐").split()
ZH_CHARS = ("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而"
            "方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性"
            "好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第"
            "向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件"
            "长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光"
            "门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带"
            "安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林"
            "律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克"
            "何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县"
            "局照参红细引听该铁价严")
KEYS = ("glossary invariants boundaries goal_scope contract business_rules scenarios risk_notes "
        "reproduction stacktrace logs_excerpt diff_summary context_requests").split()


def _vocabulary():
    """Zipf-shaped vocabularies like real notes: a few very common technical words, a long tail."""
    rng = random.Random(7)
    syllables = [c + v for c in "bcdfghjklmnprstvwz" for v in ("a", "e", "i", "o", "u", "ar", "en", "or")]
    words = list(TECH_EN)
    seen = set(words)
    while len(words) < 5000:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    zh = list(TECH_ZH)
    zh_seen = set(zh)
    while len(zh) < 1500:
        word = rng.choice(ZH_CHARS) + rng.choice(ZH_CHARS)
        if word not in zh_seen:
            zh_seen.add(word)
            zh.append(word)
    def cumulative(n):
        total, out = 0.0, []
        for rank in range(n):
            total += 1.0 / (rank + 1) ** 1.05
            out.append(total)
        return out
    return words, cumulative(len(words)), zh, cumulative(len(zh))


EN, EN_W, ZH, ZH_W = _vocabulary()


def make_content(rng: random.Random) -> str:
    en = lambda k: rng.choices(EN, cum_weights=EN_W, k=k)
    zh = lambda k: rng.choices(ZH, cum_weights=ZH_W, k=k)
    parts = [f"## {en(1)[0].title()} {zh(1)[0]}"]
    for _ in range(rng.randint(2, 6)):
        words = en(rng.randint(4, 10))
        if rng.random() < 0.6:
            words[rng.randrange(len(words))] = "".join(zh(rng.randint(1, 3)))
        parts.append("- " + " ".join(words))
    return "\n".join(parts)


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(samples_s):
    ms = [s * 1000 for s in samples_s]
    return {"p50_ms": round(statistics.median(ms), 3), "p95_ms": round(pct(ms, 0.95), 3),
            "max_ms": round(max(ms), 3), "n": len(ms)}


def run(n_items: int, n_queries: int, db_path: str) -> dict:
    rng = random.Random(20260301)
    tokens.segment("预热分词")  # warm up the segmenter (imports jieba when installed)
    store = MemoryStore(db_path)
    puts = []
    for i in range(n_items):
        item_type = rng.choice(("project", "feature", "feature", "run", "run", "run"))
        kwargs = {"type": item_type, "content": make_content(rng), "tags": rng.sample(TECH_EN, 2),
                  "task_id": f"T{rng.randrange(200)}"}
        if item_type == "run":
            kwargs["step_id"] = f"S{rng.randrange(20)}"
        if rng.random() < 0.5:
            kwargs["key"] = f"{rng.choice(KEYS)}-{i}"
        puts.append(kwargs)
    put_times, ids = [], []
    started, cpu_started = time.perf_counter(), time.process_time()
    for kwargs in puts:
        t0 = time.perf_counter()
        ids.append(store.put(**kwargs)["id"])
        put_times.append(time.perf_counter() - t0)
    put_total = time.perf_counter() - started
    put_cpu = time.process_time() - cpu_started
    linked = store.conn.execute("SELECT count(*) FROM memory_items WHERE related_ids_json != '[]'").fetchone()[0]

    get_times = []
    for item_id in rng.sample(ids, min(n_queries * 3, len(ids))):
        t0 = time.perf_counter()
        store.get(item_id)
        get_times.append(time.perf_counter() - t0)

    queries = [" ".join(rng.choices(EN, cum_weights=EN_W, k=rng.choice((1, 2)))) for _ in range(n_queries // 2)]
    queries += [rng.choices(ZH, cum_weights=ZH_W)[0] + (" " + rng.choices(EN, cum_weights=EN_W)[0] if rng.random() < 0.5 else "")
                for _ in range(n_queries // 2)]
    search_times, hits = [], 0
    cpu_started = time.process_time()
    for query in queries:
        t0 = time.perf_counter()
        out = store.search(query, limit=20)
        search_times.append(time.perf_counter() - t0)
        hits += bool(out["items"])
    search_cpu = time.process_time() - cpu_started

    recommend_times = []
    for _ in range(50):
        t0 = time.perf_counter()
        recall.recommend(store, context=" ".join(rng.choices(EN, cum_weights=EN_W, k=3)), task_id=f"T{rng.randrange(200)}")
        recommend_times.append(time.perf_counter() - t0)
    store.close()
    last_k = put_times[-1000:]
    return {
        "items": n_items,
        "segmenter": tokens.segmenter_name(),
        "put": {"per_second_overall": round(n_items / put_total, 1),
                "per_second_last_1000": round(len(last_k) / sum(last_k), 1),
                "cpu_ms_per_put": round(put_cpu / n_items * 1000, 3),
                "per_second_of_cpu": round(n_items / put_cpu, 1), **summary(put_times)},
        "items_with_related_ids": linked,
        "get_by_id": summary(get_times),
        "search": {**summary(search_times), "cpu_ms_mean": round(search_cpu / len(queries) * 1000, 3),
                   "queries_with_hits": hits, "queries": len(queries)},
        "recommend": summary(recommend_times),
        "db_bytes": os.path.getsize(db_path),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--db", help="database path (default: a fresh temp file)")
    parser.add_argument("--json", action="store_true", help="print only the JSON result")
    parser.add_argument("--smoke", action="store_true", help="300 items, 30 queries (a few seconds)")
    args = parser.parse_args()
    if args.smoke:
        args.items, args.queries = 300, 30
    with tempfile.TemporaryDirectory() as tmp:
        db_path = args.db or os.path.join(tmp, "bench.db")
        if os.path.exists(db_path):
            parser.error(f"{db_path} exists; the benchmark needs a fresh database")
        result = run(args.items, args.queries, db_path)
    if args.json:
        print(json.dumps(result))
        return 0
    print(json.dumps(result, indent=2, ensure_ascii=False))
    print(f"\nput {result['put']['per_second_overall']}/s wall, {result['put']['per_second_of_cpu']}/s of CPU "
          f"(target ≥ 500/s); "
          f"get p50 {result['get_by_id']['p50_ms']} ms (≤ 5); search p50 {result['search']['p50_ms']} ms (≤ 30)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
