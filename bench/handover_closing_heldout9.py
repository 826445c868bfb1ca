"""The ninth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind10``, from 9a0398c) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, scripts/code_memory/text/lexicon.py, docs/summaries.md, the
Handover sections of BENCHMARKS.md) nor the scenarios of the earlier sets (``handover_tuning_set.py``,
``handover_closing_set.py``, ``handover_closing_heldout.py`` … ``handover_closing_heldout8.py``,
``handover_capture_set.py``, ``handover_capture2_set.py``, ``handover_capture6_set.py``,
``handover_traps_set.py``, ``handover_progress_set.py``, ``handover_wrongs_set.py``,
``handover_wrongs6_set.py``, ``handover_bilingual_set.py``) beyond their docstrings and first
scenario. It judges the rules of round 7 afterwards (and the Stop-hook check of round 7, which reads
each user turn's last assistant message), beside ``handover_closing_heldout7.py`` and
``handover_closing_heldout8.py``. Do not read its scenarios or its misses to change a rule — when it
has been read, write a new set instead.

14 projects, 3–4 sessions each (53 transcripts, 8 of them short) plus a last start: 6 Chinese,
6 English, 2 mixed (a Chinese speaker with English code and terms, switching language between
sessions). Domains, away from the earlier sets': a Flink UV window with late events, ESC/POS
Bluetooth receipt printing in an Android POS app, a TFLite wake-word model, pt-archiver archiving of
a MySQL log table, SWUpdate A/B OTA on a Yocto CM4 gateway, SMS-code login in Go, a Deno CLI syncing
Notion to markdown, LÖVE roguelike save files, a VitePress + TypeDoc SDK docs site, Lemon Squeezy
license activation in a desktop app, a Cloudflare Workers Durable Object rate limiter, SB3 PPO for a
warehouse picking sim, TOTP 2FA in Laravel, a Kotlin Multiplatform Ktor client replacing Alamofire.

- 38 open to-dos planted (16 Chinese, 18 English, 4 mixed — all 4 stated in Chinese), stated as a
  state ("… is hard-coded at …", "has no version number", "isn't normalized", "only trains on one …",
  "isn't wired", "no tests for …", "have no redirects", "写死的", "还没适配", "是空的", "明文写在",
  "还没验证", "只在 Android 上有", "还是调用老的 …"), as an indirect or hedged wish ("it'd be nice
  to …", "we should probably …", "at some point we should …", "回头把 …", "有空把 …", "应该也得 …"),
  in numbered or bulleted lists of what is left or of problems, in the person's own prompt ("after
  this remind me to …", "下次记得 …" said by the assistant), and embedded in a longer report.
- 29 of them finished later in other words (12 Chinese, 13 English, 4 mixed, 3 of them in the other
  language): a synonym, a report with numbers, the person saying they did it (also in a short
  session: "我自己 … 测了", "I added … myself", "已经合了"), a request and work that passes, evidence
  alone (a bare "continue" / "继续", the work and a passing run, a terse "Done — tests pass." or
  "Done — 2/2 通过"), "That's in now".
- 25 traps (``traps`` on a session: an open to-do that session must NOT close; 12 Chinese, 10
  English, 3 mixed): other work in the to-do's own area (the same file, module, dialog, env or docs
  config) finished in the same session, often a sibling of the same list; half-done reports (a third
  of the services moved, 41 of 97 redirects, a circuit breaker that only exits, 3 fixed layouts
  instead of a generator, a menu item without the uninstaller); failing runs; "not yet" / "还没"
  answers to a question; reports that put the to-do "next" / "下一步"; put off again ("下个版本再说",
  "先别做", "后面再说"); a statement that it is still so.
- Each project's first session plants its topic and main file.
- Most work sessions' final reports also hold 1–3 sentences that look like open work to a naive rule
  but are not: how the code works now, a result, a handled pitfall ("fixed …", "已经改成 …"), an
  intended limit ("这是故意的", "这是有意的", "that's deliberate", "on purpose", "which is intended",
  "by design"), a number measured, and restatements of a still-open to-do in new words in a later
  report (which must stay one open to-do).

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``R``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout9`` runs it (scoring as for
``closing-heldout7``; ``spurious_todos`` counts the ``[ ]`` lines at a scored start that hold no
planted to-do of the project).

BASELINE — unchanged main (the rules of 9a0398c, the worktree's own scripts; the set as of commit
2727307), ``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout9 --json OUT``,
offline summarizer, 2026-11-26 17:59 UTC, load average 1.72 at the start and 2.06 at the end (2
shared cores), 138 s: open to-dos captured (on a ``[ ]`` line of the next start) 36/38 (Chinese
15/16, English 18/18, mixed 3/4); finished to-dos still shown 17/29; closes right 9, missed 17,
wrong 1; traps held 23, sprung 1, untested 1 (its to-do was never captured); spurious to-dos 12 of
101 ``[ ]`` lines at the scored starts; topics 13/14; files 14/14; leaks 0; false decisions 0; start
context p50 5,997 characters (max 5,998); SessionStart p50 43.5 ms.
done_at (round 9): the turn of a multi-turn session that finishes a planted to-do, annotated
by an engineer who writes no rules, counts only reported.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

SCENARIOS = [
    ("b10-zh-flink-uv", "zh", [
        S([U("实时大屏上的 UV 对不上离线报表，差了 3% 左右，帮我看看 jobs/uv_window.py"),
           R("jobs/uv_window.py"),
           A("看了 jobs/uv_window.py：差异来自迟到的事件，窗口关掉以后到达的点击直接被丢了。"),
           U("先把丢数据的问题修掉"),
           E("jobs/uv_window.py"), B("pytest tests/test_uv_window.py -q", True, "9 passed"),
           A("改好了，允许 30 秒的 allowed lateness，回放昨天的数据后差异降到 0.4%。"
             "目前窗口是 1 分钟滚动，这是故意的，大屏只要分钟级。"
             "不过水位线延迟还是写死的 5 秒，跨机房的流量乱序会更大；去重用的 HyperLogLog 误差也还没评估过。"
             "回头把迟到数据打到侧输出流，不然超过 30 秒的还是会丢。")],
          topic=["UV 对不上"], files=["jobs/uv_window.py"],
          todos=["水位线延迟还是写死的 5 秒", "HyperLogLog 误差也还没评估过", "迟到数据打到侧输出流"]),
        S([U("继续"),
           E("jobs/uv_window.py"), W("jobs/late_sink.py"),
           B("pytest tests/test_uv_window.py -q", True, "11 passed"),
           A("超过 lateness 的事件现在走 side output，单独落到 HDFS 的 late/ 目录，每小时一个分区。"
             "测试 11 个都过了。水位线那块这次没动。")],
          done=["迟到数据打到侧输出流"], traps=["水位线延迟还是写死的 5 秒"]),
        S([U("水位线那个改了吗？"), A("还没有，乱序容忍现在仍是固定 5 秒，要我下一步做吗？")],
          light=True, traps=["水位线延迟还是写死的 5 秒"]),
        S([U("做吧，从作业参数读，默认值保持不变"),
           E("jobs/uv_window.py"), E("conf/uv.yaml"),
           B("pytest tests/test_uv_window.py -q", True, "12 passed"),
           A("加了 --watermark-delay 参数，默认 5s，跨机房的作业在 conf/uv.yaml 里配成 20s。12 passed。"
             "HyperLogLog 的误差我顺手看了下文档，但还没拿真实数据去比，先不算数。")],
          done=["水位线延迟还是写死的 5 秒"], traps=["HyperLogLog 误差也还没评估过"]),
        END,
    ]),
    ("b10-zh-bt-print", "zh", [
        S([U("门店的安卓收银 app 要接蓝牙小票打印机，ESC/POS 指令，入口在 app/src/main/java/pos/PrinterService.kt"),
           R("app/src/main/java/pos/PrinterService.kt"),
           W("app/src/main/java/pos/EscPos.kt"), E("app/src/main/java/pos/PrinterService.kt"),
           B("./gradlew testDebugUnitTest", True, "BUILD SUCCESSFUL, 18 tests"),
           A("能连上佳博的 58mm 机器打印了：中文走 GBK 编码，二维码用 GS ( k 指令。"
             "断开后会自动重连三次，之后弹提示，这个是按你们门店的习惯来的。"
             "目前只测了 58mm 的纸宽，80mm 的排版还没适配。另外打印 logo 图片这块是空的，EscPos.kt 里留了个桩。")],
          topic=["蓝牙小票打印机"], files=["app/src/main/java/pos/PrinterService.kt"],
          todos=["80mm 的排版还没适配", "打印 logo 图片这块是空的"]),
        S([U("logo 先做了吧，用门店配置里的那张 png"),
           E("app/src/main/java/pos/EscPos.kt"), W("app/src/test/java/pos/EscPosTest.kt"),
           B("./gradlew testDebugUnitTest", True, "BUILD SUCCESSFUL, 21 tests"),
           A("位图现在按 GS v 0 光栅指令输出，先抖动成黑白再按 384 点宽缩放，单测 21 个全过。"
             "顺便把二维码的纠错等级调到 M。80mm 的纸宽我还是没动，排版都是按 32 个字符一行算的。"
             "下次记得在真机上打一张看看灰度。")],
          done=["打印 logo 图片这块是空的"], traps=["80mm 的排版还没适配"],
          todos=["在真机上打一张看看灰度"]),
        S([U("灰度我今天在店里打过了，挺清楚的。80mm 的也弄一下"),
           E("app/src/main/java/pos/EscPos.kt"), E("app/src/main/java/pos/Layout.kt"),
           B("./gradlew testDebugUnitTest", True, "BUILD SUCCESSFUL, 25 tests"),
           A("宽纸现在按 48 字符一行排，打印机型号从设置里选，两种纸宽都有快照测试，25 个通过。"
             "商品名超长时会折行而不是截断，这是有意的。")],
          done=["在真机上打一张看看灰度", "80mm 的排版还没适配"]),
        END,
    ]),
    ("b10-zh-kws", "zh", [
        S([U("我们要训练一个唤醒词模型“小度同学”那种，部署到 TFLite，训练脚本在 kws/train.py，先跑通"),
           R("kws/train.py"), E("kws/train.py"),
           B("python kws/train.py --epochs 2", True, "val_acc 0.91 far/h 2.3"),
           A("跑通了，2 个 epoch 验证集准确率 0.91，误唤醒率每小时 2.3 次。"
             "特征用的是 40 维 MFCC，窗长 30ms，和端上保持一致。"
             "现在存在几个问题：\n1. 负样本只有安静环境的录音，没有电视噪声\n2. 量化后的模型还没在板子上测过延迟\n"
             "3. 数据增强还没加\n误唤醒率偏高主要是负样本不够，不是模型结构的问题。")],
          topic=["唤醒词模型"], files=["kws/train.py"],
          todos=["没有电视噪声", "量化后的模型还没在板子上测过延迟", "数据增强还没加"]),
        S([U("先把数据增强加上，时间平移加混响就行"),
           E("kws/augment.py"), E("kws/train.py"),
           B("python kws/train.py --epochs 20", True, "val_acc 0.953 far/h 1.1"),
           A("增强加好了：±100ms 随机平移 + RIR 混响，20 个 epoch 后准确率 0.953，误唤醒降到每小时 1.1 次。"
             "负样本我只把公开的办公室噪声加了进去，电视节目的还没有找到合适的数据。")],
          done=["数据增强还没加"], traps=["没有电视噪声"]),
        S([U("板子上的延迟我自己用 benchmark 工具测了，int8 模型 12ms 一帧，够用"),
           A("好的，12ms 在 30ms 的帧移内，实时没问题。")],
          light=True, done=["量化后的模型还没在板子上测过延迟"]),
        S([U("先导出一版 int8 的 tflite 给固件组，负样本的事后面再说"),
           E("kws/export.py"), B("python kws/export.py --int8", True, "wrote kws_int8.tflite (61 KB)"),
           B("python kws/eval_tflite.py", False, "AssertionError: acc drop 0.06 > 0.02"),
           A("导出了 kws_int8.tflite，61KB，但量化后准确率掉了 6 个点，超过 2 点的门槛，评测没过，"
             "我怀疑是校准集太小，下次换 500 条再校准。负样本还是只有办公室噪声那批。")],
          traps=["没有电视噪声"]),
        END,
    ]),
    ("b10-zh-archive", "zh", [
        S([U("订单库的 order_log 表有 8 亿行了，写个归档脚本用 pt-archiver 把半年前的搬到归档库，脚本放 ops/archive_order_log.sh"),
           W("ops/archive_order_log.sh"), B("bash ops/archive_order_log.sh --dry-run", True, "would move 512340112 rows"),
           A("脚本写好了，dry-run 显示要搬 5.1 亿行，每批 5000 行，批间 sleep 0.2 秒避免主从延迟。"
             "目前只在夜里 2 点到 5 点跑，这是故意的，白天不动。"
             "归档库的连接串现在是明文写在脚本里的，得挪到 vault。我们应该也得给主从延迟加个熔断，超过 10 秒就暂停。")],
          topic=["归档脚本"], files=["ops/archive_order_log.sh"],
          todos=["明文写在脚本里", "主从延迟加个熔断"]),
        S([U("熔断先做"),
           E("ops/archive_order_log.sh"), W("ops/check_lag.sh"),
           B("bash ops/check_lag.sh --test", True, "lag=0s ok"),
           A("写了 ops/check_lag.sh 查 Seconds_Behind_Master，归档脚本每批前调用一次。"
             "但是暂停后恢复的逻辑还没写完，现在超阈值会直接退出，等于只做了一半。")],
          traps=["主从延迟加个熔断"]),
        S([U("继续"),
           E("ops/archive_order_log.sh"), B("bash tests/archive_lag_test.sh", True, "3 cases passed"),
           A("超过 10 秒现在会 sleep 30 秒再查，连续 20 次还高才退出并发告警。3 个用例通过。"
             "连接串那块我没碰，依旧在脚本里。")],
          done=["主从延迟加个熔断"], traps=["明文写在脚本里"]),
        S([U("连接串改成从 vault 取了吗"), A("还没，需要你先在 vault 里建好 secret/dba/archive 这个路径，我才能接。")],
          light=True, traps=["明文写在脚本里"]),
        END,
    ]),
    ("b10-zh-ota", "zh", [
        S([U("网关设备是树莓派 CM4 跑 Yocto，要用 SWUpdate 做 A/B 分区 OTA，配置在 meta-gw/recipes-core/swupdate/sw-description"),
           R("meta-gw/recipes-core/swupdate/sw-description"), E("meta-gw/recipes-core/swupdate/sw-description"),
           B("bitbake gw-image-swu", True, "Tasks Summary: all succeeded"),
           A("镜像打出来了，双 rootfs 分区，升级包签名用 RSA-2048。升级失败时 U-Boot 会在三次启动失败后回滚，这个我在 QEMU 里验证过。"
             "有空把升级进度上报到云端，现在只能看串口日志。还有 /data 分区升级后会不会保留还没验证。")],
          topic=["A/B 分区 OTA"], files=["meta-gw/recipes-core/swupdate/sw-description"],
          todos=["升级进度上报到云端", "/data 分区升级后会不会保留还没验证"]),
        S([U("进度上报做一下，走 MQTT 就行"),
           E("meta-gw/recipes-core/swupdate/files/progress-mqtt.sh"), E("meta-gw/recipes-core/swupdate/swupdate.bb"),
           B("bitbake gw-image-swu", True, "Tasks Summary: all succeeded"),
           B("./test/ota_progress.sh", True, "received 0%..100% on gw/+/ota"),
           A("swupdate-progress 的输出现在转发到 gw/<sn>/ota 主题，测试里收到了 0% 到 100% 的完整序列。")],
          done=["升级进度上报到云端"]),
        S([U("继续"),
           B("./test/ota_keep_data.sh", True, "/data checksum unchanged after upgrade, 2/2"),
           A("在两台板子上各升级一次，/data 的校验和升级前后一致。Done — 2/2 通过。"
             "注意 /data 是 ext4 且没有挂到 rootfs 里，这本来就是设计。")],
          done=["/data 分区升级后会不会保留还没验证"]),
        END,
    ]),
    ("b10-zh-sms", "zh", [
        S([U("登录要加短信验证码，用阿里云短信，代码在 auth/sms_login.go"),
           W("auth/sms_login.go"), B("go test ./auth/...", True, "ok  auth 0.41s"),
           A("短信登录接好了：验证码 6 位，5 分钟过期，存在 Redis 里。同一手机号 60 秒内只能发一次，这是故意的。"
             "还没做的：\n- 图形验证码，防刷\n- 同一 IP 的每日发送上限\n- 短信模板现在是写死的，运营改不了")],
          topic=["短信验证码"], files=["auth/sms_login.go"],
          todos=["图形验证码，防刷", "同一 IP 的每日发送上限", "短信模板现在是写死的"]),
        S([U("先做 IP 上限，每天 20 条"),
           E("auth/sms_login.go"), E("auth/ratelimit.go"), B("go test ./auth/...", True, "ok  auth 0.52s"),
           A("每个 IP 每天 20 条的上限加上了，计数在 Redis 里按自然日过期，测试通过。"
             "顺便修了个 bug：验证码校验成功后没删 key，可以重复用——已经改成校验后立即删除。"
             "图形验证码下一步做。")],
          done=["同一 IP 的每日发送上限"], traps=["图形验证码，防刷"]),
        S([U("模板的事运营说不急，下个版本再说。图形验证码今天能做吗"),
           A("可以，我建议用腾讯的滑块或者自己出 4 位字符图，你选一个？")],
          light=True, traps=["图形验证码，防刷", "短信模板现在是写死的"]),
        S([U("自己出字符图吧"),
           W("auth/captcha.go"), E("auth/sms_login.go"), B("go test ./auth/...", True, "ok  auth 0.61s"),
           A("发短信前现在要先过 4 位字符图的校验，图片用 base64 返回，答案存 Redis 2 分钟。测试全过。")],
          done=["图形验证码，防刷"]),
        END,
    ]),
    ("b10-en-notion", "en", [
        S([U("I'm building a small Deno CLI that syncs our Notion pages to markdown for the repo. Start with src/sync.ts"),
           W("src/sync.ts"), B("deno test -A", True, "ok | 6 passed"),
           A("The sync pulls every page under the root, converts blocks to markdown and writes one file per page. "
             "Child pages become folders, that's intended. The Notion API paginates at 100 blocks, which is handled. "
             "A few things I didn't get to: images are linked to Notion's S3 URLs, which expire after an hour, "
             "and toggle blocks are dropped entirely. It'd be nice to have a --since flag so it only fetches pages edited recently.")],
          topic=["Notion pages to markdown"], files=["src/sync.ts"],
          todos=["expire after an hour", "toggle blocks are dropped", "a --since flag"]),
        S([U("download the images locally instead"),
           E("src/sync.ts"), W("src/assets.ts"), B("deno test -A", True, "ok | 9 passed"),
           A("Images now get saved into assets/ next to each page and the markdown points at the local copy; "
             "I hash the URL path so re-syncs don't duplicate files. 9 passed. "
             "Toggles: I looked, they need the children fetched per block, so I'll do those next.")],
          done=["expire after an hour"], traps=["toggle blocks are dropped"]),
        S([U("continue"),
           E("src/sync.ts"), E("src/blocks.ts"), B("deno test -A", True, "ok | 12 passed"),
           A("Done — toggles render as <details><summary> now, children included. 12 passed.")],
          done=["toggle blocks are dropped"]),
        S([U("thanks. I added the incremental mode myself last night, it uses last_edited_time"),
           A("Nice — that'll cut the sync time a lot on the big workspace.")],
          light=True, done=["a --since flag"]),
        END,
    ]),
    ("b10-en-love-saves", "en", [
        S([U("Our LÖVE roguelike needs save files. The game state lives in src/state.lua; add save/load on quit"),
           R("src/state.lua"), W("src/save.lua"), E("src/state.lua"),
           B("busted spec/", True, "14 successes / 0 failures"),
           A("Saving works: on quit the run state is serialized to save.dat in the love save directory and "
             "restored on launch. The RNG seed is saved too, so a reloaded run plays out the same — that's deliberate. "
             "Two gaps: the save file has no version number, so any change to the format will break old saves, "
             "and nothing stops a player from editing gold in the file. The inventory isn't saved yet either.")],
          topic=["save files"], files=["src/state.lua"],
          todos=["the save file has no version number", "editing gold in the file", "The inventory isn't saved yet"]),
        S([U("do the inventory"),
           E("src/save.lua"), E("src/inventory.lua"), B("busted spec/", True, "17 successes / 0 failures"),
           A("Items, stack counts and the equipped slots now round-trip through the save; 17 specs pass. "
             "While in there I fixed the save being written twice on alt-F4. "
             "The format still isn't versioned, so I kept the new fields optional on load.")],
          done=["The inventory isn't saved yet"], traps=["the save file has no version number"]),
        S([U("Did you add a checksum to stop people editing gold?"),
           A("Not yet — anyone with a hex editor can still change it. Want me to do an HMAC over the payload?")],
          light=True, traps=["editing gold in the file"]),
        S([U("yes, and after this remind me to tell the Steam Deck testers to wipe their saves"),
           E("src/save.lua"), W("spec/tamper_spec.lua"), B("busted spec/", True, "20 successes / 0 failures"),
           A("Saves are now signed with an HMAC-SHA256 over the payload; a tampered file is rejected and the "
             "player starts a fresh run with a message. 20 specs pass. I also stamped a format_version=1 field "
             "and a migration table, so older saves load through it.")],
          done=["editing gold in the file", "the save file has no version number"],
          todos=["tell the Steam Deck testers to wipe their saves"]),
        END,
    ]),
    ("b10-en-vitepress", "en", [
        S([U("Move our SDK docs to VitePress and generate the API reference from TypeDoc. Config is docs/.vitepress/config.ts"),
           W("docs/.vitepress/config.ts"), B("npm run docs:build", True, "build complete in 14.2s"),
           A("The site builds: guides are under docs/guide/, and typedoc-plugin-markdown writes the API pages to "
             "docs/api/ before each build. The sidebar for the API is generated, so it follows the exports. "
             "Remaining:\n1. the old /v2/ URLs have no redirects\n2. search is the default local search, "
             "which doesn't index the API pages\n3. there's no version switcher for the 3.x docs")],
          topic=["VitePress"], files=["docs/.vitepress/config.ts"],
          todos=["the old /v2/ URLs have no redirects", "doesn't index the API pages", "no version switcher"]),
        S([U("let's do the redirects"),
           W("docs/public/_redirects"), E("docs/.vitepress/config.ts"),
           B("node scripts/check-redirects.mjs", False, "41/97 old URLs resolve, 56 still 404"),
           A("I mapped the guides — 41 of the 97 old URLs now redirect — but the API pages aren't mapped yet "
             "because their slugs changed shape, so 56 still 404.")],
          traps=["the old /v2/ URLs have no redirects"]),
        S([U("continue"),
           E("docs/public/_redirects"), B("node scripts/check-redirects.mjs", True, "97/97 old URLs resolve"),
           A("All 97 legacy paths resolve now; the API ones go through a pattern rule. Also fixed the dark-mode "
             "logo in the nav.")],
          done=["the old /v2/ URLs have no redirects"]),
        S([U("search: can we get the API pages in?"),
           E("docs/.vitepress/config.ts"), B("npm run docs:build", True, "build complete in 15.0s"),
           A("Switched the local search to include docs/api/ with a custom _render that strips the signature "
             "tables; searching for `createClient` now returns its reference page first. The build stays "
             "around 15 seconds. The 3.x version switcher is still not there.")],
          done=["doesn't index the API pages"], traps=["no version switcher"]),
        END,
    ]),
    ("b10-en-licenses", "en", [
        S([U("We sell the desktop app through Lemon Squeezy. Add license key activation in the app; the client is app/licensing/activate.py"),
           W("app/licensing/activate.py"), B("pytest tests/test_activate.py -q", True, "8 passed"),
           A("Activation calls the license API with the key and a machine fingerprint and caches the instance id. "
             "The app re-validates once a week and keeps working offline for 14 days, which is intended. "
             "We should probably handle the activation limit — right now hitting it shows a raw JSON error. "
             "Also deactivation on uninstall isn't wired, so people burn a seat each reinstall.")],
          topic=["license key activation"], files=["app/licensing/activate.py"],
          todos=["handle the activation limit", "deactivation on uninstall isn't wired"]),
        S([U("fix the error for the activation limit"),
           E("app/licensing/activate.py"), E("app/ui/license_dialog.py"),
           B("pytest tests/test_activate.py -q", True, "10 passed"),
           A("When the seat cap is reached the dialog now says how many machines are active and links to the "
             "customer portal to free one. 10 passed.")],
          done=["handle the activation limit"]),
        S([U("what about releasing the seat when someone uninstalls?"),
           E("app/licensing/activate.py"), B("pytest tests/test_activate.py -q", True, "11 passed"),
           A("I added a deactivate() call in activate.py and a menu item 'Release this machine', 11 passed. "
             "The uninstaller itself doesn't call it yet — that needs the NSIS script change, which I'll do next.")],
          traps=["deactivation on uninstall isn't wired"]),
        S([U("continue"),
           E("installer/uninstall.nsi"), B("make installer-test", True, "uninstall: instance deactivated (1/1)"),
           A("The NSIS uninstaller now runs the app with --release-license before removing files; the installer "
             "test shows the instance deactivated. That's in now.")],
          done=["deactivation on uninstall isn't wired"]),
        END,
    ]),
    ("b10-en-edge-limit", "en", [
        S([U("Put a per-API-key rate limiter in our Cloudflare Worker using Durable Objects; the worker is src/worker.ts"),
           R("src/worker.ts"), W("src/limiter.ts"), E("src/worker.ts"),
           B("npx vitest run", True, "Test Files 3 passed"),
           A("Each API key maps to one Durable Object holding a sliding window; over the limit returns 429 with "
             "Retry-After. Requests with no key are rejected with 401 before the limiter, on purpose. "
             "The limits are hard-coded at 100/min for every plan, and the limiter has no tests for the "
             "window boundary. At some point we should emit the 429s to Analytics Engine.")],
          topic=["rate limiter"], files=["src/worker.ts"],
          todos=["hard-coded at 100/min for every plan", "no tests for the window boundary",
                 "emit the 429s to Analytics Engine"]),
        S([U("write the boundary tests"),
           W("test/limiter.window.test.ts"), B("npx vitest run", False, "1 failed: request at 59.999s counted in next window"),
           A("Added 5 boundary tests; one fails — a request at 59.999s lands in the next window because I round "
             "the timestamp. I'll fix the rounding next session.")],
          traps=["no tests for the window boundary"]),
        S([U("continue"),
           E("src/limiter.ts"), B("npx vitest run", True, "Test Files 4 passed, 23 tests"),
           A("Done — tests pass.")],
          done=["no tests for the window boundary"]),
        S([U("the per-plan limits: read them from the KV plans table"),
           E("src/limiter.ts"), E("src/plans.ts"), B("npx vitest run", True, "Test Files 4 passed, 26 tests"),
           A("Limits come from the PLANS KV now (free 60/min, pro 600/min, enterprise 6000/min), cached in the "
             "DO for 5 minutes. 26 tests pass. The Analytics Engine part I haven't started.")],
          done=["hard-coded at 100/min for every plan"], traps=["emit the 429s to Analytics Engine"]),
        END,
    ]),
    ("b10-en-ppo", "en", [
        S([U("Train a PPO agent with Stable-Baselines3 for our warehouse picking sim. Env is sim/pick_env.py, training in rl/train_ppo.py"),
           R("sim/pick_env.py"), W("rl/train_ppo.py"),
           B("python rl/train_ppo.py --steps 2e6", True, "ep_rew_mean 41.2 success 0.63"),
           A("After 2M steps the agent reaches 63% pick success, mean episode reward 41. "
             "The reward is shaped on distance to the bin; that's why early episodes look like it's circling. "
             "Honestly the observation isn't normalized, which probably hurts. Also it only trains on one shelf "
             "layout, so it'll likely overfit; and it'd be nice to log episode videos to W&B.")],
          topic=["PPO agent"], files=["rl/train_ppo.py"],
          todos=["the observation isn't normalized", "only trains on one shelf layout", "log episode videos to W&B"]),
        S([U("wrap it in VecNormalize and rerun"),
           E("rl/train_ppo.py"), B("python rl/train_ppo.py --steps 2e6", True, "ep_rew_mean 58.7 success 0.81"),
           A("With VecNormalize on obs and reward, success went 63% → 81% at the same 2M steps. The normalization "
             "stats are saved next to the checkpoint, so eval loads them too.")],
          done=["the observation isn't normalized"]),
        S([U("now randomize the shelf layouts"),
           E("sim/pick_env.py"), B("python rl/train_ppo.py --steps 2e6", True, "ep_rew_mean 44.0 success 0.66"),
           A("The env now samples shelf positions from a seed, but only between the 3 layouts in layouts.yaml so "
             "far — the procedural generator isn't written. Success on held-out layouts is 66%. Videos next.")],
          traps=["only trains on one shelf layout", "log episode videos to W&B"]),
        END,
    ]),
    ("b10-mx-totp", "mixed", [
        S([U("我们的 Laravel 后台要加 TOTP 两步验证，代码在 app/Http/Controllers/TwoFactorController.php，先把绑定流程做出来"),
           W("app/Http/Controllers/TwoFactorController.php"), B("php artisan test --filter TwoFactor", True, "Tests: 6 passed"),
           A("绑定流程好了：生成 secret、展示二维码、输入一次 6 位码确认后才启用。secret 用 Laravel 的 encrypter 加密存库。"
             "时间窗口允许前后各 1 个 30 秒步长，这是故意的，手机时间经常不准。"
             "还缺恢复码，丢了手机就进不来了。管理员强制开启 2FA 的开关也还没有。")],
          topic=["TOTP 两步验证"], files=["app/Http/Controllers/TwoFactorController.php"],
          todos=["还缺恢复码", "管理员强制开启 2FA 的开关也还没有"]),
        S([U("Add the recovery codes now, 10 of them, one-time use"),
           E("app/Http/Controllers/TwoFactorController.php"), W("app/Models/RecoveryCode.php"),
           B("php artisan test --filter TwoFactor", True, "Tests: 11 passed"),
           A("Backup codes are in: 10 one-time codes generated at enrollment, stored hashed, each burned on use, "
             "and users can regenerate the set from settings. 11 tests pass. "
             "Note the codes are shown only once, by design.")],
          done=["还缺恢复码"]),
        S([U("enforce 2FA for admins 那个，先别做，等安全评审"),
           A("好的，先放着。")], light=True, traps=["管理员强制开启 2FA 的开关也还没有"]),
        S([U("评审过了，做吧"),
           E("app/Http/Middleware/RequireTwoFactor.php"), E("app/Http/Kernel.php"),
           B("php artisan test --filter TwoFactor", True, "Tests: 14 passed"),
           A("Admins without 2FA are now redirected to the enrollment page on every request until they finish it; "
             "there's a settings toggle `security.require_2fa_for_admins`, on by default. 14 tests pass.")],
          done=["管理员强制开启 2FA 的开关也还没有"]),
        END,
    ]),
    ("b10-mx-kmp", "mixed", [
        S([U("把 iOS 和 Android 的网络层合到 Kotlin Multiplatform 的 shared 模块里，用 Ktor，入口 shared/src/commonMain/kotlin/net/ApiClient.kt"),
           W("shared/src/commonMain/kotlin/net/ApiClient.kt"), B("./gradlew :shared:allTests", True, "BUILD SUCCESSFUL"),
           A("ApiClient 在 commonMain 里了，Android 用 OkHttp engine，iOS 用 Darwin engine，JSON 走 kotlinx.serialization。"
             "token 刷新是在 401 时串行刷新一次，这是有意的，避免并发刷新。"
             "目前 iOS 端还是调用老的 Alamofire 代码，没切过来。证书锁定只在 Android 上有，iOS 没做。")],
          topic=["Kotlin Multiplatform"], files=["shared/src/commonMain/kotlin/net/ApiClient.kt"],
          todos=["iOS 端还是调用老的 Alamofire 代码", "证书锁定只在 Android 上有"]),
        S([U("switch the iOS app over to the shared client"),
           E("iosApp/iosApp/Services/OrderService.swift"), E("iosApp/iosApp/Services/ProfileService.swift"),
           B("xcodebuild test -scheme iosApp", True, "** TEST SUCCEEDED **"),
           A("OrderService and ProfileService now call the shared ApiClient; tests pass. The other 4 services "
             "(cart, search, coupons, address) are still on Alamofire, so it's about a third done.")],
          traps=["iOS 端还是调用老的 Alamofire 代码"]),
        S([U("继续把剩下的切完"),
           E("iosApp/iosApp/Services/CartService.swift"), E("iosApp/iosApp/Services/SearchService.swift"),
           E("iosApp/iosApp/Services/CouponService.swift"), E("iosApp/iosApp/Services/AddressService.swift"),
           E("iosApp/Podfile"), B("xcodebuild test -scheme iosApp", True, "** TEST SUCCEEDED **"),
           A("The remaining four services use the shared client now and Alamofire is removed from the Podfile. "
             "Tests pass. Pinning on iOS is still missing.")],
          done=["iOS 端还是调用老的 Alamofire 代码"], traps=["证书锁定只在 Android 上有"]),
        S([U("iOS pinning 我自己加了，在 Darwin engine 的 handleChallenge 里，已经合了"),
           A("好，那两个平台的 pinning 就一致了。")], light=True, done=["证书锁定只在 Android 上有"]),
        END,
    ]),
]
