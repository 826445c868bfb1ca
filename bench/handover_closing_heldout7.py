"""The seventh to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind8``, from c1d9a97) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, scripts/code_memory/text/lexicon.py, docs/summaries.md, the
Handover sections of BENCHMARKS.md) nor the scenarios of the earlier sets (``handover_tuning_set.py``,
``handover_closing_set.py``, ``handover_closing_heldout.py`` … ``handover_closing_heldout6.py``,
``handover_capture_set.py``, ``handover_capture2_set.py``, ``handover_traps_set.py``,
``handover_progress_set.py``, ``handover_wrongs_set.py``, ``handover_bilingual_set.py``) beyond their
docstrings and first scenario. It is for the NEXT round of rules: it judges them afterwards, beside
``handover_closing_heldout6.py``. Do not read its scenarios or its misses to change a rule — when it
has been read, write a new set instead.

14 projects, 3–5 sessions each (57 transcripts, 9 of them short) plus a last start: 6 Chinese,
6 English, 2 mixed (a Chinese speaker with English code and terms, switching language between
sessions). Domains, away from the earlier sets': a Go + Redis URL shortener, WeChat Pay refunds,
a PaddleOCR invoice recognizer, a Raspberry Pi Pico W (MicroPython) sensor node over MQTT, a Spark
migration of a Hive table to Iceberg, a Node + Redis game leaderboard, a Rust API under systemd and
Caddy, the OAuth device flow in a Go CLI, Pagefind search on a Hugo docs site, a Dagster weather
pipeline, Expo push notifications, usage-based metering and invoice lines, Ray Tune on LightGBM,
Zigbee2MQTT with Home Assistant.

- 37 open to-dos planted (15 Chinese, 18 English, 4 mixed — all 4 stated in Chinese), stated as a
  state ("… is hard-coded", "… is sitting in …", "nothing ships …", "nothing schedules …",
  "… isn't subtracted", "… are ignored", "indexed twice", "写死", "还不支持", "还没验签", "几乎没有",
  "还指向 …", "只支持单机", "还是默认的"), as an indirect or hedged wish ("we should probably …",
  "at some point it'd be nice to …", "最好改成 …", "回头有空把 …", "得加个 …"), in bulleted or numbered
  lists of what is left, in the person's own prompt ("remind me after this to …"), and embedded in a
  longer report.
- 30 of them finished later in other words (12 Chinese, 14 English, 4 mixed, 2 of them in the other
  language): a synonym, a report with numbers, the person saying they did it (also in a short
  session), a request and work that passes, evidence alone (a bare "continue" / "继续", the to-do's
  file edited and its run passing), a bulleted status list with ✅, "已经合到 main", "it's merged".
- 24 traps (``traps`` on a session: an open to-do that session must NOT close; 13 Chinese, 9
  English, 2 mixed): 6 sessions that finish other work in the to-do's own area (the same file,
  page, token code or notification module) and leave it or say it is still so; 3 half-done reports;
  3 failing runs; 3 where a sibling in the same list is finished and the to-do left; 4 "not yet" /
  "还没" answers to a question; 3 reports that put it next; 2 put off again.
- Each project's first session plants its topic and main file.
- Most work sessions' final reports also hold 1–3 sentences that look like open work to a naive rule
  but are not: how the code works now, a result, a handled pitfall, an intended limit ("这是故意的",
  "这是有意的", "that's deliberate", "it's intended"), a number measured.

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``R``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout7`` runs it (scoring as for
``closing-heldout6``; ``spurious_todos`` counts the ``[ ]`` lines at a scored start that hold no
planted to-do of the project).

BASELINE — unchanged main (the rules of c1d9a97, the worktree's own scripts; the set as of commit
fd4d75a), ``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout7 --json OUT``,
offline summarizer, 2026-11-26 14:15 UTC, load average 0.28 at the start and 0.14 at the end (2
shared cores), 137 s: open to-dos captured (on a ``[ ]`` line of the next start) 28/37 (Chinese
11/15, English 14/18, mixed 3/4); finished to-dos still shown 8/30; closes right 13, missed 8,
wrong 2; traps held 18, sprung 1, untested 5 (their to-do was never captured); spurious to-dos 19 of
89 ``[ ]`` lines at the scored starts; topics 14/14; files 14/14; leaks 0; false decisions 0; start
context p50 5,997 characters (max 5,998); SessionStart p50 46.9 ms.
done_at (round 9): the turn of a multi-turn session that finishes a planted to-do, annotated
by an engineer who writes no rules, counts only reported.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

SCENARIOS = [
    ("b8-zh-shortlink", "zh", [
        S([U("帮我用 Go 写个短链服务，入口放 cmd/shortlink/main.go，存储先用 Redis"),
           W("cmd/shortlink/main.go"), W("internal/store/redis.go"),
           B("go test ./...", True, "ok  \tshortlink/internal/store\t0.41s"),
           A("短链服务跑起来了：POST /links 生成 7 位 base62 的码，GET /:code 302 跳转，码不存在时返回 404。"
             "测试都过了。现在过期时间是写死的 30 天，还不能按链接单独设置；访问统计也还没做，"
             "目前只是打了一行日志。Redis 连接池我设成了 50，压测时 p99 在 8ms 以内。")],
          topic=["短链服务"], files=["cmd/shortlink/main.go"],
          todos=["过期时间是写死的 30 天", "访问统计也还没做"]),
        S([U("跳转那块加个缓存吧，热点码别每次都打 Redis"),
           E("cmd/shortlink/main.go"), W("internal/cache/lru.go"),
           B("go test ./...", True, "ok  \tshortlink/internal/cache\t0.22s"),
           A("加了进程内 LRU，容量 1 万条，热点码命中后不再访问 Redis，压测 QPS 从 1.2 万到 3.1 万。"
             "一开始删链接后缓存没失效，已经在删除时同步清掉了。过期时间那块这次没碰，还是固定 30 天。")],
          traps=["过期时间是写死的 30 天"]),
        S([U("继续，把 TTL 做成创建时可传的参数，不传就默认 30 天"),
           E("internal/store/redis.go"), E("cmd/shortlink/main.go"),
           B("go test ./...", True, "ok  \tshortlink/internal/store\t0.38s\nok  \tshortlink/internal/cache\t0.20s"),
           A("POST /links 现在接受 ttl_days（1 到 365），超出范围返回 400，缓存条目也跟着这个有效期走。"
             "点击数的统计我打算下一步用 Redis 的 HINCRBY 来做。")],
          done=["过期时间是写死的 30 天"], traps=["访问统计也还没做"]),
        S([U("点击计数我自己加上了，按天一个 hash，已经合到 main 了。顺便问下 LRU 要不要设过期？"),
           A("不用单独设，条目的有效期已经跟着链接的 TTL 走了。")],
          done=["访问统计也还没做"]),
        END,
    ]),
    ("b8-zh-wxrefund", "zh", [
        S([U("要接微信支付的退款，写在 billing/refund.py，先支持全额退款"),
           W("billing/refund.py"), W("tests/test_refund.py"),
           B("python -m pytest tests/test_refund.py -q", True, "7 passed"),
           A("全额退款接好了，调用 v3 的 /refunds 接口，证书从环境变量读。7 个测试都通过。剩下的：\n"
             "- 部分退款还不支持；\n"
             "- 退款结果回调还没验签，现在是直接信任请求体；\n"
             "- 退款单号目前用 uuid，对账时不好查，最好改成带日期前缀的。\n"
             "沙箱里退一笔大概 3 秒到账，这是微信那边的速度。")],
          topic=["微信支付的退款"], files=["billing/refund.py"],
          todos=["部分退款还不支持", "回调还没验签", "改成带日期前缀的"]),
        S([U("回调验签先弄，这个有安全问题"),
           E("billing/refund_notify.py"), E("tests/test_refund.py"),
           B("python -m pytest tests/test_refund.py -q", True, "11 passed"),
           A("退款通知现在会用平台证书校验 Wechatpay-Signature，签名不对直接返回 401，并且解密 resource 字段后才落库。"
             "11 个测试全过。退款单号顺手看了下，生成逻辑在 billing/refund.py 里，这次先没改。")],
          done=["回调还没验签"], traps=["改成带日期前缀的"]),
        S([U("部分退款做了吗？"), A("还没，目前 amount.refund 始终等于订单总额。")], light=True,
          traps=["部分退款还不支持"]),
        S([U("做一下部分退款，要校验累计退款不能超过原订单金额"),
           E("billing/refund.py"), E("tests/test_refund.py"),
           B("python -m pytest tests/test_refund.py -q", False,
             "10 passed, 2 failed\nFAILED tests/test_refund.py::test_partial_twice - AssertionError: 150 != 100"),
           A("部分退款的接口参数加上了，但累计金额校验还有问题：同一订单退两次时没算上第一次的金额，两个测试挂了。"
             "我明天接着查。")],
          traps=["部分退款还不支持"]),
        S([U("继续"),
           E("billing/refund.py"),
           B("python -m pytest tests/test_refund.py -q", True, "13 passed"),
           A("累计金额现在从 refund_records 表里求和，同一订单退多次也不会超过原金额，13 个测试都过了。"
             "退款单号改成 R+yyyymmdd+6 位序号，财务那边查起来方便多了。")],
          done=["部分退款还不支持", "改成带日期前缀的"]),
        END,
    ]),
    ("b8-zh-ocr", "zh", [
        S([U("用 PaddleOCR 训练一个发票识别模型，数据在 data/invoice，训练配置放 configs/invoice_rec.yml"),
           W("configs/invoice_rec.yml"), W("tools/split_dataset.py"),
           B("python tools/train.py -c configs/invoice_rec.yml", True, "epoch 50 acc: 0.912 norm_edit_dis: 0.968"),
           A("识别模型训练了 50 轮，验证集准确率 91.2%。数据增强目前只开了随机旋转，这是故意的，发票基本都是正放的。"
             "手写金额的样本几乎没有，这类发票准确率肯定不行；模型也还没导出成 inference 格式，部署那边用不了。"
             "回头有空把字典里的生僻字补一补。")],
          topic=["发票识别"], files=["configs/invoice_rec.yml"],
          todos=["手写金额的样本几乎没有", "还没导出成 inference 格式", "字典里的生僻字补一补"]),
        S([U("导出一下推理模型"),
           B("python tools/export_model.py -c configs/invoice_rec.yml -o Global.save_inference_dir=out/rec", True,
             "inference model saved to out/rec (inference.pdmodel, inference.pdiparams)"),
           B("python tools/infer/predict_rec.py --rec_model_dir=out/rec --image_dir=data/invoice/val", True,
             "avg time 6.1ms per image, acc 0.911"),
           A("推理模型导出到 out/rec 了，用验证集跑了一遍，单张 6.1ms，准确率 91.1%，和训练时一致。")],
          done=["还没导出成 inference 格式"]),
        S([U("生僻字和手写那两个呢？"),
           A("字典我补了一半，加了 38 个常见的生僻字，另外那批企业名里的字还没整理。手写样本还是没有，等你们那边采集。")],
          light=True, traps=["字典里的生僻字补一补", "手写金额的样本几乎没有"]),
        S([U("手写金额的我让同事标了 1200 张，放在 data/invoice/handwrite 了，加进去重训一下"),
           E("configs/invoice_rec.yml"),
           B("python tools/train.py -c configs/invoice_rec.yml", True,
             "epoch 50 acc: 0.934 norm_edit_dis: 0.979\nhandwrite subset acc: 0.872"),
           A("加入 1200 张手写金额样本重训后，总体准确率 93.4%，手写子集 87.2%，之前手写基本认不出来。"
             "学习率还是 0.001，没调，这个值目前够用。")],
          done=["手写金额的样本几乎没有"], traps=["字典里的生僻字补一补"]),
        END,
    ]),
    ("b8-zh-pico", "zh", [
        S([U("树莓派 Pico W 做个温湿度采集，用 MicroPython，SHT30 传感器，主程序 main.py，数据 MQTT 发出去"),
           W("main.py"), W("lib/sht30.py"),
           B("mpremote run main.py", True, "T=23.4C RH=51.2% published to sensors/room1"),
           A("采集跑通了，每 10 秒读一次 SHT30 发到 sensors/room1。WiFi 密码现在写死在 main.py 里。"
             "断网之后也不会自动重连，要重新上电才行。目前只在一个房间测过，这是按你说的先做单点。")],
          topic=["温湿度采集"], files=["main.py"],
          todos=["WiFi 密码现在写死在 main.py 里", "不会自动重连"]),
        S([U("加个看门狗，程序卡死了能自己重启"),
           E("main.py"),
           B("mpremote run main.py", True, "WDT enabled (8000 ms)\nT=23.1C RH=50.8% published to sensors/room1"),
           A("看门狗开了，超时 8 秒，主循环每次喂狗，测试时故意卡住 10 秒板子自己重启了。"
             "断网重连那块我下一步再做，WiFi 配置也还在 main.py 里。")],
          traps=["不会自动重连", "WiFi 密码现在写死在 main.py 里"]),
        S([U("WiFi 配置挪到 config.json 里，别放代码里"),
           W("config.json"), E("main.py"),
           B("mpremote cp config.json :config.json && mpremote run main.py", True,
             "loaded config.json (ssid=lab-2g)\nT=23.0C RH=50.5% published to sensors/room1"),
           A("SSID 和密码现在从板子上的 config.json 读，main.py 里已经没有明文了，config.json 加进了 .gitignore。")],
          done=["WiFi 密码现在写死在 main.py 里"]),
        S([U("断网那个我试着改了，拔了路由器再插上，它能自己连回去接着发了，你帮我看眼 main.py 写得有没有问题"),
           R("main.py"),
           A("看过了，重连循环里有退避，从 1 秒加到 30 秒封顶，MQTT 也会重新 connect，写法没问题。")],
          done=["不会自动重连"]),
        END,
    ]),
    ("b8-zh-iceberg", "zh", [
        S([U("把用户行为表从 Hive 迁到 Iceberg，用 Spark 写迁移作业 jobs/migrate_events.py"),
           W("jobs/migrate_events.py"), W("jobs/schema.py"),
           B("spark-submit jobs/migrate_events.py --date 2026-11-01", True, "wrote 48,210,331 rows to lake.events"),
           A("11 月 1 号的分区迁过去了，4821 万行，行数和 Hive 对得上。分区现在是按天的，这是有意和原表保持一致。"
             "还有几件事：\n1. 历史分区还没回灌，现在只迁了一天；\n2. 小文件太多，一个分区 2000 多个文件，"
             "得加个 compaction；\n3. 下游的报表 SQL 还指向 Hive 表。")],
          topic=["Iceberg"], files=["jobs/migrate_events.py"],
          todos=["历史分区还没回灌", "得加个 compaction", "下游的报表 SQL 还指向 Hive 表"]),
        S([U("先做合并小文件"),
           W("jobs/compact_events.py"),
           B("spark-submit jobs/compact_events.py --table lake.events", True,
             "rewrite_data_files: 2143 files -> 37 files (target 512MB)"),
           A("用 rewrite_data_files 把一个分区从 2143 个文件合成了 37 个，查询扫描时间从 41 秒降到 6 秒。"
             "作业每天凌晨跑一次，这是故意的，白天不抢资源。历史数据回灌我开了个头，"
             "10 月份的 31 个分区跑完了 12 个。")],
          done=["得加个 compaction"], traps=["历史分区还没回灌"]),
        S([U("继续"),
           E("jobs/migrate_events.py"),
           B("spark-submit jobs/migrate_events.py --from 2025-01-01 --to 2026-10-31", True,
             "backfilled 669 partitions, 21,904,117,002 rows; row counts match Hive"),
           A("从 2025 年 1 月到 10 月底的 669 个分区都补进去了，总共 219 亿行，每个分区行数都和 Hive 核对过。")],
          done=["历史分区还没回灌"]),
        S([U("报表那边的 SQL 改了吗？"),
           A("还没改，BI 里的 12 个报表还在查 hive.events。")],
          light=True, traps=["下游的报表 SQL 还指向 Hive 表"]),
        END,
    ]),
    ("b8-zh-leaderboard", "zh", [
        S([U("给小游戏做个排行榜服务，Node + Redis zset，代码在 server/leaderboard.ts"),
           W("server/leaderboard.ts"), W("server/routes.ts"),
           B("npm test", True, "Tests: 14 passed, 14 total"),
           A("排行榜好了：提交分数用 ZADD GT，只保留最高分，查前 100 名和自己的名次都是一次请求。14 个测试都过。"
             "目前没做防作弊，客户端报多少分就记多少；排行榜也只有总榜，周榜还没有。"
             "同分时按先达到的排前面，这是用分数的小数部分编码时间实现的。")],
          topic=["排行榜"], files=["server/leaderboard.ts"],
          todos=["没做防作弊", "周榜还没有"]),
        S([U("周榜加一下，每周一零点重置"),
           E("server/leaderboard.ts"),
           B("npm test", True, "Tests: 18 passed, 18 total"),
           A("周榜用 lb:week:{ISO 周号} 做 key，过期 14 天，周一零点自然切到新 key，不需要定时任务。"
             "18 个测试都过。")],
          done=["周榜还没有"]),
        S([U("防作弊那块先加个分数上限校验"),
           E("server/leaderboard.ts"), E("server/routes.ts"),
           B("npm test", True, "Tests: 20 passed, 20 total"),
           A("单局分数超过 99999 直接拒绝，返回 422。不过这只挡得住明显的乱报，签名校验和回放校验都还没做，"
             "真正的防作弊还差得远。")],
          traps=["没做防作弊"]),
        S([U("谢谢，先这样"), A("好的。")], light=True),
        END,
    ]),
    ("b8-en-caddy", "en", [
        S([U("Let's deploy the Rust API on the new VPS: a systemd unit plus Caddy in front. Put the unit in "
             "deploy/api.service"),
           W("deploy/api.service"), W("deploy/Caddyfile"),
           B("sudo systemctl restart api && curl -sI https://api.example.dev/health", True, "HTTP/2 200"),
           A("The API is up behind Caddy with automatic HTTPS; /health answers 200 over HTTP/2. The unit restarts "
             "on failure with a 5 s delay. Logs only go to journald for now, so nothing ships them anywhere. "
             "The deploy itself is a manual scp + restart — we should probably script that. "
             "Also the database password is sitting in the unit file as an Environment= line.")],
          topic=["systemd unit plus Caddy"], files=["deploy/api.service"],
          todos=["we should probably script that", "password is sitting in the unit file",
                 "nothing ships them anywhere"]),
        S([U("Move the DB password out of the unit file, use systemd credentials"),
           E("deploy/api.service"),
           B("sudo systemctl daemon-reload && sudo systemctl restart api && systemctl show api -p LoadCredential",
             True, "LoadCredential=db_password:/etc/api/db_password"),
           A("The password now comes from LoadCredential= (/etc/api/db_password, mode 0400, root only) and the "
             "binary reads it from $CREDENTIALS_DIRECTORY. The unit file has no secrets left. The API restarted "
             "cleanly and /health is still 200.")],
          done=["password is sitting in the unit file"]),
        S([U("Can you start on the deploy script?"),
           W("deploy/deploy.sh"),
           B("bash deploy/deploy.sh", False, "building release... ok\nrsync: connection unexpectedly closed (code 12)"),
           A("I wrote deploy/deploy.sh (cargo build --release, rsync, restart) but the rsync step fails on the "
             "VPS — rsync isn't installed there. The build half works; I'll pick the copy step up next.")],
          traps=["we should probably script that"]),
        S([U("I installed rsync on the box. continue"),
           E("deploy/deploy.sh"),
           B("bash deploy/deploy.sh", True, "building release... ok\nsent 8.4M bytes\nrestarted api\nhealth: 200"),
           A("One command ships it now: `deploy/deploy.sh` builds, rsyncs the binary, restarts the unit and "
             "checks /health — the whole run takes about 40 s.")],
          done=["we should probably script that"]),
        END,
    ]),
    ("b8-en-devicelogin", "en", [
        S([U("Our CLI needs `acme login` to work over SSH, so implement the OAuth device authorization flow in "
             "cmd/login.go"),
           W("cmd/login.go"), W("internal/auth/device.go"),
           B("go test ./internal/auth/...", True, "ok  \tacme/internal/auth\t0.31s"),
           A("`acme login` now prints the verification URL and user code, polls the token endpoint at the "
             "interval the server asks for, and backs off on slow_down. Tests pass. The token is saved in "
             "plain text in ~/.acme/token, which isn't great — the OS keychain would be better. There's no "
             "`acme logout` yet. Also, refresh tokens are ignored, so people get kicked out after an hour. "
             "The poll gives up after 10 minutes; that matches the device code lifetime, so it's intended.")],
          topic=["device authorization flow"], files=["cmd/login.go"],
          todos=["saved in plain text in ~/.acme/token", "no `acme logout` yet", "refresh tokens are ignored"]),
        S([U("Add the logout command first, it's the easy one"),
           W("cmd/logout.go"), E("internal/auth/device.go"),
           B("go test ./...", True, "ok  \tacme/cmd\t0.12s\nok  \tacme/internal/auth\t0.29s"),
           A("`acme logout` revokes the token at /oauth/revoke and deletes the local file; if the revoke call "
             "fails it still deletes the file and warns. While I was in the token code I also made the file "
             "mode 0600 — it's still plain text on disk though, the keychain move is a separate change.")],
          done=["no `acme logout` yet"], traps=["saved in plain text in ~/.acme/token"]),
        S([U("Have you looked at the refresh token thing?"),
           A("Not yet — sessions still expire after 60 minutes and the CLI asks you to log in again.")],
          light=True, traps=["refresh tokens are ignored"]),
        S([U("continue"),
           E("internal/auth/device.go"), W("internal/auth/refresh_test.go"),
           B("go test ./internal/auth/... -run Refresh -v", True,
             "=== RUN   TestRefreshBeforeExpiry\n--- PASS\n=== RUN   TestRefreshRotates\n--- PASS\nok"),
           A("Before each API call the CLI now trades the refresh token for a new access token when fewer than "
             "5 minutes are left, and stores the rotated refresh token. Stayed logged in across a 3-hour test run.")],
          done=["refresh tokens are ignored"]),
        S([U("fyi I switched token storage over to the keyring library myself (zalando/go-keyring), it's merged. "
             "Works on mac and linux, windows untested but same API."),
           A("Nice — then ~/.acme/token can go; I'll leave it to you whether to migrate old files.")],
          light=True, done=["saved in plain text in ~/.acme/token"]),
        END,
    ]),
    ("b8-en-hugo", "en", [
        S([U("Add client-side search to our Hugo docs with Pagefind. Layout partial goes in "
             "layouts/partials/search.html"),
           W("layouts/partials/search.html"), E("package.json"),
           B("hugo --minify && npx pagefind --site public", True, "Indexed 412 pages, 38,911 words"),
           A("Search works on the built site: 412 pages indexed, results show up as you type. A few loose ends: "
             "the API reference pages get indexed twice because of the /v1/ and /latest/ aliases; the search box "
             "has no keyboard shortcut; and the Netlify build doesn't run pagefind yet, so production has no "
             "index. The index is about 1.1 MB but it's chunked, so a search only loads ~60 KB.")],
          topic=["Pagefind"], files=["layouts/partials/search.html"],
          todos=["indexed twice because of the /v1/ and /latest/ aliases", "has no keyboard shortcut",
                 "the Netlify build doesn't run pagefind"]),
        S([U("Restyle the search results to match the theme, the default Pagefind UI looks off"),
           E("layouts/partials/search.html"), E("assets/css/search.css"),
           B("hugo --minify && npx pagefind --site public", True, "Indexed 412 pages, 38,911 words"),
           A("The results now use the theme's fonts and accent colour, and dark mode works. I didn't touch the "
             "duplicate API pages — /v1/ and /latest/ still both come back for the same page.")],
          traps=["indexed twice because of the /v1/ and /latest/ aliases"]),
        S([U("Wire pagefind into the Netlify build and press / to focus the search box"),
           E("netlify.toml"), E("layouts/partials/search.html"),
           B("netlify build", True, "hugo: 412 pages\npagefind: Indexed 412 pages\nBuild succeeded"),
           A("Done on both:\n- ✅ netlify.toml's build command now runs `npx pagefind --site public` after Hugo; "
             "the deploy preview has working search.\n- ✅ `/` focuses the search input (ignored while typing in "
             "another field).")],
          done=["the Netlify build doesn't run pagefind", "has no keyboard shortcut"]),
        S([U("continue"),
           E("layouts/_default/baseof.html"),
           B("hugo --minify && npx pagefind --site public", True, "Indexed 287 pages, 29,140 words"),
           A("Added data-pagefind-ignore to the /v1/ alias pages so only /latest/ is indexed: 287 pages now "
             "instead of 412, and each API page shows up once.")],
          done=["indexed twice because of the /v1/ and /latest/ aliases"]),
        END,
    ]),
    ("b8-en-dagster", "en", [
        S([U("Build a Dagster pipeline that pulls hourly weather from Open-Meteo for our 40 stores and lands it "
             "in Postgres; assets in pipelines/weather/assets.py"),
           W("pipelines/weather/assets.py"), W("pipelines/weather/resources.py"),
           B("dagster asset materialize -m pipelines.weather --select '*'", True,
             "RUN_SUCCESS: 3 assets materialized, 40 stores, 960 rows"),
           A("Three assets: raw_forecast, hourly_weather and store_weather_daily. A full run pulls 40 stores × 24 "
             "hours = 960 rows in about 12 s. Store coordinates are hard-coded in a dict in assets.py. "
             "Nothing schedules it yet — it only runs when someone clicks materialize. "
             "At some point it'd be nice to add an asset check for missing hours. "
             "Open-Meteo has no API key, so there's nothing secret to configure.")],
          topic=["Open-Meteo"], files=["pipelines/weather/assets.py"],
          todos=["coordinates are hard-coded", "Nothing schedules it yet", "asset check for missing hours"]),
        S([U("Read the store coordinates from the stores table instead"),
           E("pipelines/weather/assets.py"), E("pipelines/weather/resources.py"),
           B("dagster asset materialize -m pipelines.weather --select '*'", True,
             "RUN_SUCCESS: 3 assets materialized, 43 stores, 1032 rows"),
           A("Locations now come from the `stores` table via the Postgres resource, so the three stores opened "
             "this month are included — 43 stores, 1,032 rows. I also renamed hourly_weather's columns to "
             "snake_case. The schedule is the next thing to do.")],
          done=["coordinates are hard-coded"], traps=["Nothing schedules it yet"]),
        S([U("add the schedule — hourly at :05"),
           W("pipelines/weather/schedules.py"), E("pipelines/weather/__init__.py"),
           B("dagster schedule list -m pipelines.weather", True, "weather_hourly  cron: 5 * * * *  RUNNING"),
           A("weather_hourly is registered and running (5 * * * *, UTC). First two ticks succeeded. "
             "The check for gaps in the hourly data I'd rather do after a week of data exists.")],
          done=["Nothing schedules it yet"], traps=["asset check for missing hours"]),
        S([U("thanks"), A("You're welcome.")], light=True),
        END,
    ]),
    ("b8-en-expo", "en", [
        S([U("Add push notifications to the Expo app — register the device token on login. Start in "
             "src/notifications/register.ts"),
           W("src/notifications/register.ts"), E("app.json"),
           B("npx jest src/notifications", True, "Tests: 6 passed, 6 total"),
           A("On login the app asks for permission, gets the Expo push token and POSTs it to /devices. "
             "Tests pass. Android needs a notification channel, which I haven't created, so on Android 13 the "
             "notifications arrive silently. Tapping a notification just opens the app — it doesn't deep-link "
             "to the order yet. The token is re-sent on every login; that's deliberate, tokens can rotate.")],
          topic=["push notifications"], files=["src/notifications/register.ts"],
          todos=["needs a notification channel", "doesn't deep-link to the order yet"]),
        S([U("Handle notification taps: open the order screen"),
           E("src/notifications/register.ts"), E("src/navigation/linking.ts"),
           B("npx jest src/notifications", True, "Tests: 9 passed, 9 total"),
           A("Tapping a notification with data.orderId now navigates to OrderDetail, also from a cold start via "
             "getLastNotificationResponseAsync. 9 tests pass.")],
          done=["doesn't deep-link to the order yet"]),
        S([U("Android channel still pending? Also remind me after this to ask backend about batching."),
           E("src/notifications/register.ts"),
           B("npx jest src/notifications", True, "Tests: 9 passed, 9 total"),
           A("I only moved the permission prompt so it shows after the first order instead of at login — "
             "the Android channel is still missing, sound stays off on Android 13. Reminder noted: ask "
             "backend about batching.")],
          todos=["ask backend about batching"], traps=["needs a notification channel"]),
        S([U("ok do the channel now"),
           E("src/notifications/register.ts"),
           B("npx expo run:android && adb shell dumpsys notification | grep orders", True,
             "NotificationChannel{mId='orders', mImportance=4, mSound=content://settings/system/notification_sound}"),
           A("Created the `orders` channel with high importance and default sound at startup; on the Pixel 7 "
             "emulator (Android 13) the test push now makes a sound and shows a heads-up banner.")],
          done=["needs a notification channel"]),
        END,
    ]),
    ("b8-en-metering", "en", [
        S([U("We're moving API plans to usage-based billing. Write the metering aggregator in "
             "billing/metering.py: count requests per customer per day"),
           W("billing/metering.py"), W("tests/test_metering.py"),
           B("pytest tests/test_metering.py -q", True, "12 passed"),
           A("The aggregator rolls request logs up into usage_daily (customer, day, count). 12 tests pass. "
             "Remaining:\n1. Free-tier allowance isn't subtracted, so everyone is billed from the first call.\n"
             "2. Days are cut at UTC midnight; customers in other timezones will see odd totals.\n"
             "3. The invoice line items don't exist yet.\n"
             "Re-running a day overwrites that day's row, so the job is idempotent — that was the pitfall last "
             "time and it's handled.")],
          topic=["usage-based billing"], files=["billing/metering.py"],
          todos=["allowance isn't subtracted", "cut at UTC midnight", "invoice line items don't exist yet"]),
        S([U("Do the invoice lines"),
           E("billing/invoice.py"), E("billing/metering.py"),
           B("pytest tests -q", True, "31 passed"),
           A("Each invoice now gets one 'API requests' line per month with quantity and unit price from the "
             "plan. All 31 tests pass. Note the quantity still includes the free 10k requests — that part of "
             "the list hasn't been done.")],
          done=["invoice line items don't exist yet"], traps=["allowance isn't subtracted"]),
        S([U("Did you get to the timezone issue?"),
           A("No — I'd leave it: finance confirmed they want UTC days for now, we'll revisit next quarter.")],
          light=True, traps=["cut at UTC midnight"]),
        S([U("continue"),
           E("billing/metering.py"), E("tests/test_metering.py"),
           B("pytest tests/test_metering.py -q", True, "15 passed"),
           A("Billable quantity is now usage minus the plan's included requests (10,000 on Starter), floored "
             "at zero; a Starter customer with 8,200 calls gets a $0 line. 15 tests pass.")],
          done=["allowance isn't subtracted"]),
        END,
    ]),
    ("b8-mx-raytune", "mixed", [
        S([U("用 Ray Tune 给我们的 LightGBM 流失预测模型做超参搜索，脚本写在 tune/search.py"),
           W("tune/search.py"), W("tune/space.py"),
           B("python tune/search.py --num-samples 64", True,
             "Best trial: auc=0.8712 num_leaves=63 learning_rate=0.042"),
           A("64 组试验跑完了，最好的 AUC 0.8712（num_leaves=63, lr=0.042），比现在线上的 0.8530 高。"
             "调度器用的 ASHA，差的试验第 10 轮就停了，这是有意的，省了大概 60% 的时间。"
             "目前只支持单机，4 张卡都在这台机器上；搜索结果也只打在终端里，没有存到 MLflow。")],
          topic=["Ray Tune"], files=["tune/search.py"],
          todos=["目前只支持单机", "没有存到 MLflow"]),
        S([U("Log every trial to MLflow please, and use the experiment name churn-tune"),
           E("tune/search.py"),
           B("python tune/search.py --num-samples 16", True,
             "MLflowLoggerCallback: 16 runs logged to experiment 'churn-tune'"),
           A("Each trial is now an MLflow run under the churn-tune experiment, with its params, AUC per "
             "iteration and the best model as an artifact. 16 runs showed up in the UI.")],
          done=["没有存到 MLflow"]),
        S([U("Can it run on the Ray cluster now instead of just this box?"),
           E("tune/search.py"),
           B("RAY_ADDRESS=ray://head:10001 python tune/search.py --num-samples 8", False,
             "ConnectionError: ray client connection timeout after 30s"),
           A("I added a --address flag, but connecting to ray://head:10001 times out — probably the client "
             "port isn't open on the head node. It still only works on the single machine for now.")],
          traps=["目前只支持单机"]),
        S([U("端口开了，继续"),
           B("RAY_ADDRESS=ray://head:10001 python tune/search.py --num-samples 64", True,
             "Connected to Ray cluster: 5 nodes, 20 GPUs\nBest trial: auc=0.8720"),
           A("连上集群了，5 个节点 20 张卡，64 组试验从 3 小时缩短到 40 分钟，最好 AUC 0.8720。")],
          done=["目前只支持单机"]),
        END,
    ]),
    ("b8-mx-zigbee", "mixed", [
        S([U("家里的 Zigbee 设备接到 Home Assistant，用 Zigbee2MQTT，自动化写在 automations/lights.yaml"),
           W("automations/lights.yaml"), E("configuration.yaml"),
           B("ha core check", True, "Configuration valid!"),
           A("走廊人体传感器触发开灯、2 分钟无人关灯已经可以了，配置检查通过。"
             "Zigbee2MQTT 的 network key 还是默认的，建议换掉；门窗传感器还没配对。"
             "晚上 11 点后灯只开 20% 亮度，这是按你说的。")],
          topic=["Zigbee2MQTT"], files=["automations/lights.yaml"],
          todos=["network key 还是默认的", "门窗传感器还没配对"]),
        S([U("Pair the door sensors and add an automation: notify my phone if the front door opens while we're away"),
           E("automations/lights.yaml"), W("automations/security.yaml"),
           B("ha core check", True, "Configuration valid!"),
           A("Both Aqara door sensors are paired (front door, balcony) and security.yaml sends a mobile push when "
             "the front door opens while everyone's device_tracker is not_home. Tested by opening the door with "
             "phones away: push arrived in ~2 s. The network key is still the default one.")],
          done=["门窗传感器还没配对"], traps=["network key 还是默认的"]),
        S([U("key 我昨晚自己换了，所有设备重新配对过一遍，都在线"),
           A("好的，那 Zigbee 网络现在用的是你生成的新 key 了。")],
          light=True, done=["network key 还是默认的"]),
        END,
    ]),
]
