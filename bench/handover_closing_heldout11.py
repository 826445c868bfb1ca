"""The eleventh to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind12``, from 0525091) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, scripts/code_memory/text/lexicon.py,
scripts/code_memory/hooks/todo_check.py, docs/summaries.md, docs/hooks.md, the Handover sections of
BENCHMARKS.md) nor the scenarios of the earlier sets (``handover_tuning_set.py``,
``handover_closing_set.py``, ``handover_closing_heldout.py`` … ``handover_closing_heldout10.py``,
``handover_capture_set.py``, ``handover_capture2_set.py``, ``handover_capture6_set.py``,
``handover_traps_set.py``, ``handover_progress_set.py``, ``handover_wrongs_set.py``,
``handover_wrongs6_set.py``, ``handover_bilingual_set.py``, ``handover_reconfirm_set.py``) beyond
their docstrings and first scenario (one slip: the first ~150 lines of ``handover_tuning_set.py``
were printed, i.e. its first four scenarios). It judges the rules and the Stop-hook to-do check of
round 9 afterwards, beside ``handover_closing_heldout12.py``. Do not read its scenarios or its
misses to change a rule — when it has been read, write a new set instead.

14 projects, 4–5 sessions each plus a last start: 6 Chinese, 6 English, 2 mixed (a Chinese speaker
with English code and terms, switching language between sessions). Domains: ffmpeg transcoding
(4K OOM, HDR tone mapping), vector tiles for a delivery-zone map, a Go WebSocket chat gateway,
e-commerce search relevance, a clinic intake form wizard, a SQL-migration lint rule, react-i18next,
OR-Tools delivery routing with OSRM, a VS Code extension's hover/completion, a Scrapy tender-notice
crawler, accessibility of a booking flow, homepage recommendations, CMS edit conflicts and
scheduling, a multiplayer game server's tick loop.

- 38 open to-dos (``todos``), stated as states ("only works on macOS", "载重是写死的 1.5 吨",
  "目前只支持单机"), absences, indirect wishes ("it'd be nice to", "最好加个", "有空把", "we should
  probably … at some point"), numbered and bulleted remaining lists, a request in the person's
  prompt ("remind me to", "下次记得提醒我"), and items inside longer reports.
- 31 finished later in other words (``done``), about half sharing no word with the to-do (the
  effect described, synonyms, the other language in the mixed projects), about a third 2–3 sessions
  after the to-do was stated, some as one line of a report of other work, by the person's own word,
  by evidence after a bare "continue" / "继续", by a status line ("media: done"), with numbers.
- 22 traps (``traps``: an open to-do that session must NOT close): other work in the same area or
  file, a sibling of the same list finished, half-done and failing work, "not yet" / "还没" answers,
  the to-do put next or off, a question about it, a restatement of it in new words.
- 3 long sessions (8–10 user turns in one session: b12-en-linter, b12-zh-routing,
  b12-mix-gameserver) where most turns are unrelated work, one finishes a to-do and one touches it
  or its area.
- Final reports with look-alike sentences that are not open work (how the code works now, intended
  limits, results, causes, requests to the person); ``spurious_todos`` counts the ``[ ]`` lines
  holding no planted to-do.

``bench_handover_tuning.py --set closing-heldout11`` and ``bench_todo_check.py --set
closing-heldout11`` run it.

Baseline (unchanged main 0525091, run on 2026-11-26 at 23:26 UTC, load ~2.0 on 2 shared cores;
``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout11``): open to-dos
captured 35/38 (zh 16/17, en 15/17, mixed 4/4); finished to-dos still shown 19/31; closes right 7,
missed 19, wrong 2; traps held 18, sprung 2, untested 2; spurious to-dos 34 of 139 ``[ ]`` lines;
topics 21/21, files 14/14, notes 1/1; leaks 0; context p50 5,977 chars; SessionStart p50 53.9 ms;
74 sessions. ``bench_todo_check.py --set closing-heldout11 --checkout .`` (words only, answers
replayed): 31 finishes, 28 captured, ask recall 20/28 (0.714), of the summarizer's misses 20/25
(0.80); finished still shown floor 5/31; traps asked 13/20; 38 questions over 84 turns (0.452 per
turn; least share for full recall 0.321); with the replayed answers the summarizer's final index has
closes right 23, missed 3, wrong 2, traps held 18, sprung 2; hook p50 26 ms.
done_at (round 9): the turn of a multi-turn session that finishes a planted to-do, annotated
by an engineer who writes no rules, counts only reported.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

SCENARIOS = [
    ("b12-zh-transcode", "zh", [
        S([U("转码服务处理 4K 片源老是 OOM，帮我看下 transcode/worker.py"),
           R("transcode/worker.py"), E("transcode/worker.py"),
           B("python -m pytest tests/test_worker.py -q", True, "11 passed"),
           A("原因是把整段源文件读进了内存再喂给 ffmpeg。现在改成分段管道读取，4K 片源峰值内存从 9.8GB 降到 1.1GB，"
             "测试 11 个都过了。失败的任务会重试 3 次再进死信队列，这是故意的。还有两处没处理：HDR 片源转出来颜色发灰，"
             "tone mapping 还没做；另外编码 preset 是写死的 veryfast，长片和短片都一样。")],
          topic=["OOM"], files=["transcode/worker.py"],
          todos=["tone mapping 还没做", "preset 是写死的 veryfast"]),
        S([U("回头有空把进度条用的缩略图雪碧图也生成一下。今天先把 preset 按片长区分"),
           E("transcode/profiles.yaml"), E("transcode/worker.py"),
           B("python -m pytest tests/test_worker.py -q", True, "13 passed"),
           A("编码速度档位现在从 profiles.yaml 读：10 分钟以内的片子用 slow，更长的用 faster，没配置时才退回默认值。"
             "13 passed。默认值本身还是原来那个，这是为了兼容老任务。")],
          topic=["按片长区分"], todos=["缩略图雪碧图也生成一下"], done=["preset 是写死的 veryfast"]),
        S([U("HDR 发灰那个看看"),
           E("docker/Dockerfile.worker"), B("docker build -f docker/Dockerfile.worker .", True, "Successfully built"),
           A("要做色调映射得用 zscale，而现在镜像里的 ffmpeg 没编 libzimg，所以先把基础镜像换成了带 libzimg 的 6.1 版本，"
             "镜像能构建了，大小从 1.2GB 涨到 1.5GB。滤镜链还没接到 worker 里，HDR 片子现在转出来还是灰的。")],
          traps=["tone mapping 还没做"]),
        S([U("继续"),
           E("transcode/filters.py"), E("transcode/worker.py"),
           B("python -m pytest tests/test_hdr.py -q", True, "5 passed"),
           A("HDR10 源现在先经 zscale 转线性光，再用 hable 压到 bt709，对比截图肤色正常了。test_hdr 5 个都过。")],
          done=["tone mapping 还没做"]),
        S([U("把拖动进度条时的预览图做了，顺便把 worker 日志级别调成 info"),
           W("transcode/storyboard.py"), E("transcode/logging.conf"),
           B("python -m pytest tests/test_storyboard.py -q", True, "4 passed"),
           A("两件都做了：\n- 拖动预览：每 10 秒抽一帧，拼成 10x10 的大图，附 WebVTT 索引，和成片一起传到 OSS；\n"
             "- 日志级别改为 info。\n4 passed。预览图只对超过 1 分钟的片子生成，这是故意的。")],
          done=["缩略图雪碧图也生成一下"]),
        END,
    ]),
    ("b12-en-maps", "en", [
        S([U("The delivery-zone map is painfully slow with 40k polygons. Can you look at web/src/map/ZoneLayer.tsx?"),
           R("web/src/map/ZoneLayer.tsx"), E("web/src/map/ZoneLayer.tsx"), W("tiles/build_tiles.sh"),
           B("npm test -- ZoneLayer", True, "8 passed"),
           A("We were shipping all 40k polygons as one GeoJSON blob. I switched the layer to vector tiles built by "
             "tippecanoe (tiles/build_tiles.sh); first paint went from 6.2 s to 0.9 s and the tests pass. Zones are "
             "clipped at zoom 5 and below on purpose. A few loose ends: the tile build only works on macOS because the "
             "script calls gsed, the hover tooltip still reads from the old GeoJSON, and it'd be nice to simplify "
             "polygons per zoom level at some point.")],
          topic=["40k polygons"], files=["web/src/map/ZoneLayer.tsx"],
          todos=["only works on macOS", "tooltip still reads from the old GeoJSON",
                 "simplify polygons per zoom level"]),
        S([U("Tooltip first please."),
           E("web/src/map/ZoneTooltip.tsx"), E("web/src/map/ZoneLayer.tsx"),
           B("npm test -- Zone", True, "11 passed"),
           A("The hover card now takes its name, courier count and SLA straight from the feature properties in the "
             "tile, so the 14 MB blob isn't fetched at all anymore. 11 passed. The card is hidden on touch devices by "
             "design.")],
          done=["tooltip still reads from the old GeoJSON"]),
        S([U("Did you get the tile script running on Linux yet?"),
           A("Not yet — it still shells out to gsed, so on the Ubuntu CI runner it fails. I can switch it to portable "
             "sed -i.bak or to Python; which would you prefer?")], light=True, traps=["only works on macOS"]),
        S([U("Python is fine. Also add a legend for the SLA colours."),
           W("tiles/build_tiles.py"), E("web/src/map/Legend.tsx"),
           B("python tiles/build_tiles.py --check", True, "ok"), B("npm test -- Legend", True, "3 passed"),
           A("Added the SLA legend (green < 30 min, amber < 60, red above). I started porting the tile build to "
             "tiles/build_tiles.py — the download and tippecanoe steps are ported, the property join isn't yet, so "
             "CI still calls the shell version.")],
          traps=["only works on macOS"]),
        S([U("continue"),
           E("tiles/build_tiles.py"), E(".github/workflows/tiles.yml"),
           B("python tiles/build_tiles.py --all", True, "built 14 layers in 212s"),
           A("The property join is ported; CI on ubuntu-latest now runs tiles/build_tiles.py end to end and built all "
             "14 layers in 212 s. The old build_tiles.sh is deleted.")],
          done=["only works on macOS"]),
        END,
    ]),
    ("b12-zh-chat", "zh", [
        S([U("聊天服务的 WebSocket 断线后消息会丢，看看 chat/gateway.go"),
           R("chat/gateway.go"), E("chat/gateway.go"), B("go test ./chat/...", True, "ok  chat 1.8s"),
           A("丢消息是因为断线期间发出的消息只推给在线连接，没有落库。现在每条消息带递增的 seq，客户端重连时带上最后的 seq，"
             "服务端补发缺的部分，go test 通过。补发最多回溯 500 条，这是有意的上限。目前只支持单机，多实例之间的广播还没做；"
             "已读回执也还是每条消息发一次，群里人多的时候很浪费。")],
          topic=["断线后消息会丢"], files=["chat/gateway.go"],
          todos=["目前只支持单机", "已读回执也还是每条消息发一次"]),
        S([U("先把多实例那块做了吧，用 Redis pub/sub。下次记得提醒我给 gateway 加压测"),
           W("chat/fanout/redis.go"), E("chat/gateway.go"), B("go test ./chat/...", True, "ok  chat 2.4s"),
           A("加了 chat/fanout/redis.go：每个实例订阅房间频道，本地收到的消息先 publish 再各自下发。单测过了，但在 "
             "docker-compose 起三个实例的集成测试里，跨实例的消息顺序偶尔会乱，还没查清楚，先别上线。")],
          topic=["Redis pub/sub"], todos=["给 gateway 加压测"], traps=["目前只支持单机"]),
        S([U("顺序乱那个我看了下，是 publish 和本地下发不是同一个 goroutine。你按 seq 在接收端排一下序"),
           E("chat/fanout/redis.go"), E("chat/fanout/order.go"),
           B("go test ./chat/... -run Integration -count=20", True, "ok  chat 41.2s"),
           A("接收端按房间维护一个小窗口，按 seq 重排后再下发；三实例集成测试连跑 20 次都没有乱序。现在部署几个网关实例都行了。"
             "窗口等待最多 200ms，超时就按现有顺序发，这是有意的取舍。")],
          done=["目前只支持单机"]),
        S([U("已读回执那块怎么样了？"),
           A("还没动，现在仍然是每条消息单独回一次回执。要改的话，我建议客户端每 2 秒把最后读到的 seq 批量上报一次。")],
          light=True, traps=["已读回执也还是每条消息发一次"]),
        S([U("就按你说的改"),
           E("chat/receipt.go"), E("web/src/chat/useReceipts.ts"),
           B("go test ./chat/...", True, "ok  chat 2.6s"),
           A("改好了：客户端每 2 秒上报一次读到的最大 seq，服务端只存每人每房间一个水位线。200 人的群里回执流量降了 96%。"
             "测试都过。压测还是得你那边安排机器，我这里没有。")],
          done=["已读回执也还是每条消息发一次"], traps=["给 gateway 加压测"]),
        END,
    ]),
    ("b12-en-search", "en", [
        S([U("Search results for product names are bad — 'iphone case' returns cables first. Look at search/ranker.py"),
           R("search/ranker.py"), E("search/ranker.py"), E("search/analyzers.json"),
           B("pytest tests/search -q", True, "22 passed"),
           A("The title field had the same boost as the description, and the description of cables mentions iPhone a "
             "lot. Title is now boosted 3x and exact phrase matches get a bonus; on our 150 judged queries NDCG@10 went "
             "from 0.61 to 0.72. Tests pass. Remaining:\n1. synonyms are hard-coded in analyzers.json\n"
             "2. there's no offline eval job in CI\n3. typo tolerance for brand names")],
          topic=["iphone case"], files=["search/ranker.py"], notes=["0.61 to 0.72"],
          todos=["synonyms are hard-coded", "no offline eval job in CI", "typo tolerance for brand names"]),
        S([U("Let's get the relevance check running on every PR."),
           W("search/eval/run_eval.py"), E(".github/workflows/ci.yml"),
           B("python search/eval/run_eval.py --queries judged.jsonl", True, "NDCG@10=0.721 (baseline 0.720)"),
           A("Every pull request now runs search/eval/run_eval.py against the 150 judged queries and fails if NDCG@10 "
             "drops more than 0.01 below main. Current score 0.721. The job takes about 90 s, which is fine for now.")],
          done=["no offline eval job in CI"]),
        S([U("Brand typos next — 'samsnug' should find Samsung."),
           E("search/ranker.py"), E("search/analyzers.json"),
           B("pytest tests/search -q", True, "24 passed"),
           B("python search/eval/run_eval.py --queries judged.jsonl", True, "NDCG@10=0.724"),
           A("Added fuzziness AUTO on the brand field only, with a prefix length of 1 so short words don't go wild. "
             "'samsnug' and 'addidas' now hit the right brand; NDCG@10 0.724. I also moved the synonym list to the top "
             "of analyzers.json and sorted it, but it's still a static file baked into the index settings.")],
          done=["typo tolerance for brand names"], traps=["synonyms are hard-coded"]),
        S([U("thanks, good work"), A("You're welcome!")], light=True),
        S([U("Merch wants to edit synonyms without a deploy."),
           W("search/synonyms_admin.py"), E("search/index_settings.py"),
           B("pytest tests/search -q", True, "29 passed"),
           A("Synonym sets now live in the search_synonyms table; the admin page saves them and calls the reload "
             "endpoint, so merch can change them live with no redeploy. 29 passed. Reloads are rate-limited to one a "
             "minute — intended.")],
          done=["synonyms are hard-coded"]),
        END,
    ]),
    ("b12-zh-forms", "zh", [
        S([U("门诊的初诊问卷表单要改成分步填写，主文件是 forms/intake/IntakeWizard.vue"),
           W("forms/intake/IntakeWizard.vue"), E("forms/intake/schema.ts"),
           B("pnpm vitest run intake", True, "9 passed"),
           A("初诊问卷拆成了 4 步：基本信息、既往史、过敏史、知情同意，每一步离开时校验。9 个用例都过了。"
             "有几点还没做：\n- 过敏史那一步还没有草稿保存，刷新就没了\n- 身份证号只在前端校验，后端没校验\n"
             "- 屏幕阅读器读不出错误提示\n知情同意必须勾选才能提交，这是医务处要求的。")],
          topic=["分步填写"], files=["forms/intake/IntakeWizard.vue"],
          todos=["还没有草稿保存", "身份证号只在前端校验", "屏幕阅读器读不出错误提示"]),
        S([U("身份证号后端校验加一下"),
           E("api/intake/validators.py"), B("pytest tests/intake -q", True, "1 failed, 17 passed"),
           A("后端加了 18 位身份证的校验码检查，但港澳台居民居住证的号码被误判成非法，测试挂了一个，还在看。")],
          traps=["身份证号只在前端校验"]),
        S([U("继续"),
           E("api/intake/validators.py"), B("pytest tests/intake -q", True, "19 passed"),
           A("居住证号段单独放行了，19 个全过。")],
          done=["身份证号只在前端校验"]),
        S([U("问卷填到一半刷新页面，之前填的都在吗？顺便把过敏史的药物名改成下拉"),
           E("forms/intake/steps/Allergy.vue"), E("forms/intake/useDraft.ts"),
           B("pnpm vitest run intake", True, "14 passed"),
           A("两件都弄了：每一步的输入会存到 localStorage（按患者 id 区分，提交成功后清掉），刷新后能恢复；"
             "药物名改成了可搜索的下拉，数据来自院内药品字典。14 passed。下拉最多显示 50 条，这是故意的。"
             "另外校验失败时输入框现在是红框加图标，看得更清楚了；不过读屏软件仍然念不出这些提示，aria 那块还没接。")],
          done=["还没有草稿保存"], traps=["屏幕阅读器读不出错误提示"]),
        END,
    ]),
    ("b12-en-linter", "en", [
        S([U("I'm writing a lint rule for our SQL migrations: flag ALTER TABLE without a lock timeout. "
             "Entry point is sqlguard/rules/lock_timeout.py"),
           W("sqlguard/rules/lock_timeout.py"), W("tests/rules/test_lock_timeout.py"),
           B("pytest tests/rules -q", True, "12 passed"),
           A("The rule walks each migration's statements and reports ALTER TABLE unless a SET lock_timeout precedes it "
             "in the same transaction. 12 tests pass. It doesn't understand DO $$ blocks yet, so anything inside one is "
             "skipped silently; and we should probably add an autofix that inserts the SET line. Statements in "
             "comments are ignored, which is intended.")],
          topic=["lock timeout"], files=["sqlguard/rules/lock_timeout.py"],
          todos=["doesn't understand DO $$ blocks", "add an autofix"]),
        S([U("Rename the rule code to SG101."),
           E("sqlguard/rules/lock_timeout.py"), E("docs/rules.md"),
           B("pytest tests/rules -q", True, "12 passed"),
           A("Renamed to SG101 in the rule, the docs and the tests. Still green."),
           U("What does it print for a violation now?"),
           A("`migrations/0042_add_index.sql:3:1 SG101 ALTER TABLE without lock_timeout`."),
           U("Add --format json."),
           E("sqlguard/cli.py"), B("pytest tests/test_cli.py -q", True, "7 passed"),
           A("Added --format json: one object per finding with path, line, col, code, message. 7 passed."),
           U("Exit code should be 1 when there are findings."),
           E("sqlguard/cli.py"), B("pytest tests/test_cli.py -q", True, "8 passed"),
           A("Done — exits 1 on findings, 0 when clean, 2 on a parse error. Tests pass."),
           U("The DO block thing — can you at least warn when one is skipped?"),
           E("sqlguard/rules/lock_timeout.py"), B("pytest tests/rules -q", True, "13 passed"),
           A("It now emits an info-level note 'SG101 skipped: DO block not analysed' for each skipped block. Actually "
             "parsing the body is still to do."),
           U("Make the parser cache between files."),
           E("sqlguard/parser.py"), B("pytest -q", True, "41 passed"),
           A("The parsed-statement cache is keyed by file hash now; a 300-file repo lints in 1.4 s instead of 5.8 s."),
           U("And the fix — insert the SET line when --fix is passed."),
           E("sqlguard/rules/lock_timeout.py"), E("sqlguard/cli.py"),
           B("pytest tests/rules tests/test_cli.py -q", True, "22 passed"),
           A("With --fix, SG101 now rewrites the file and puts `SET lock_timeout = '5s';` right after BEGIN. "
             "22 passed."),
           U("Add a CHANGELOG entry."),
           E("CHANGELOG.md"),
           A("Added under Unreleased."),
           U("Bump to 0.4.0."),
           E("pyproject.toml"), B("pytest -q", True, "43 passed"),
           A("Version is 0.4.0; full suite 43 passed.")],
          topic=["SG101"], done=["add an autofix"], traps=["doesn't understand DO $$ blocks"],
          done_at={"add an autofix": 6}),
        S([U("continue with the DO blocks"),
           E("sqlguard/rules/lock_timeout.py"), E("sqlguard/parser.py"),
           B("pytest tests/rules -q", True, "17 passed"),
           A("PL/pgSQL bodies inside dollar-quoted blocks are now parsed too, so an ALTER TABLE in there is checked "
             "like any other; the skip note is gone. 17 passed.")],
          done=["doesn't understand DO $$ blocks"]),
        END,
    ]),
    ("b12-mix-i18n", "mixed", [
        S([U("我们的 React app 要支持日语和英文，先把 i18n 框架搭起来，用 react-i18next，入口 src/i18n/index.ts"),
           W("src/i18n/index.ts"), W("src/i18n/locales/ja.json"), E("src/App.tsx"),
           B("pnpm test", True, "31 passed"),
           A("i18n 搭好了，按浏览器语言选 ja/en/zh，缺的 key 回退到 zh。31 个测试通过。现在日期格式还是写死的 YYYY-MM-DD，"
             "没按 locale 走；结算页那几个文案也还没抽成 key。回退到 zh 是产品定的。")],
          topic=["react-i18next"], files=["src/i18n/index.ts"],
          todos=["日期格式还是写死的", "结算页那几个文案也还没抽成 key"]),
        S([U("Extract the checkout page strings please, and also the header nav."),
           E("src/pages/Checkout.tsx"), E("src/components/HeaderNav.tsx"), E("src/i18n/locales/ja.json"),
           B("pnpm test", True, "31 passed"),
           A("Header nav strings are all keys now (nav.home, nav.orders, nav.account) with ja/en translations. On "
             "checkout I did the title and the button, but the coupon error messages come from the API and are still "
             "Chinese literals — they need server-side codes first.")],
          traps=["结算页那几个文案也还没抽成 key"]),
        S([U("dates 用 Intl.DateTimeFormat 按 locale 显示，顺便把 missing key 的 warning 在生产关掉"),
           W("src/i18n/format.ts"), E("src/components/OrderRow.tsx"), E("src/i18n/index.ts"),
           B("pnpm test", True, "35 passed"),
           A("All date rendering goes through formatDate() in src/i18n/format.ts, which uses Intl.DateTimeFormat for "
             "the active language — ja shows 2026年11月26日, en shows Nov 26, 2026. Missing-key warnings are off in "
             "production builds. 35 passed.")],
          done=["日期格式还是写死的"]),
        S([U("coupon error 那几个后端已经改成返回 code 了，前端接一下"),
           E("src/pages/Checkout.tsx"), E("src/i18n/locales/en.json"),
           B("pnpm test", True, "37 passed"),
           A("Checkout is fully translated now: the coupon errors map the API codes (COUPON_EXPIRED, COUPON_MIN_SPEND…) "
             "to keys in all three languages. 37 passed.")],
          done=["结算页那几个文案也还没抽成 key"]),
        END,
    ]),
    ("b12-zh-routing", "zh", [
        S([U("配送路线规划太慢了，200 个点要算 40 秒，帮我优化 routing/solver.py"),
           R("routing/solver.py"), E("routing/solver.py"), B("pytest tests/test_solver.py -q", True, "10 passed"),
           A("换成了 OR-Tools 的 guided local search，并加了 8 秒的时间上限：200 个点现在 8 秒内出结果，总里程只比原来"
             "多 1.7%。10 个测试通过。时间上限是故意设的，调度员等不了更久。几个遗留问题：\n"
             "1. 距离矩阵还是用直线距离，没走真实路网\n2. 没考虑司机的午休时间窗\n3. 车辆载重是写死的 1.5 吨")],
          topic=["路线规划"], files=["routing/solver.py"],
          todos=["还是用直线距离", "没考虑司机的午休时间窗", "载重是写死的 1.5 吨"]),
        S([U("先接 OSRM 拿真实的路网距离"),
           W("routing/osrm_client.py"), E("routing/solver.py"),
           B("pytest tests/test_solver.py -q", True, "12 passed"),
           A("加了 routing/osrm_client.py，先调 OSRM 的 table 接口取行驶时长矩阵，再交给求解器；200 个点取矩阵约 1.2 秒。"
             "12 passed。OSRM 挂掉时会退回原来的估算，这是有意的兜底。"),
           U("车型载重也顺便从车辆表读吧"),
           E("routing/solver.py"), E("routing/fleet.py"), B("pytest tests -q", True, "1 failed, 30 passed"),
           A("改成从 vehicles 表读 capacity_kg 了，但冷链车的容量单位是升，测试 test_mixed_fleet 挂了，单位换算还没想好，先停在这里。")],
          done=["还是用直线距离"], traps=["载重是写死的 1.5 吨"]),
        S([U("冷链车按 1 升 = 0.9 公斤算"),
           E("routing/fleet.py"), B("pytest tests -q", True, "31 passed"),
           A("每辆车的容量现在按车辆档案来，冷链车按 0.9 kg/L 折算，31 个测试都过了。")],
          done=["载重是写死的 1.5 吨"]),
        S([U("今天调度那边反馈几个问题，我们一个个来。先看一下为什么周末的单子会排到周一"),
           E("routing/calendar.py"), B("pytest tests/test_calendar.py -q", True, "6 passed"),
           A("时区问题：订单时间是 UTC，排班表是北京时间，周日晚上 8 点后的单子跨到了周一。已统一成北京时间，6 passed。"),
           U("路线导出的 Excel 里门牌号被截断了"),
           E("routing/export.py"), B("pytest tests/test_export.py -q", True, "4 passed"),
           A("列宽是固定的 20 个字符，改成按内容自适应，最长 60。4 passed。"),
           U("地图上路线的颜色太接近了"),
           E("web/route-map/palette.ts"),
           A("换成了 12 色的高区分度色板，相邻路线不会同色。"),
           U("午休的事情呢，调度说司机 12 点到 13 点不能派送"),
           E("routing/solver.py"), E("routing/constraints.py"),
           B("pytest tests/test_solver.py -q", True, "15 passed"),
           A("每位司机加了 12:00–13:00 的休息区间，求解器不会把送货安排在这段时间里。15 passed。"),
           U("接口的超时改成 15 秒"),
           E("routing/api.py"),
           A("改好了。"),
           U("README 里加一下 OSRM 的启动方式"),
           E("README.md"),
           A("加了 docker run 启动 OSRM 和预处理 pbf 的三条命令。"),
           U("跑一下全量测试"),
           B("pytest -q", True, "58 passed"),
           A("58 passed。"),
           U("好，今天先这样"),
           A("好的。今天改了时区、导出列宽、路线配色、午休时段、接口超时和 README，测试全绿。")],
          topic=["周末的单子"], done=["没考虑司机的午休时间窗"],
          done_at={"没考虑司机的午休时间窗": 3}),
        END,
    ]),
    ("b12-en-vscode", "en", [
        S([U("Our VS Code extension's hover provider for config keys is flaky. Main file is src/hover.ts"),
           R("src/hover.ts"), E("src/hover.ts"), E("src/schema/loader.ts"),
           B("npm test", True, "27 passing"),
           A("The hover raced the schema load — the first hover after opening a workspace returned nothing. It now "
             "awaits the loader, and the schema is cached per workspace folder. 27 passing. Hovers on keys that aren't "
             "in the schema return nothing, which is intended. Two gaps: multi-root workspaces only read the first "
             "folder's schema, and the extension has no tests that run inside a real VS Code instance.")],
          topic=["hover provider"], files=["src/hover.ts"],
          todos=["only read the first folder's schema", "no tests that run inside a real VS Code"]),
        S([U("After this, remind me to publish 0.9.0 to Open VSX as well. Now: add completion for enum values."),
           W("src/completion.ts"), E("src/extension.ts"), B("npm test", True, "33 passing"),
           A("Enum completions work: typing inside a value position offers the schema's enum members with their "
             "descriptions. 33 passing. Reminder as asked: publish 0.9.0 to Open VSX too.")],
          topic=["enum values"], todos=["publish 0.9.0 to Open VSX"]),
        S([U("Let's get integration tests going with @vscode/test-electron."),
           W("test/integration/runTest.ts"), W("test/integration/hover.test.ts"), E("package.json"),
           B("npm run test:integration", False, "Error: Failed to download VS Code: ECONNRESET"),
           A("I scaffolded test/integration with @vscode/test-electron and one hover test, but the run fails — the "
             "VS Code download dies with ECONNRESET behind the proxy. Nothing has actually run in an editor yet.")],
          traps=["no tests that run inside a real VS Code"]),
        S([U("I published to Open VSX myself this morning. Set the proxy for the download and try again."),
           E("test/integration/runTest.ts"),
           B("npm run test:integration", True, "4 passing (12s)"),
           A("With HTTPS_PROXY passed through, the electron harness downloads 1.95.0 and the 4 specs pass in a real "
             "editor window (hover, completion, diagnostics, schema reload). Added it to CI on ubuntu under xvfb.")],
          done=["publish 0.9.0 to Open VSX", "no tests that run inside a real VS Code"],
          traps=["only read the first folder's schema"]),
        END,
    ]),
    ("b12-zh-scrape", "zh", [
        S([U("招标公告的爬虫经常被封，帮我改一下 crawler/spiders/bids.py"),
           R("crawler/spiders/bids.py"), E("crawler/spiders/bids.py"), E("crawler/settings.py"),
           B("scrapy check bids", True, "OK"),
           A("被封是因为并发 32 而且没有间隔。并发降到 4，加了 1–3 秒的随机延迟，连续跑 2 小时没有被封。"
             "每天凌晨 2 点跑一次，这是故意避开对方高峰。还有：附件 PDF 现在没下载，只存了链接；省级站的分页"
             "翻到第 50 页就停了，后面的抓不到。")],
          topic=["招标公告"], files=["crawler/spiders/bids.py"],
          todos=["附件 PDF 现在没下载", "翻到第 50 页就停了"]),
        S([U("有空把去重也做一下，同一个公告在市级和省级站都会出现。今天先看分页"),
           E("crawler/spiders/bids.py"), B("scrapy crawl bids -a site=province -s CLOSESPIDER_PAGECOUNT=80", True,
                                          "scraped 1580 items, 79 pages"),
           A("省级站第 50 页之后的链接是 JS 拼的，改成直接构造 page 参数请求，试跑抓到了 79 页 1580 条，全部分页都能走完了。")],
          topic=["分页"], todos=["去重也做一下"], done=["翻到第 50 页就停了"]),
        S([U("附件还没下吧？"), A("还没有，目前 items 里只有 attachment_url 字段。")], light=True,
          traps=["附件 PDF 现在没下载"]),
        S([U("继续"),
           E("crawler/pipelines.py"), E("crawler/settings.py"),
           B("scrapy crawl bids -s CLOSESPIDER_ITEMCOUNT=200", True, "scraped 200 items, files: 173 downloaded"),
           A("FilesPipeline 接上了，招标文件会存到 OSS 的 bids/ 目录，200 条里 173 个附件落盘，其余 27 条原本就没有附件。"
             "另外公告标题里的全角空格也顺手清理了。")],
          done=["附件 PDF 现在没下载"], traps=["去重也做一下"]),
        END,
    ]),
    ("b12-en-a11y", "en", [
        S([U("We failed the accessibility audit on the booking flow. Start with app/components/DatePicker.tsx"),
           R("app/components/DatePicker.tsx"), E("app/components/DatePicker.tsx"),
           B("npx jest DatePicker", True, "14 passed"), B("npx axe http://localhost:3000/book", True, "0 violations"),
           A("The date picker now follows the grid pattern: arrow keys move between days, Enter selects, Escape "
             "closes and focus returns to the input. axe reports 0 violations on /book and the tests pass. The "
             "colour contrast of disabled days is 2.9:1 on purpose — WCAG exempts disabled controls. Still open from "
             "the audit: the seat map isn't reachable by keyboard, the timeout warning gives no way to extend the "
             "session, and the error summary isn't announced.")],
          topic=["accessibility audit"], files=["app/components/DatePicker.tsx"],
          todos=["seat map isn't reachable by keyboard", "no way to extend the session",
                 "error summary isn't announced"]),
        S([U("Do the error summary, then the seat map."),
           E("app/components/ErrorSummary.tsx"), E("app/components/SeatMap.tsx"),
           B("npx jest", True, "52 passed"),
           A("ErrorSummary is now a role=alert region that takes focus on submit, so NVDA and VoiceOver read it out. "
             "For the seat map I added roving tabindex to the rows; seats within a row can't be reached with arrow "
             "keys yet — I'll do that next.")],
          done=["error summary isn't announced"], traps=["seat map isn't reachable by keyboard"]),
        S([U("Ship what we have. I'll review the seat map with the auditor on Friday."),
           B("git tag v2.3.1", True, ""),
           A("Tagged v2.3.1 with the date picker and the error summary. The seat map's in-row navigation stays "
             "open for after Friday.")], light=True, traps=["seat map isn't reachable by keyboard"]),
        S([U("Auditor's feedback: in-row arrow keys, and Space to pick a seat."),
           E("app/components/SeatMap.tsx"), B("npx jest SeatMap", True, "19 passed"),
           B("npx axe http://localhost:3000/book/seats", True, "0 violations"),
           A("Every seat can now be reached and chosen without a mouse: Tab enters the map, arrows move in and "
             "between rows, Space toggles the seat. 19 passed, axe clean. The auditor's retest is up to you to "
             "schedule.")],
          done=["seat map isn't reachable by keyboard"]),
        END,
    ]),
    ("b12-zh-recs", "zh", [
        S([U("首页推荐的点击率掉了，看看 recs/ranker/train.py 里的模型"),
           R("recs/ranker/train.py"), E("recs/ranker/features.py"),
           B("python recs/ranker/train.py --eval", True, "AUC 0.781 -> 0.803"),
           A("原因是 item 的曝光计数特征上周开始一直是 0：上游表改了字段名。已经改成新字段，离线 AUC 从 0.781 回到 0.803。"
             "曝光计数按天更新一次，这是故意的。另外冷启动的新商品基本拿不到曝光，最好加个探索位；"
             "训练脚本也只能在 A100 那台机器上跑，路径写死了。")],
          topic=["点击率掉了"], files=["recs/ranker/train.py"],
          todos=["最好加个探索位", "只能在 A100 那台机器上跑"]),
        S([U("路径那个改成配置吧"),
           E("recs/ranker/train.py"), W("recs/ranker/config.yaml"),
           B("python recs/ranker/train.py --config recs/ranker/config.yaml --dry-run", True, "ok"),
           A("数据和 checkpoint 的目录改成从 config.yaml 读，dry-run 通过了。不过 cuda 设备号和 NCCL 的设置还是按 A100 "
             "那台写的，别的机器上多卡训练还起不来。")],
          traps=["只能在 A100 那台机器上跑"]),
        S([U("我自己把 NCCL 那几行改成从环境变量读了，在 3090 的机器上也跑通了 2 个 epoch。你帮我看下新商品的事"),
           E("recs/serving/blend.py"), B("pytest tests/test_blend.py -q", True, "8 passed"),
           A("首页前 20 个位置里固定留 2 个给上架 7 天内的商品，按类目轮换；线上流量 5% 灰度。8 passed。")],
          done=["只能在 A100 那台机器上跑", "最好加个探索位"]),
        S([U("灰度一周的数据出来了吗"), A("出来了：新商品的曝光从 0.3% 提升到 6.1%，整体点击率持平。")], light=True),
        END,
    ]),
    ("b12-en-cms", "en", [
        S([U("Editors keep overwriting each other's changes in the CMS. Look at cms/api/articles.py"),
           R("cms/api/articles.py"), E("cms/api/articles.py"), E("cms/models.py"),
           B("pytest tests/api -q", True, "34 passed"),
           A("Saves were last-write-wins. Articles now carry a version number; a save with a stale version gets 409 "
             "and the editor shows a diff. 34 passed. The API returns 404 for drafts you don't own, by design. "
             "Things I noticed along the way: scheduled publishing ignores the editor's timezone, image uploads have "
             "no size limit, and we should probably keep a revision history at some point.")],
          topic=["overwriting each other's changes"], files=["cms/api/articles.py"],
          todos=["ignores the editor's timezone", "image uploads have no size limit", "keep a revision history"]),
        S([U("Cap uploads at 10 MB and resize anything wider than 2400 px."),
           E("cms/api/media.py"), B("pytest tests/api/test_media.py -q", True, "9 passed"),
           A("media: done — files over 10 MB get a 413, and wider images are downscaled to 2400 px on upload. 9 passed.")],
          done=["image uploads have no size limit"]),
        S([U("Publish time bug: an editor in Berlin scheduled for 09:00 and it went out at 10:00."),
           E("cms/scheduling.py"), B("pytest tests/test_scheduling.py -q", True, "2 failed, 11 passed"),
           A("The scheduler stores naive datetimes and treats them as UTC. I made it store aware datetimes, but the "
             "existing scheduled rows are still naive and two tests fail on the migration; not fixed yet.")],
          traps=["ignores the editor's timezone"]),
        S([U("continue"),
           E("cms/scheduling.py"), W("cms/migrations/0031_aware_publish_at.py"),
           B("pytest tests/test_scheduling.py -q", True, "13 passed"),
           A("Existing rows are converted using each author's profile zone; an article set for 09:00 Berlin now goes "
             "out at 08:00 UTC. 13 passed. Also fixed a typo in the publish email.")],
          done=["ignores the editor's timezone"]),
        S([U("Revisions — how hard would that be?"),
           A("Moderate: a revisions table written on each save, plus a compare view. I'd do it next week; nothing "
             "written yet.")], light=True, traps=["keep a revision history"]),
        END,
    ]),
    ("b12-mix-gameserver", "mixed", [
        S([U("我们的多人对战 game server 延迟抖动很大，帮我看看 server/tick.go"),
           R("server/tick.go"), E("server/tick.go"), B("go test ./server/...", True, "ok  server 3.1s"),
           A("tick 循环用的是 time.Sleep，GC 停顿时会漂。改成了 time.Ticker 加固定步长追帧，60 人房间 tick 抖动从 "
             "±18ms 降到 ±3ms。go test 通过。单个 tick 最多追 3 帧，超过就丢，这是故意的。还有两个问题：断线重连后"
             "玩家状态不会恢复，直接被踢回大厅；反作弊的速度校验也只在客户端做。")],
          topic=["延迟抖动"], files=["server/tick.go"],
          todos=["玩家状态不会恢复", "速度校验也只在客户端做"]),
        S([U("Let's do the server-side movement check. Also the lobby list is slow."),
           E("server/movement.go"), E("server/lobby.go"), B("go test ./server/...", True, "ok  server 3.4s"),
           A("Lobby list is paginated and cached for 2 s now, from 340 ms to 12 ms per request. For movement, I added "
             "the max-speed table per hero, but the check only logs violations for now — nothing is rejected yet."),
           U("Keep it in log-only mode for a day so we can see false positives."),
           A("OK — it stays log-only; I'll look at the violation counts tomorrow.")],
          traps=["速度校验也只在客户端做"]),
        S([U("false positive 很少，只有冲刺技能那种，把它放进白名单然后开始真正拒绝"),
           E("server/movement.go"), B("go test ./server/...", True, "ok  server 3.5s"),
           A("Dash skills are whitelisted; any move faster than the hero's max speed (+10% tolerance) is now rejected "
             "server-side and the player is snapped back. Tests pass.")],
          done=["速度校验也只在客户端做"]),
        S([U("匹配的 ELO 公式调一下，新手被虐得太惨"),
           E("server/match/elo.go"), B("go test ./server/match/...", True, "ok  match 0.9s"),
           A("新手前 10 局 K 值用 40，之后 24，匹配窗口从 ±200 收窄到 ±120。测试过了。"),
           U("房间里加一个观战位"),
           E("server/room.go"), B("go test ./server/...", True, "ok  server 3.8s"),
           A("每个房间最多 2 个观战位，观战者只收快照不发输入。测试过。"),
           U("重连呢？"),
           E("server/session.go"), E("server/room.go"), B("go test ./server/...", True, "ok  server 4.0s"),
           A("掉线的玩家现在保留 60 秒：位置、血量和背包都存在房间里，60 秒内用同一个 token 回来就直接回到原来的对局。"
             "测试过了。"),
           U("日志太多了，把 tick 的 debug 关掉"),
           E("server/tick.go"),
           A("tick 的 debug 日志关掉了。"),
           U("加个 /healthz"),
           E("server/http.go"), B("go test ./server/...", True, "ok  server 4.0s"),
           A("/healthz 返回 200 和当前房间数。"),
           U("Dockerfile 改成多阶段构建"),
           E("server/Dockerfile"), B("docker build -t gs:dev server", True, "Successfully built"),
           A("改成了 golang:1.22 构建 + distroless 运行，镜像从 910MB 降到 24MB。"),
           U("go vet 跑一下"),
           B("go vet ./...", True, ""),
           A("go vet 没有报错。"),
           U("好，先这样"),
           A("好的。")],
          topic=["ELO"], done=["玩家状态不会恢复"],
          done_at={"玩家状态不会恢复": 2}),
        END,
    ]),
]
