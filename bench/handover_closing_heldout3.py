"""The third to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind4``) by an engineer who did not read the capture or
closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, docs/summaries.md, the Handover sections of BENCHMARKS.md) nor
the scenarios of the earlier sets (``handover_tuning_set.py``, ``handover_closing_set.py``,
``handover_closing_heldout.py``, ``handover_capture_set.py``, ``handover_closing_heldout2.py``)
beyond their docstrings and first scenario. The earlier held-out sets have been read or run by the
people tuning the rules; this one replaces them as the held-out measure. Do not read its scenarios
or its misses to change a rule — when it has been read, write a new set instead.

14 projects, 4–5 sessions each (59 transcripts, 11 of them short) plus a last start: 6 Chinese,
6 English, 2 mixed (a Chinese speaker with English code and terms, switching language between
sessions). Domains: a Kafka consumer-lag monitor,
Flutter push notifications, LoRA fine-tuning, OpenResty rate limiting, an ECharts dashboard, ESP32
OTA firmware, Ansible provisioning, a dbt mart, iOS offline sync, a Rust CLI, Okta OIDC login, a
Godot multiplayer lobby, Celery invoice PDFs, a bilingual Docusaurus site.

- 42 open to-dos planted (18 Chinese, 18 English, 6 mixed), stated as a state ("… is hard-coded",
  "… has no tests", "only targets …", "还是默认的", "还没配", "写死"), as an indirect or hedged wish
  ("it'd be nice to…", "we should probably…", "at some point…", "有空把…", "回头…"), in numbered or
  bulleted "remaining" lists, in the person's own prompt ("remind me to…", "下次记得提醒我…"), and
  embedded in a longer report.
- 30 of them finished later in other words (12 Chinese, 13 English, 5 mixed): a synonym, the other
  language, a report with numbers, the person saying they did it, a request and work that passes,
  evidence alone (the named file edited and its test passing after a bare "continue"), a bulleted
  status list, "that's in now", "搞定" / "上线了" / "合了".
- 20 traps (``traps`` on a session: an open to-do that session must NOT close; 9 Chinese, 9 English,
  2 mixed): a "not yet" / "还没" answer, the same file edited for something else, half-done work, a
  failing run, a sibling finished, work put off again, a question about it, a plan to do it, a
  status line saying it is still open.
- Each project's first session plants its topic and main file.
- Most work sessions' final reports also hold 1–3 sentences that look like open work to a naive rule
  but are not: how the code works now, a result, a handled pitfall, an intended limit ("这是故意的",
  "by design", "on purpose"), a past cause, a request to the person that is not code work.

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``R``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout3`` runs it: to-dos are scored on a
``[ ]`` line of the next start context, finished ones must be gone from ``[ ]`` lines, wrong closes
and traps are read from the to-do index after each project's last session, and ``spurious_todos``
counts the ``[ ]`` lines at a scored start that hold no planted to-do (most work sessions' final
reports also state how the code works now, a result, a handled pitfall, an intended limit or a
request to the person that is not code work — none of which is open work).

BASELINE — unchanged main (scripts of c3df00c, before any rule was tuned with this set in existence),
``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout3 --json OUT``, offline
summarizer, 2026-11-26 07:45 UTC, load average 1.27 at start and 4.61 at the end (2 shared cores),
146 s: open to-dos captured (on a ``[ ]`` line of the next start) 33/42 (Chinese 15/18, English
12/18, mixed 6/6); finished to-dos still shown 12/30; closes right 7, missed 12, wrong 3; traps
held 14, sprung 3, untested 3 (their to-do was never captured); spurious to-dos 15 of 94 ``[ ]``
lines at the scored starts; topics 14/14; files 14/14; leaks 0; start context p50 5,997 characters
(max 5,998); SessionStart p50 72.3 ms.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

GUT = "godot --headless -s addons/gut/gut_cmdln.gd -gtest=res://test/{}.gd"
XCTEST = "xcodebuild test -scheme Notes -destination 'platform=iOS Simulator,name=iPhone 15'"

SCENARIOS = [
    # ---------------------------------------------------------------- Chinese
    ("b4-zh-kafka", "zh", [
        S([U("写一个 Kafka 消费延迟的监控，lag 超过阈值就发飞书告警"),
           W("consumer/lag_monitor.py"), W("tests/test_lag_monitor.py"),
           B("pytest tests/test_lag_monitor.py", True, "6 passed in 0.84s"),
           A("监控写好了，每 30 秒拉一次各分区的 lag，超过 5 万条就发飞书告警，6 个用例都过了。"
             "告警阈值现在是写在代码里的常量，没法按 topic 单独配；另外消费者 rebalance 期间会误报，这个还没处理。"
             "目前只在测试集群跑，这是故意的，等你看过再上生产。")],
          topic=["Kafka 消费延迟"], files=["consumer/lag_monitor.py"],
          todos=["写在代码里的常量", "rebalance 期间会误报"]),
        S([U("rebalance 误报那个先放一放，我这周要弄 schema registry。帮我把 avro 反序列化接上"),
           W("consumer/decoder.py"), W("tests/test_decoder.py"),
           B("pytest tests/test_decoder.py", True, "4 passed in 0.51s"),
           A("avro 反序列化接上了，按消息头里的 schema id 去 registry 拉 schema，拉到后缓存在进程内，4 个用例通过。"
             "不过这个 schema 缓存没有过期时间，registry 里改了 schema 得重启消费者才能生效。"
             "反序列化失败的消息会进死信 topic，不会卡住分区。")],
          todos=["缓存没有过期时间"], traps=["rebalance 期间会误报"]),
        S([U("阈值改成从配置文件读，每个 topic 可以单独设"),
           E("consumer/lag_monitor.py"), W("config/lag.yaml"),
           B("pytest tests/test_lag_monitor.py", True, "8 passed in 0.90s"),
           A("现在每个 topic 的告警线从 config/lag.yaml 读，没配的 topic 用默认的 5 万。8 个用例通过。"
             "配置是启动时读一次的，改了要重启进程。")],
          done=["写在代码里的常量"]),
        S([U("继续。对了，schema 缓存过期那个我昨天自己加了，10 分钟 TTL，已经合了"),
           E("consumer/lag_monitor.py"),
           B("pytest tests/test_lag_monitor.py", False, "1 failed, 8 passed in 1.02s"),
           A("加了 rebalance 期间暂停告警的逻辑，但有一个用例挂了：分区被回收时记录的时间戳算错了，还在查。")],
          done=["缓存没有过期时间"], traps=["rebalance 期间会误报"]),
        END,
    ]),
    ("b4-zh-flutter", "zh", [
        S([U("Flutter 这边接一下推送通知，用极光"),
           W("lib/services/push_service.dart"), E("android/app/build.gradle"),
           B("flutter test test/push_service_test.dart", True, "00:03 +5: All tests passed!"),
           A("极光推送接好了，Android 上点通知能跳到对应页面。iOS 那边还没配证书，所以现在只有 Android 能收到；"
             "通知点击的埋点也还没加。冷启动时从通知进来会先走闪屏再跳转，这是预期的。")],
          topic=["推送通知"], files=["lib/services/push_service.dart"],
          todos=["iOS 那边还没配证书", "通知点击的埋点"]),
        S([U("下次记得提醒我把 release 包的混淆规则补上，不然极光的类会被裁掉。今天先把通知小图标换了"),
           W("android/app/src/main/res/drawable/ic_notification.xml"),
           B("flutter build apk --debug", True, "Built build/app/outputs/flutter-apk/app-debug.apk"),
           A("通知小图标换成单色的了，Android 12 上不会再显示成灰色方块。")],
          todos=["混淆规则补上"]),
        S([U("APNs 证书我已经传到极光后台了，你把 iOS 端配一下"),
           E("ios/Runner/AppDelegate.swift"), E("lib/services/push_service.dart"),
           B("flutter test", True, "00:05 +9: All tests passed!"),
           A("iOS 端注册了远程通知，真机上已经能收到推送，点开也能跳到详情页。前台时不弹横幅，只更新角标，这是按产品要求做的。")],
          done=["iOS 那边还没配证书"]),
        S([U("proguard 那个弄了吗？"),
           A("还没有，android/app/proguard-rules.pro 里目前只有 Flutter 默认的几条。要我现在加上吗？")],
          traps=["混淆规则补上"], light=True),
        S([U("加吧"),
           W("android/app/proguard-rules.pro"),
           B("flutter build apk --release", True, "Built build/app/outputs/flutter-apk/app-release.apk (18.2MB)"),
           A("加了 -keep class cn.jpush.** 和 cn.jiguang.** 两条，release 包打出来 18.2MB，装到真机上推送正常。")],
          done=["混淆规则补上"]),
        END,
    ]),
    ("b4-zh-lora", "zh", [
        S([U("用 LoRA 在客服对话数据上微调一下 Qwen 7B"),
           W("train/finetune_lora.py"), W("train/configs/lora_r16.yaml"),
           B("python train/finetune_lora.py --config train/configs/lora_r16.yaml --max-steps 50", True,
             "step 50 | loss 1.42 | peak mem 21.3GB"),
           A("脚本跑通了，50 步 loss 从 2.3 降到 1.42，显存峰值 21GB，单卡 A10 够用。剩下几件事：\n"
             "1. 评测脚本还没写，现在只能看 loss\n"
             "2. 数据里有大约 3% 的重复对话，要去重\n"
             "3. checkpoint 只存在本地盘，最好同步到对象存储")],
          topic=["LoRA"], files=["train/finetune_lora.py"],
          todos=["评测脚本还没写", "重复对话，要去重", "同步到对象存储"]),
        S([U("先把去重做了，用 minhash"),
           W("data/dedup.py"),
           B("python data/dedup.py --in data/raw.jsonl --out data/clean.jsonl", True,
             "removed 1874 of 61203 near-duplicates (3.1%)"),
           A("minhash 去重跑完了，相似度阈值 0.85，去掉 1874 条近似重复，剩 59329 条，训练配置已经指向 data/clean.jsonl。")],
          done=["重复对话，要去重"]),
        S([U("评测你打算怎么做？"),
           A("我的想法是用留出的 500 条对话算 ROUGE-L，再人工抽检 50 条。你确认了我就写。")],
          traps=["评测脚本还没写"], light=True),
        S([U("可以，写吧"),
           W("eval/eval_rouge.py"),
           B("python eval/eval_rouge.py --ckpt out/step-2000", True, "ROUGE-L 0.412 (base 0.337) on 500 held-out dialogs"),
           A("评测写好了：500 条留出集上 ROUGE-L 0.412，基座模型是 0.337。人工抽检的 50 条放在 eval/samples.csv，"
             "需要你找人标一下，这个不是代码的活。上传 checkpoint 的脚本写了一半，凭证还没配，暂时没启用。")],
          done=["评测脚本还没写"], traps=["同步到对象存储"]),
        END,
    ]),
    ("b4-zh-gateway", "zh", [
        S([U("在 OpenResty 网关上加按用户的限流，每秒 20 次"),
           W("gateway/ratelimit.lua"), E("gateway/nginx.conf"),
           B("prove -r t/ratelimit.t", True, "All tests successful.\nFiles=1, Tests=7"),
           A("限流加好了，用 lua-resty-limit-traffic 的漏桶，超限返回 429，7 个测试通过。"
             "计数存在每台机器的 shared dict 里，多台网关之间不共享，三台一起跑等于放大了三倍。"
             "内部服务的白名单也是写死在 lua 里的。超限响应会带 Retry-After 头，这是照 RFC 6585 做的。")],
          topic=["限流"], files=["gateway/ratelimit.lua"],
          todos=["多台网关之间不共享", "白名单也是写死"]),
        S([U("有空把白名单挪到 consul 吧，不急。这次先修个 bug：OPTIONS 预检请求也被限流了"),
           E("gateway/ratelimit.lua"),
           B("prove -r t/ratelimit.t", True, "All tests successful.\nFiles=1, Tests=8"),
           A("预检请求现在直接放行、不计数，补了一个用例，8 个测试通过。")],
          traps=["白名单也是写死"]),
        S([U("计数改成放 Redis，几台网关共用一个窗口"),
           E("gateway/ratelimit.lua"), E("gateway/nginx.conf"),
           B("prove -r t/ratelimit.t", True, "All tests successful.\nFiles=1, Tests=10"),
           B("wrk -t4 -c100 -d30s http://gw-staging/api/ping", True, "Requests/sec: 18234.11\nNon-2xx or 3xx responses: 0"),
           A("计数器换成 Redis 的 INCR + EXPIRE，用 Lua 脚本保证原子性，三台网关现在共用一个窗口，已经上线了。"
             "压测 1.8 万 QPS，p99 还在 35ms 以内。Redis 不可用时放行而不是拒绝，这是故意的。")],
          done=["多台网关之间不共享"]),
        S([U("白名单我自己弄了，现在从 consul 的 KV 读。你帮我看看 gateway/whitelist.lua 有没有问题"),
           R("gateway/whitelist.lua"),
           A("看过了，逻辑没问题。consul 拉不到的时候沿用上一次的结果，不会把白名单清空。")],
          done=["白名单也是写死"]),
        END,
    ]),
    ("b4-zh-dashboard", "zh", [
        S([U("用 ECharts 做一个运营数据看板，日活、留存、付费率三张图"),
           W("src/views/Dashboard.vue"), W("src/api/metrics.ts"),
           B("npm run test:unit -- Dashboard", True, "Tests: 5 passed, 5 total"),
           A("三张图都出来了，数据走 /api/metrics。现在时间范围固定是最近 30 天，用户改不了；"
             "留存图在手机上会挤成一团，还没做自适应。数据每天凌晨 3 点刷新一次，所以看板不是实时的，这是按你说的做的。")],
          topic=["运营数据看板"], files=["src/views/Dashboard.vue"],
          todos=["时间范围固定是最近 30 天", "还没做自适应"]),
        S([U("加一个日期范围选择器"),
           E("src/views/Dashboard.vue"), W("src/components/DateRange.vue"),
           B("npm run test:unit -- Dashboard", True, "Tests: 7 passed, 7 total"),
           A("加了日期范围选择，默认最近 30 天，最长能选 180 天，接口的 from/to 参数早就支持。7 个用例通过。")],
          done=["时间范围固定是最近 30 天"]),
        S([U("手机上留存那张图看一下"),
           E("src/views/Dashboard.vue"),
           B("npm run test:unit -- Dashboard", True, "Tests: 7 passed, 7 total"),
           A("375px 宽度下留存图改成纵向排列，图例挪到了下面；不过 iPad 横屏还是会挤，这次没顾上。")],
          todos=["iPad 横屏还是会挤"], traps=["还没做自适应"]),
        S([U("回头给看板加个暗色主题吧。今天先到这"),
           A("好的，暗色主题记下了。")],
          todos=["加个暗色主题"], light=True),
        S([U("继续"),
           E("src/views/Dashboard.vue"),
           B("npm run test:unit -- Dashboard", True, "Tests: 9 passed, 9 total"),
           A("平板横屏也改好了：768 到 1024 之间两列排布，图表不再重叠，手机和平板都试过了，搞定。")],
          done=["还没做自适应", "iPad 横屏还是会挤"]),
        END,
    ]),
    ("b4-zh-esp32", "zh", [
        S([U("ESP32 温湿度节点加一个 OTA 升级"),
           W("main/ota_update.c"), E("main/CMakeLists.txt"), E("partitions.csv"),
           B("idf.py build", True, "Project build complete. To flash, run: idf.py flash"),
           A("OTA 用 esp_https_ota 做了，从内网 HTTPS 服务器拉固件，升级完自动重启。有两点要注意："
             "固件没有签名校验，谁都能推包；升级失败也不会回滚到旧分区。"
             "分区表改成了两个 ota 分区，各 1.5MB，当前固件 1.1MB，放得下。")],
          topic=["OTA 升级"], files=["main/ota_update.c"],
          todos=["固件没有签名校验", "不会回滚到旧分区"]),
        S([U("回滚那个怎么搞？是不是要开 bootloader 的选项？"),
           A("对，要开 CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE，新固件启动后自检通过再调用 "
             "esp_ota_mark_app_valid_cancel_rollback，否则下次重启回到旧分区。")],
          traps=["不会回滚到旧分区"], light=True),
        S([U("那就把回滚开上"),
           E("sdkconfig.defaults"), E("main/ota_update.c"),
           B("idf.py build", True, "Project build complete."),
           B("pytest test/test_ota_rollback.py --target esp32", True, "3 passed in 41.2s"),
           A("回滚开好了：新固件启动后 WiFi 和传感器自检都过了才标记有效，否则重启自动回旧分区。"
             "台架上故意刷了个坏包，确实回去了。看门狗超时还是默认的 5 秒，升级大包的时候可能不够，得再观察。")],
          done=["不会回滚到旧分区"], todos=["看门狗超时还是默认的"]),
        S([U("签名校验这周我先不弄了，等安全组把密钥给过来"),
           A("好，等密钥到了再接 secure boot v2 和签名校验。")],
          traps=["固件没有签名校验"], light=True),
        END,
    ]),
    # ---------------------------------------------------------------- English
    ("b4-en-ansible", "en", [
        S([U("Write an Ansible playbook to provision the new bare-metal build agents"),
           W("playbooks/provision.yml"), W("roles/agent/tasks/main.yml"), W("roles/agent/defaults/main.yml"),
           B("ansible-playbook -i inventory/staging playbooks/provision.yml --check", True,
             "PLAY RECAP\nagent-01 : ok=14 changed=9 unreachable=0 failed=0"),
           A("The playbook installs Docker, the CI runner and node_exporter; a check run against agent-01 is clean. "
             "The runner registration token is hard-coded in roles/agent/defaults/main.yml for now. "
             "It also only targets Ubuntu 22.04 — the two Rocky hosts would fail on the apt tasks. "
             "The role is idempotent: a second run reports changed=0.")],
          topic=["Ansible playbook"], files=["playbooks/provision.yml"],
          todos=["registration token is hard-coded", "only targets Ubuntu 22.04"]),
        S([U("Move the runner token into ansible-vault"),
           E("roles/agent/defaults/main.yml"), W("group_vars/all/vault.yml"),
           B("ansible-playbook -i inventory/staging playbooks/provision.yml --check --ask-vault-pass", True,
             "agent-01 : ok=14 changed=0 unreachable=0 failed=0"),
           A("The secret now lives in an encrypted group_vars/all/vault.yml and the role reads vault_runner_token; "
             "check run clean. It'd be nice to have a molecule test for the role at some point, so changes "
             "don't need a real host.")],
          done=["registration token is hard-coded"], todos=["molecule test for the role"]),
        S([U("Did you get to the Rocky hosts?"),
           A("Not yet — the role still calls apt directly. I'd switch to the generic package module plus a "
             "vars file per OS family.")],
          traps=["only targets Ubuntu 22.04"], light=True),
        S([U("ok, do that"),
           E("roles/agent/tasks/main.yml"), W("roles/agent/vars/RedHat.yml"), W("roles/agent/vars/Debian.yml"),
           B("ansible-playbook -i inventory/staging playbooks/provision.yml --limit rocky", True,
             "rocky-01 : ok=15 changed=10 failed=0\nrocky-02 : ok=15 changed=10 failed=0"),
           A("Both Rocky 9 boxes provision cleanly now: packages go through the package module and repo setup "
             "is split per OS family. The Ubuntu agents still report changed=0 on a rerun.")],
          done=["only targets Ubuntu 22.04"]),
        END,
    ]),
    ("b4-en-dbt", "en", [
        S([U("Build a dbt mart for web sessions from the raw events table"),
           W("models/marts/fct_sessions.sql"), W("models/marts/schema.yml"),
           B("dbt build --select fct_sessions", True, "Completed successfully\nDone. PASS=6 WARN=0 ERROR=0 SKIP=0 TOTAL=6"),
           A("fct_sessions is built with a 30-minute inactivity window; 6 tests pass (unique and not_null on "
             "session_id, accepted values on channel). Remaining:\n"
             "- the model is a full refresh every run; incremental would cut the 40-minute build\n"
             "- bot traffic isn't filtered out yet\n"
             "- no freshness check on the raw source\n"
             "The 30-minute window is the GA convention, on purpose.")],
          topic=["dbt mart"], files=["models/marts/fct_sessions.sql"],
          todos=["incremental would cut", "bot traffic isn't filtered", "no freshness check"]),
        S([U("Let's do incremental first — I'll handle the bot filter myself later"),
           E("models/marts/fct_sessions.sql"),
           B("dbt build --select fct_sessions", False,
             "Database Error in model fct_sessions\n  column \"_loaded_at\" does not exist"),
           A("I switched the model to materialized='incremental' with a 3-hour lookback, but the build fails: "
             "the prod raw table has no _loaded_at column. I'll key it on event_ts instead.")],
          traps=["incremental would cut", "bot traffic isn't filtered"]),
        S([U("continue"),
           E("models/marts/fct_sessions.sql"),
           B("dbt build --select fct_sessions", True, "Done. PASS=6 WARN=0 ERROR=0 SKIP=0 TOTAL=6"),
           A("Keyed the lookback on event_ts. A run now takes 3m12s instead of about 40 minutes, and a full "
             "refresh gives the same row count (18,402,117).")],
          done=["incremental would cut"]),
        S([U("I filtered the bots in the staging model yesterday with the UA list from security, so that's "
             "covered. Add a source freshness check now"),
           E("models/staging/sources.yml"),
           B("dbt source freshness", True, "1 of 1 PASS freshness of raw.events [PASS in 1.2s]"),
           A("Added loaded_at_field: event_ts on raw.events, warn after 2 hours and error after 6; freshness passes.")],
          done=["bot traffic isn't filtered", "no freshness check"]),
        END,
    ]),
    ("b4-en-ios", "en", [
        S([U("Add offline support to the notes app: queue edits while offline and sync when we're back"),
           W("Sources/Sync/SyncEngine.swift"), W("Tests/SyncTests/SyncEngineTests.swift"),
           B(XCTEST, True, "Executed 11 tests, with 0 failures (0 unexpected) in 2.314 seconds"),
           A("Edits made offline go into a Core Data queue and replay in order when NWPathMonitor reports a "
             "connection; 11 tests pass. Conflicts are last-write-wins for now, which can silently drop an edit "
             "made on another device — we should probably show a conflict banner instead. Attachments aren't "
             "queued at all, only text edits are. Replays are throttled to 5 per second so the API doesn't "
             "rate-limit us.")],
          topic=["offline support"], files=["Sources/Sync/SyncEngine.swift"],
          todos=["show a conflict banner", "Attachments aren't queued"]),
        S([U("After this, remind me to bump the deployment target to iOS 16. For now, fix the crash when the "
             "queue is empty on launch"),
           E("Sources/Sync/SyncEngine.swift"),
           B(XCTEST, True, "Executed 12 tests, with 0 failures (0 unexpected) in 2.402 seconds"),
           A("Fixed: the replay loop force-unwrapped the first queued item. Added a test for an empty queue; "
             "12 pass.")],
          todos=["bump the deployment target"], traps=["Attachments aren't queued"]),
        S([U("Do the photos and PDFs now"),
           E("Sources/Sync/SyncEngine.swift"), W("Sources/Sync/AttachmentUploader.swift"),
           B(XCTEST, True, "Executed 15 tests, with 0 failures (0 unexpected) in 2.977 seconds"),
           A("Photos and PDFs added offline are copied into the app container and uploaded in the background "
             "once we're online, before the note edit that references them. 15 tests pass.")],
          done=["Attachments aren't queued"]),
        S([U("I raised the minimum iOS version to 16 in the project settings myself. Is the conflict UI next?"),
           A("Yes, that's the next piece: diff the two versions and show a 'keep mine / keep theirs' banner. "
             "I'll do it next session.")],
          done=["bump the deployment target"], traps=["show a conflict banner"], light=True),
        END,
    ]),
    ("b4-en-rustcli", "en", [
        S([U("Start a small Rust CLI, logslice, that cuts a time range out of big log files"),
           W("src/main.rs"), W("src/range.rs"), W("Cargo.toml"),
           B("cargo test", True, "test result: ok. 9 passed; 0 failed; 0 ignored"),
           A("logslice --from/--to works on RFC 3339 timestamps and binary-searches the file, so a 4 GB log is "
             "cut in under a second; 9 tests pass. Things still open: gzip input isn't supported, syslog-style "
             "dates are rejected, and there's no --help text beyond clap's defaults. Lines without a timestamp "
             "are attached to the previous line, by design.")],
          topic=["logslice"], files=["src/main.rs"],
          todos=["gzip input isn't supported", "syslog-style dates are rejected", "no --help text beyond"]),
        S([U("At some point we should publish it to crates.io, but today: the syslog dates please"),
           E("src/range.rs"),
           B("cargo test", True, "test result: ok. 14 passed; 0 failed; 0 ignored"),
           A("Added a parser for 'Mar  4 12:01:33' style dates; the year is taken from the file's mtime. "
             "14 tests pass.")],
          done=["syslog-style dates are rejected"], todos=["publish it to crates.io"]),
        S([U("continue"),
           E("src/main.rs"),
           B("cargo test", True, "test result: ok. 17 passed; 0 failed; 0 ignored"),
           A("Status:\n- usage docs: every flag has long help now, plus an EXAMPLES section ✔\n"
             "- .gz files: still open\n- crates.io: not started")],
          done=["no --help text beyond"], traps=["gzip input isn't supported"]),
        S([U("how hard would gzip be?"),
           A("Reading is easy with flate2, but binary search doesn't work on a gzip stream, so .gz files "
             "would be scanned linearly. Roughly 40 lines.")],
          traps=["gzip input isn't supported"], light=True),
        END,
    ]),
    ("b4-en-sso", "en", [
        S([U("Add OIDC login with Okta to the Django admin portal"),
           W("accounts/oidc.py"), E("settings/base.py"), W("tests/accounts/test_oidc.py"),
           B("pytest tests/accounts/test_oidc.py", True, "8 passed in 1.77s"),
           A("Login through Okta works end to end on staging; 8 tests pass. accounts/oidc.py has no tests for "
             "the token refresh path, and logout doesn't end the Okta session, so people stay signed in at "
             "Okta. The state parameter is checked against the session cookie, so CSRF on the callback is "
             "covered.")],
          topic=["OIDC login"], files=["accounts/oidc.py"],
          todos=["no tests for the token refresh path", "logout doesn't end the Okta session"]),
        S([U("continue"),
           E("tests/accounts/test_oidc.py"), E("accounts/oidc.py"),
           B("pytest tests/accounts/test_oidc.py", True, "13 passed in 2.04s"),
           A("13 passed.")],
          done=["no tests for the token refresh path"]),
        S([U("Okta group claims should map to Django groups — can you add that? Leave the sign-out thing, "
             "we'll sort it out with the Okta admins."),
           E("accounts/oidc.py"),
           B("pytest tests/accounts/test_oidc.py", True, "16 passed in 2.21s"),
           A("Okta groups now sync to Django groups on each login; unknown groups are ignored, not created. "
             "16 pass.")],
          traps=["logout doesn't end the Okta session"]),
        S([U("RP-initiated logout is in now — I wired the end_session_endpoint redirect myself"),
           A("Checked: signing out redirects to Okta's end_session_endpoint with id_token_hint and comes back "
             "to /signed-out.")],
          done=["logout doesn't end the Okta session"], light=True),
        END,
    ]),
    ("b4-en-godot", "en", [
        S([U("Set up a multiplayer lobby for the Godot 4 kart game using ENet"),
           W("scripts/net/lobby.gd"), W("scenes/Lobby.tscn"),
           B(GUT.format("test_lobby"), True, "Passing 6  Failing 0"),
           A("Host/join over ENet works with up to 8 players and a ready-check before the race; 6 GUT tests "
             "pass. Two caveats: the host's IP has to be typed in by hand — there's no LAN discovery — and if "
             "the host quits mid-race everyone gets dropped to the menu with no message. Player names are "
             "capped at 16 characters on purpose, the HUD can't fit more.")],
          topic=["multiplayer lobby"], files=["scripts/net/lobby.gd"],
          todos=["no LAN discovery", "dropped to the menu with no message"]),
        S([U("Add LAN discovery via UDP broadcast"),
           W("scripts/net/discovery.gd"), E("scripts/net/lobby.gd"),
           B(GUT.format("test_lobby"), True, "Passing 9  Failing 0"),
           A("Hosts announce themselves on UDP 7350 every second and the join screen lists them; 9 tests "
             "pass. It only works within one subnet — broadcasts don't cross routers, which is expected for "
             "LAN play.")],
          done=["no LAN discovery"]),
        S([U("the host-quit thing — not now, I want the lap timer first"),
           W("scripts/race/lap_timer.gd"),
           B(GUT.format("test_lap_timer"), True, "Passing 4  Failing 0"),
           A("Lap timer done: per-lap and best-lap times in the HUD, 4 tests pass. It would be nice to "
             "save best laps per track too.")],
          todos=["save best laps per track"], traps=["dropped to the menu with no message"]),
        S([U("Handle the host leaving"),
           E("scripts/net/lobby.gd"),
           B(GUT.format("test_lobby"), True, "Passing 11  Failing 0"),
           A("When the host disconnects, clients now see 'Host left the race' and go back to the lobby with "
             "their names kept. 11 tests pass.")],
          done=["dropped to the menu with no message"]),
        END,
    ]),
    # ---------------------------------------------------------------- mixed
    ("b4-mx-invoice", "mixed", [
        S([U("帮我用 WeasyPrint 生成 invoice PDF，放到 Celery 里异步跑"),
           W("billing/invoice_pdf.py"), W("billing/tasks.py"),
           B("pytest tests/billing/test_invoice_pdf.py", True, "7 passed in 3.10s"),
           A("invoice PDF 生成好了，Celery task 先渲染 HTML 模板再转 PDF，7 个用例通过。还有几个问题："
             "税率现在是写死的 13%，海外客户不适用；PDF 里的中文在 Linux 容器里显示成方块，要装字体；"
             "生成失败没有重试。金额全用 Decimal 算、四舍五入到分，这是财务的要求。")],
          topic=["invoice PDF"], files=["billing/invoice_pdf.py"],
          todos=["税率现在是写死的", "显示成方块", "生成失败没有重试"]),
        S([U("Let's fix the CJK font issue in the Docker image"),
           E("Dockerfile"),
           B("docker build -t billing . && docker run billing pytest tests/billing/test_invoice_pdf.py", True,
             "7 passed in 3.42s"),
           A("Installed fonts-noto-cjk in the image and set it as the fallback font-family in the template; "
             "Chinese customer names render correctly in the generated PDFs now.")],
          done=["显示成方块"]),
        S([U("I'll do the retries next week. Can you look at why invoice numbers skip sometimes?"),
           E("billing/invoice_pdf.py"),
           B("pytest tests/billing", True, "12 passed in 4.88s"),
           A("Invoice numbers came from a sequence before the transaction committed, so a rollback burned a "
             "number. They're now assigned inside the same transaction; 12 pass.")],
          traps=["生成失败没有重试"]),
        S([U("税率按客户所在国家取，配置放在 tax_rates 表里"),
           E("billing/invoice_pdf.py"), W("billing/migrations/0007_tax_rates.py"),
           B("pytest tests/billing", True, "15 passed in 5.02s"),
           A("tax rate 现在按客户的 country 从 tax_rates 表读，没配置的国家直接报错，不再默认 13%。15 个用例通过。")],
          done=["税率现在是写死的"]),
        S([U("retries: I added autoretry_for with exponential backoff on the render task, merged this morning"),
           A("Saw it — max_retries=5 and the backoff is capped at 10 minutes. Looks good.")],
          done=["生成失败没有重试"], light=True),
        END,
    ]),
    ("b4-mx-docs", "mixed", [
        S([U("文档站用 Docusaurus 搭起来，要中英双语"),
           W("docusaurus.config.js"), W("i18n/zh-Hans/docusaurus-plugin-content-docs/current/intro.md"),
           B("npm run build", True,
             "[SUCCESS] Generated static files in \"build\".\n[SUCCESS] Generated static files in \"build/zh-Hans\"."),
           A("站点搭好了，中英两套都能 build。搜索还没接，现在只能靠侧边栏找；API 参考那一节只有英文，中文版还没翻。"
             "部署到 GitHub Pages 需要你在仓库设置里把 Pages 打开，这一步我没有权限。")],
          topic=["Docusaurus"], files=["docusaurus.config.js"],
          todos=["搜索还没接", "中文版还没翻"]),
        S([U("Hook up Algolia DocSearch"),
           E("docusaurus.config.js"),
           B("npm run build", True, "[SUCCESS] Generated static files in \"build\"."),
           A("DocSearch is wired with the appId and the search-only key, and the crawler config is submitted; "
             "results show up after Algolia's first crawl. Search only indexes the English locale for now.")],
          done=["搜索还没接"], todos=["only indexes the English locale"]),
        S([U("API 参考翻译了吗？"),
           A("还没，i18n/zh-Hans 下面目前只有 intro 和 guides 两节。")],
          traps=["中文版还没翻"], light=True),
        S([U("Translate the API reference section into Chinese"),
           W("i18n/zh-Hans/docusaurus-plugin-content-docs/current/api/index.md"),
           W("i18n/zh-Hans/docusaurus-plugin-content-docs/current/api/client.md"),
           B("npm run build -- --locale zh-Hans", True, "[SUCCESS] Generated static files in \"build/zh-Hans\"."),
           A("The API reference is translated: 14 pages under zh-Hans/api, code samples left as they are. "
             "The broken-link check passes for both locales.")],
          done=["中文版还没翻"]),
        END,
    ]),
]
