"""The fourth to-do CAPTURE and CLOSING set (issue 20): written blind, since read — TUNING data now.

Written blind on 2026-11-26 (branch ``blind5``) by an engineer who did not read the capture or
closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, docs/summaries.md, the Handover sections of BENCHMARKS.md) nor
the scenarios of the earlier sets (``handover_tuning_set.py``, ``handover_closing_set.py``,
``handover_closing_heldout.py``, ``handover_capture_set.py``, ``handover_closing_heldout2.py``,
``handover_closing_heldout3.py``) beyond their docstrings and first scenario. The earlier held-out
sets have been read or run by the people tuning the rules; this one replaced them as the held-out
measure. It has since been read and run by the people tuning the rules as well, and from round 5 on
it is TUNING data: its numbers are an upper bound. ``handover_closing_heldout6.py`` is the held-out
set now.

14 projects, 4–5 sessions each (59 transcripts, 11 of them short) plus a last start: 6 Chinese,
6 English, 2 mixed (a Chinese speaker with English code and terms, switching language between
sessions). Domains, away from the earlier sets': a PySpark event-log cleaning job, React Native
barcode scanning, PyTorch DDP resumable training, an STM32 CAN bootloader, subscription proration
in Go, Argo Rollouts canaries, a Go CLI that follows pod logs, WebAuthn passkeys in Next.js, a MkDocs
Material site with mike, a Bevy inventory, DuckDB ingestion of CSV drops from S3, an Android Room
migration, a webpack-to-Vite migration, RAG retrieval on pgvector.

- 45 open to-dos planted (19 Chinese, 20 English, 6 mixed), stated as a state ("… is hard-coded",
  "… has no tests", "… hasn't been tried", "only run on …", "还是红的", "写死", "还没建", "只支持…"),
  as an indirect or hedged wish ("it'd be nice to…", "we should probably…", "at some point…",
  "eventually…", "回头得…", "有空…", "应该也得…不过不确定"), in numbered or bulleted "remaining"
  lists, in the person's own prompt ("remind me to…", "下次记得…"), and embedded in a longer report.
- 32 of them finished later in other words (14 Chinese, 14 English, 4 mixed): a synonym, the other
  language, a report with numbers, the person saying they did it (also in a short session), a
  request and work that passes, evidence alone (the named file edited and its test passing after a
  bare "continue" / "继续"), a bulleted status list, "that's in now", "已经合到 main" / "已经上线了".
- 20 traps (``traps`` on a session: an open to-do that session must NOT close; 8 Chinese, 10
  English, 2 mixed): a "not yet" / "还没" answer, the same file edited for something else, half-done
  work, a failing run, a sibling finished, work put off again, a question about it, a plan to do it,
  a statement that it is still so.
- Each project's first session plants its topic and main file.
- Most work sessions' final reports also hold 1–3 sentences that look like open work to a naive rule
  but are not: how the code works now, a result, a handled pitfall, an intended limit ("这是故意的",
  "on purpose", "that's intended"), a past cause, a request to the person that is not code work.

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``R``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout4`` runs it: to-dos are scored on a
``[ ]`` line of the next start context, finished ones must be gone from ``[ ]`` lines, wrong closes
and traps are read from the to-do index after each project's last session, and ``spurious_todos``
counts the ``[ ]`` lines at a scored start that hold no planted to-do of the project.

BASELINE — unchanged main (scripts of 79f70e5, before any rule was tuned with this set in existence),
``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout4 --json OUT``, offline
summarizer, 2026-11-26 07:58 UTC, load average 0.87 at start and 0.32 at the end (2 shared cores),
140 s: open to-dos captured (on a ``[ ]`` line of the next start) 31/45 (Chinese 14/19, English
12/20, mixed 5/6); finished to-dos still shown 9/32; closes right 9, missed 9, wrong 3; traps held
12, sprung 2, untested 6 (their to-do was never captured); spurious to-dos 19 of 87 ``[ ]`` lines at
the scored starts; topics 14/14; files 14/14; leaks 0; start context p50 5,991 characters (max
5,998); SessionStart p50 57.4 ms.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W


def OK(text="ok"):
    """Thanks, ok: a one-line session that must not push the work out of the brief."""
    return S([U(text), A("Sure." if text.isascii() else "好。")], light=True)


SCENARIOS = [
    # ---------------------------------------------------------------- Chinese
    ("b5-zh-spark", "zh", [
        S([U("用 PySpark 写一个埋点日志清洗作业：按 event_id 去重，补齐设备字段，结果按天分区写到 Hive"),
           W("etl/clean_events.py"), W("tests/test_clean_events.py"),
           B("pytest tests/test_clean_events.py", True, "7 passed in 12.40s"),
           A("清洗作业写好了：按 event_id 去重，设备字段从 dim_device 维表补齐，按 dt 分区写入 ods_events_clean，"
             "本地 7 个用例都过了。目前输出的分区数是写死的 200，数据量大的日子会产生一堆小文件。"
             "迟到超过一天的数据现在直接丢弃，这是故意的，和数仓那边约定过。"
             "维表 join 用的是广播，维表只有 30 万行，内存没问题。")],
          topic=["埋点日志清洗"], files=["etl/clean_events.py"], todos=["分区数是写死的"]),
        S([U("回头得给这个作业加个数据质量校验，比如空值率太高就让任务失败。今天先帮我把小文件的问题处理掉"),
           E("etl/clean_events.py"),
           B("spark-submit --master local[4] etl/clean_events.py --dt 2026-11-24", True,
             "wrote 180 files (avg 243 MB) in 9m12s"),
           A("输出文件数改成按当天输入数据量动态计算，每个文件约 256MB：11 月 24 日的数据从 2,100 个文件降到 180 个，"
             "写入时间从 14 分钟降到 9 分钟。coalesce 会让最后一个 stage 的并行度下降，所以用的是 repartition。")],
          done=["分区数是写死的"], todos=["加个数据质量校验"]),
        S([U("数据质量校验那块现在什么进度？"),
           A("还没开始，目前作业里没有任何校验，空值只是记在日志里。")],
          light=True, traps=["加个数据质量校验"]),
        S([U("继续"),
           W("etl/quality_checks.py"), E("etl/clean_events.py"), W("tests/test_quality_checks.py"),
           B("pytest tests/test_quality_checks.py tests/test_clean_events.py", True, "11 passed in 15.02s"),
           A("加好了：device_id 空值率超过 5%，或者行数比前 7 天均值低 40%，作业就直接失败并发告警，11 个用例通过。"
             "阈值放在 conf/quality.yaml。补历史数据现在还得一天一天手动跑，我没动。"
             "校验本身只多花了 20 秒左右。")],
          done=["加个数据质量校验"], todos=["一天一天手动跑"]),
        END,
    ]),
    ("b5-zh-rnscan", "zh", [
        S([U("仓库盘点 App 要加扫码入库，用 react-native-vision-camera 扫条码，扫到就调入库接口"),
           W("app/screens/ScanScreen.tsx"), W("app/api/stock.ts"),
           B("yarn jest ScanScreen", True, "Tests: 5 passed, 5 total"),
           A("扫码页做好了，连续扫描时同一个条码 2 秒内只提交一次，5 个测试通过。"
             "安卓那边的构建还是红的，vision-camera 的 gradle 插件和我们的 AGP 版本不兼容。"
             "另外离线时扫到的条码现在直接报错，不会暂存。"
             "我这边没有 iOS 真机，麻烦你找台 iPhone 试一下对焦速度。")],
          topic=["扫码入库"], files=["app/screens/ScanScreen.tsx"],
          todos=["安卓那边的构建还是红的", "离线时扫到的条码"]),
        S([U("安卓构建我看了，升 AGP 牵扯太多，先不管。你把离线暂存做了吧，用 MMKV 存"),
           W("app/offline/queue.ts"), E("app/screens/ScanScreen.tsx"),
           B("yarn jest", True, "Tests: 9 passed, 9 total"),
           A("断网时扫码结果会先进 MMKV 队列，网络恢复后按顺序补交，提交失败的留在队列里等下次。9 个测试通过。"
             "队列没有设上限——一个班次最多几百条，用不着。")],
          done=["离线时扫到的条码"], traps=["安卓那边的构建还是红的"]),
        S([U("Android CI 终于绿了，我自己把 vision-camera 降到 3.9 就好了，已经合到 main。"
             "你顺便把扫码成功的震动反馈加上。有空把扫码记录页也做了，不急"),
           E("app/screens/ScanScreen.tsx"),
           B("yarn jest ScanScreen", True, "Tests: 7 passed, 7 total"),
           A("扫码成功短震一下，失败长震两下，测试通过。静音模式下也会震，这是 Vibration API 的默认行为。")],
          done=["安卓那边的构建还是红的"], todos=["扫码记录页"]),
        OK("谢谢"),
        END,
    ]),
    ("b5-zh-ddp", "zh", [
        S([U("8 卡训练老是跑到一半被抢占，帮我给 DDP 训练脚本加断点续训，checkpoint 存到对象存储"),
           W("train/ddp_trainer.py"), W("train/ckpt_io.py"),
           B("torchrun --nproc_per_node=2 train/ddp_trainer.py --max-steps 50 --resume auto", True,
             "resumed from step 30 | step 50 loss 2.31"),
           A("断点续训加好了：每 500 步由 rank 0 存一份 checkpoint（模型、优化器、scheduler、随机数状态），"
             "启动时 --resume auto 会找最新的一份。2 卡冒烟从第 30 步续上，loss 曲线接得上。\n"
             "还有几件没做：\n"
             "1. dataloader 的采样位置没有恢复，续训后这个 epoch 会从头读数据\n"
             "2. 上传 checkpoint 是同步的，每次训练要卡 40 秒左右\n"
             "3. 旧的 checkpoint 不会自动清理\n"
             "GradScaler 的状态也一起存了，混合精度续训不会出现 loss 突增。")],
          topic=["断点续训"], files=["train/ddp_trainer.py"],
          todos=["采样位置没有恢复", "上传 checkpoint 是同步的", "不会自动清理"]),
        S([U("先把上传改成异步的吧"),
           E("train/ckpt_io.py"),
           B("torchrun --nproc_per_node=2 train/ddp_trainer.py --max-steps 1000", True,
             "step 500 | ckpt saved locally, upload queued (0.3s)\nstep 1000 | ckpt saved locally, upload queued (0.3s)"),
           A("存盘后交给后台线程传对象存储，训练只停 0.3 秒。上传失败会重试 3 次，都失败就打 error 日志，不会让训练退出。"
             "采样器的位置还是没恢复，我下一个就做它。")],
          done=["上传 checkpoint 是同步的"], traps=["采样位置没有恢复"]),
        S([U("采样器那个，我看 torchdata 的 StatefulDataLoader 好像能直接用？你先别改，我问下平台组镜像里的版本"),
           A("可以用，不过要 torchdata 0.8 以上，平台镜像里现在是 0.7。我先不动代码。")],
          light=True, traps=["采样位置没有恢复"]),
        S([U("平台组升级好了。继续"),
           E("train/ddp_trainer.py"), E("train/ckpt_io.py"),
           B("pytest tests/test_resume.py", True, "3 passed in 41.20s"),
           A("换成了 StatefulDataLoader，读数据的进度随 checkpoint 一起存，续训后从中断的那个 batch 接着读，"
             "恢复测试 3 个都过了。对象存储上只保留最近 3 份 checkpoint，更早的在新的一份上传成功后删掉。"
             "目前只在单机 8 卡上验证过，多机还没测。")],
          done=["采样位置没有恢复", "不会自动清理"], todos=["多机还没测"]),
        END,
    ]),
    ("b5-zh-canboot", "zh", [
        S([U("给 STM32F4 写一个通过 CAN 总线升级固件的 bootloader，上位机用 python-can 发数据"),
           W("boot/can_boot.c"), W("tools/flash_can.py"),
           B("make -C boot && python tools/flash_can.py --dry-run build/app.bin", True,
             "bootloader 14.2 KB | 236 frames planned"),
           A("bootloader 写好了，编译后 14.2KB，占前两个扇区，应用从 0x08008000 开始。"
             "上位机按 8 字节一帧发送，每 256 字节做一次 CRC 校验。"
             "现在还没有签名校验，谁接上 CAN 总线都能刷固件。波特率写死在 500k。"
             "bootloader 里把看门狗关掉了，这是故意的，擦一个扇区要 1 秒多。")],
          topic=["CAN 总线升级固件"], files=["boot/can_boot.c"],
          todos=["还没有签名校验", "波特率写死在 500k"]),
        S([U("下次记得把升级失败回滚做了。今天先把波特率改成可配的，存在单独的配置扇区里"),
           E("boot/can_boot.c"),
           B("make -C boot", True, "bootloader 14.6 KB"),
           A("CAN 速率现在从配置扇区读，支持 125k/250k/500k/1M，读不到有效值时用 500k。编译后 14.6KB，仍在两个扇区以内。")],
          done=["波特率写死在 500k"], todos=["升级失败回滚"]),
        S([U("签名校验做了吗"),
           A("还没有。要做的话建议用 ed25519，bootloader 大概会多 6KB，得多占一个扇区。")],
          light=True, traps=["还没有签名校验"]),
        S([U("继续"),
           E("boot/can_boot.c"),
           B("make -C boot && python tools/flash_can.py --port can0 build/app_bad.bin", False,
             "verify failed at block 37: CRC mismatch; device stayed in update mode"),
           A("开始做回滚了：写入中途 CRC 出错时会停在升级模式等上位机重发，但还没有保存旧固件的区域，真断电的话还是会变砖。")],
          traps=["升级失败回滚"]),
        S([U("把 A/B 双分区的方案做完"),
           E("boot/can_boot.c"), E("tools/flash_can.py"),
           B("make -C boot && python tools/flash_can.py --port can0 --cut-power-at 50% build/app.bin", True,
             "power cut at block 118 -> booted slot A (previous)\nreflash ok -> booted slot B"),
           A("改成 A/B 双分区了：新固件写进备用分区，整包校验通过才切换启动标志，刷到一半断电会从原来的分区启动。"
             "断电测试两次都能正常起来。")],
          done=["升级失败回滚"]),
        END,
    ]),
    ("b5-zh-proration", "zh", [
        S([U("会员中途升级套餐要按剩余天数折算差价，帮我在 billing 服务里实现"),
           W("billing/proration.go"), W("billing/proration_test.go"),
           B("go test ./billing/...", True, "ok  \tbilling\t0.412s"),
           A("折算实现了：差价 = (新套餐日价 − 旧套餐日价) × 剩余天数，全程用分为单位的整数算，最后四舍五入到分，go test 通过。"
             "降级现在是直接拒绝的。年付套餐还没考虑，目前只支持月付。"
             "闰年二月已经按实际天数算了。")],
          topic=["按剩余天数折算"], files=["billing/proration.go"],
          todos=["降级现在是直接拒绝的", "目前只支持月付"]),
        S([U("降级也支持一下：降级不退钱，下个周期生效"),
           E("billing/proration.go"), E("billing/proration_test.go"),
           B("go test ./billing/...", True, "ok  \tbilling\t0.447s"),
           A("降级改成在当前计费周期结束时生效，这期间保留原套餐权益，不产生退款，测试通过。"
             "优惠券叠加的情况应该也得处理一下，不过我不确定产品那边的规则。")],
          done=["降级现在是直接拒绝的"], todos=["优惠券叠加的情况"]),
        S([U("年付那块财务说按月折算，不足一月按天。今天先把发票上的折算明细行加上"),
           E("billing/invoice.go"), E("billing/proration.go"),
           B("go test ./billing/...", True, "ok  \tbilling\t0.461s"),
           A("发票上现在会多一行“套餐升级差价（剩余 12 天）”，proration.go 里加了一个返回明细的函数给发票用。"
             "年付的折算还没开始写，财务的口径我记下了。")],
          traps=["目前只支持月付"]),
        S([U("按财务的口径把年付做了"),
           E("billing/proration.go"), E("billing/proration_test.go"),
           B("go test ./billing/...", True, "ok  \tbilling\t0.530s"),
           A("年付套餐的升级现在按月折算、不足一月按天，12 个用例覆盖了月付升年付、年付升年付和跨年，测试通过。")],
          done=["目前只支持月付"]),
        S([U("优惠券叠加那个我自己改好了，已经上线了"),
           A("好的，那这块就收尾了。")],
          light=True, done=["优惠券叠加的情况"]),
        END,
    ]),
    ("b5-zh-rollout", "zh", [
        S([U("把 user-api 的发布改成 Argo Rollouts 金丝雀，按 10%、30%、100% 三步走，中间用 Prometheus 的错误率做分析"),
           W("deploy/user-api/rollout.yaml"), W("deploy/user-api/analysis.yaml"),
           B("kubectl argo rollouts lint deploy/user-api/rollout.yaml", True, "✔ valid"),
           A("金丝雀配置写好了：10% 停 5 分钟，30% 停 10 分钟，每一步都跑一次错误率分析，5xx 比例超过 1% 自动回滚，lint 通过。"
             "分析模板里的 Prometheus 地址是写死的 prod 集群地址。测试环境还没有 Prometheus，那边暂时跑不了分析。"
             "流量比例是按副本数算的，不是精确的 10%，这对我们够用。")],
          topic=["Argo Rollouts 金丝雀"], files=["deploy/user-api/rollout.yaml"],
          todos=["Prometheus 地址是写死的", "测试环境还没有 Prometheus"]),
        S([U("监控地址改成按集群注入"),
           E("deploy/user-api/analysis.yaml"), W("deploy/user-api/overlays/staging/kustomization.yaml"),
           B("kustomize build deploy/user-api/overlays/staging | kubectl argo rollouts lint -", True, "✔ valid"),
           A("分析模板里的查询地址改成由 kustomize 的 configMapGenerator 按集群注入，prod 和 staging 各一份，lint 通过。"
             "staging 目前没有 Prometheus，所以那边的分析步骤会一直是 Inconclusive。")],
          done=["Prometheus 地址是写死的"], traps=["测试环境还没有 Prometheus"]),
        S([U("staging 的 Prometheus 运维昨天装好了。再加一个延迟指标，p99 超过 800ms 也回滚"),
           E("deploy/user-api/analysis.yaml"),
           B("kubectl argo rollouts get rollout user-api -n staging", True,
             "Status: ✔ Healthy\nStep: 3/3\nAnalysisRun: Successful"),
           A("加了 p99 延迟分析，连续两次超过 800ms 就回滚。在 staging 跑了一次完整发布，三步都过了，分析结果 Successful。"
             "回滚后旧版本 Pod 会保留 30 秒，这是 scaleDownDelaySeconds 的默认值。"
             "order-api 还是老的滚动发布，以后可以考虑也迁过来。")],
          done=["测试环境还没有 Prometheus"], todos=["order-api 还是老的滚动发布"]),
        OK("好的"),
        END,
    ]),
    # ---------------------------------------------------------------- English
    ("b5-en-logtail", "en", [
        S([U("I want a small Go CLI, logtail, that follows logs from every pod matching a label selector "
             "and interleaves them with colored prefixes."),
           W("cmd/logtail/main.go"), W("internal/stream/merge.go"),
           B("go test ./...", True, "ok  \tlogtail/internal/stream\t0.21s"),
           A("logtail works: `logtail -l app=api` follows every matching pod, prefixes each line with the pod name "
             "in a stable color, and picks up pods that start later. Tests pass. It only talks to the current "
             "kubeconfig context, there's no --context flag yet. merge.go has no tests for the reconnect path. "
             "Lines longer than 64 KB are split, which matches what kubectl does.")],
          topic=["follows logs from every pod"], files=["cmd/logtail/main.go"],
          todos=["no --context flag yet", "no tests for the reconnect path"]),
        S([U("Add JSON output, --output json, one object per line. At some point we should publish binaries "
             "with goreleaser, but not today."),
           E("cmd/logtail/main.go"), E("internal/stream/merge.go"),
           B("go test ./...", True, "ok  \tlogtail/internal/stream\t0.24s"),
           A("`--output json` emits one object per line with pod, container, timestamp and message. Tests pass. "
             "I touched merge.go to carry the container name through; its reconnect handling is unchanged.")],
          todos=["publish binaries with goreleaser"], traps=["no tests for the reconnect path"]),
        S([U("continue"),
           W("internal/stream/merge_test.go"), E("internal/stream/merge.go"),
           B("go test ./internal/stream/ -run Reconnect -v", True,
             "--- PASS: TestReconnectAfterPodRestart (0.04s)\n--- PASS: TestReconnectBackoff (0.11s)\nPASS"),
           A("Both pass.")],
          done=["no tests for the reconnect path"]),
        S([U("Let me pick the cluster: add a flag for it, and respect KUBECONFIG with several files."),
           E("cmd/logtail/main.go"),
           B("go test ./...", True, "ok  \tlogtail/cmd/logtail\t0.31s\nok  \tlogtail/internal/stream\t0.22s"),
           A("`--context` and `--kubeconfig` are in, and several KUBECONFIG paths are merged the way kubectl merges "
             "them. Tests pass. Release binaries are still built by hand on my laptop.")],
          done=["no --context flag yet"], traps=["publish binaries with goreleaser"]),
        END,
    ]),
    ("b5-en-passkey", "en", [
        S([U("Add passkey sign-in to our Next.js app with SimpleWebAuthn. Users should register a passkey from "
             "their settings page."),
           W("lib/auth/webauthn.ts"), W("app/settings/passkeys/page.tsx"),
           B("pnpm vitest run webauthn", True, "Test Files  1 passed (1)\n     Tests  8 passed (8)"),
           A("Passkey registration and sign-in work end to end in Chrome. Challenges live in Redis for 5 minutes "
             "and are deleted after one use. 8 tests pass.\n"
             "A few things are left:\n"
             "- users can't rename or delete a passkey yet\n"
             "- the rpID is hard-coded to localhost\n"
             "- Safari hasn't been tried\n"
             "Password sign-in stays available as a fallback, as you asked.")],
          topic=["passkey sign-in"], files=["lib/auth/webauthn.ts"],
          todos=["rename or delete a passkey", "rpID is hard-coded", "Safari hasn't been tried"]),
        S([U("Make the relying party id come from the environment."),
           E("lib/auth/webauthn.ts"),
           B("pnpm vitest run webauthn", True, "Tests  9 passed (9)"),
           A("The RP ID and expected origin now come from WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN, and the server "
             "refuses to start in production when either is missing. 9 tests pass.")],
          done=["rpID is hard-coded"]),
        S([U("did you get to the passkey management UI?"),
           A("Not yet. The settings page only lists the passkeys; there's no rename or remove action.")],
          light=True, traps=["rename or delete a passkey"]),
        S([U("I checked Safari 17 on macOS and iOS myself, both fine. Now do the management bits."),
           E("app/settings/passkeys/page.tsx"), E("lib/auth/webauthn.ts"),
           B("pnpm vitest run", True, "Test Files  4 passed (4)\n     Tests  13 passed (13)"),
           A("Status:\n"
             "- passkey management: each passkey on the settings page has Rename and Remove; removing the last "
             "one is blocked when the account has no password\n"
             "- WebKit: checked by you on macOS and iOS\n"
             "- tests: 13 pass\n"
             "We should probably rate-limit the verify endpoint too, it accepts unlimited attempts right now.")],
          done=["Safari hasn't been tried", "rename or delete a passkey"], todos=["rate-limit the verify endpoint"]),
        END,
    ]),
    ("b5-en-mkdocs", "en", [
        S([U("Move our SDK docs from a pile of READMEs to MkDocs Material, with mike for versions."),
           W("mkdocs.yml"), W("docs/index.md"),
           B("mkdocs build --strict", True, "INFO    -  Documentation built in 3.21 seconds"),
           A("The site builds with --strict and has 1.x and 2.x versions through mike. Search works offline "
             "because the index is built at build time. The API reference pages are still pasted by hand from the "
             "docstrings; it'd be nice to generate them with mkdocstrings. The Chinese translation isn't wired in. "
             "A build takes about 3 seconds, so there's no need for caching.")],
          topic=["MkDocs Material"], files=["mkdocs.yml"],
          todos=["generate them with mkdocstrings", "Chinese translation isn't wired in"]),
        S([U("Add a deploy workflow for GitHub Pages."),
           W(".github/workflows/docs.yml"),
           B("act -j docs", True, "[docs/deploy] 🏁  Job succeeded"),
           A("Pushing to main deploys the dev version; a v* tag publishes that version with mike and moves the "
             "latest alias. The workflow ran locally under act. The old README links in the changelog point to "
             "files that no longer exist. I'll do the mkdocstrings reference pages next.")],
          todos=["links in the changelog"], traps=["generate them with mkdocstrings"]),
        S([U("continue"),
           E("mkdocs.yml"), W("docs/reference/client.md"),
           B("mkdocs build --strict", True, "INFO    -  Documentation built in 5.02 seconds"),
           A("Reference pages are rendered from the docstrings now (`::: sdk.client` and friends) with signatures "
             "and source links. The strict build passes.")],
          done=["generate them with mkdocstrings"]),
        S([U("the changelog links — still broken?"),
           A("Yes, 14 links in changelog.md still point to the removed READMEs.")],
          light=True, traps=["links in the changelog"]),
        S([U("Fix those, and add the i18n plugin with zh as the second language."),
           E("docs/changelog.md"), E("mkdocs.yml"),
           B("mkdocs build --strict", False,
             "WARNING -  Doc file 'zh/index.md' contains a link to 'quickstart.md', not found\n"
             "Aborted with 1 warnings in strict mode!"),
           A("All 14 changelog links point at the docs pages now. The i18n plugin is configured, but the strict "
             "build fails: the zh pages link to pages that haven't been translated.")],
          done=["links in the changelog"], traps=["Chinese translation isn't wired in"]),
        END,
    ]),
    ("b5-en-bevy", "en", [
        S([U("Let's build the inventory for our Bevy roguelike: grid slots, stacking, drag and drop."),
           W("src/inventory.rs"), W("src/ui/inventory_ui.rs"),
           B("cargo test inventory", True, "test result: ok. 9 passed; 0 failed; 0 ignored"),
           A("The inventory works: a 6x4 grid, items stack up to their max_stack, and dragging swaps or merges "
             "stacks. 9 tests pass. The inventory isn't saved anywhere yet, so it's gone when you quit. "
             "Gamepad input doesn't do anything in the grid. Dropping an item outside the window puts it back in "
             "its slot; that's intended.")],
          topic=["inventory for our Bevy roguelike"], files=["src/inventory.rs"],
          todos=["isn't saved anywhere yet", "Gamepad input doesn't do anything"]),
        S([U("Persist it with the rest of the game state, we use bevy_save."),
           E("src/inventory.rs"), W("src/save.rs"),
           B("cargo test", True, "test result: ok. 11 passed; 0 failed; 0 ignored"),
           A("Inventory contents go into the save file now and come back on load; an older save loads with an "
             "empty inventory. 11 tests pass. Eventually we'll want a tooltip showing item stats on hover.")],
          done=["isn't saved anywhere yet"], todos=["tooltip showing item stats"]),
        S([U("controller support in the grid please"),
           E("src/ui/inventory_ui.rs"),
           B("cargo test inventory_ui", False, "test gamepad_moves_focus ... FAILED\n"
             "test result: FAILED. 4 passed; 1 failed; 0 ignored"),
           A("D-pad focus movement is in, but gamepad_moves_focus fails: focus wraps from the last column to the "
             "first one of the same row. Looking into it.")],
          traps=["Gamepad input doesn't do anything"]),
        S([U("The tooltip I'll do myself later. Fix the wrap first."),
           E("src/ui/inventory_ui.rs"),
           B("cargo test inventory_ui", True, "test result: ok. 5 passed; 0 failed; 0 ignored"),
           A("Focus stops at the edges instead of wrapping; A picks up and drops, B cancels. A controller now "
             "works across the whole grid, and all 5 UI tests pass.")],
          done=["Gamepad input doesn't do anything"], traps=["tooltip showing item stats"]),
        END,
    ]),
    ("b5-en-duckdb", "en", [
        S([U("Build an ingestion script that loads the vendors' daily CSV drops from S3 into DuckDB and dedupes "
             "by invoice number."),
           W("ingest/load_drops.py"), W("tests/test_load_drops.py"),
           B("pytest tests/test_load_drops.py", True, "5 passed in 1.30s"),
           A("load_drops.py reads every new CSV under s3://vendor-drops/YYYY-MM-DD/, normalizes column names and "
             "upserts into invoices keyed by (vendor, invoice_no). 5 tests pass.\n"
             "Remaining:\n"
             "1. Files with a BOM break the header parsing\n"
             "2. There's no record of which files were already loaded, so a rerun reads everything again\n"
             "Dates are parsed as UTC on purpose; every vendor sends UTC.")],
          topic=["vendors' daily CSV drops"], files=["ingest/load_drops.py"],
          todos=["Files with a BOM", "no record of which files were already loaded"]),
        S([U("After this, remind me to ask Priya for the new vendor's sample file. For now, handle the BOM thing."),
           E("ingest/load_drops.py"), E("tests/test_load_drops.py"),
           B("pytest tests/test_load_drops.py", True, "6 passed in 1.41s"),
           A("Headers are decoded with utf-8-sig now, so a leading byte-order mark no longer ends up in the first "
             "column name; a fixture with one is in the tests. 6 pass.")],
          done=["Files with a BOM"], todos=["ask Priya for the new vendor's sample file"]),
        S([U("continue"),
           E("ingest/load_drops.py"), W("ingest/manifest.py"),
           B("pytest tests/test_load_drops.py", True, "9 passed in 1.62s"),
           A("A loaded_files table now keeps every S3 key with its ETag, and a rerun skips keys it has seen unless "
             "--force is given. 9 tests pass.")],
          done=["no record of which files were already loaded"]),
        S([U("Priya sent it, it's fixtures/acme_2026.csv. Does it load?"),
           R("fixtures/acme_2026.csv"),
           B("python ingest/load_drops.py --file fixtures/acme_2026.csv --dry-run", True, "412 rows, 0 rejected"),
           A("It loads: 412 rows, none rejected. Their amounts use a comma as the decimal separator, which the "
             "loader already handles. Nothing alerts us when a vendor's drop is missing for a day.")],
          done=["ask Priya for the new vendor's sample file"], todos=["Nothing alerts us when"]),
        END,
    ]),
    ("b5-en-room", "en", [
        S([U("We're moving the notes app from raw SQLite to Room. Start with the entities and the DAO, and keep "
             "the existing data."),
           W("app/src/main/java/com/acme/notes/db/AppDatabase.kt"), W("app/src/main/java/com/acme/notes/db/NoteDao.kt"),
           B("./gradlew :app:testDebugUnitTest", True, "BUILD SUCCESSFUL in 48s"),
           A("Room is in with Note and Tag entities and NoteDao. The migration from the old schema (version 7) to "
             "version 8 copies every row, checked with MigrationTestHelper. Build and unit tests pass. "
             "The export schema option is off, so no schema JSON is checked in. Full-text search still goes "
             "through the old raw query. The old DbHelper stays for one release on purpose, so a downgrade "
             "doesn't crash.")],
          topic=["raw SQLite to Room"], files=["app/src/main/java/com/acme/notes/db/AppDatabase.kt"],
          todos=["export schema option is off", "still goes through the old raw query"]),
        S([U("Turn on schema export and commit the JSON files."),
           E("app/src/main/java/com/acme/notes/db/AppDatabase.kt"), E("app/build.gradle.kts"),
           B("./gradlew :app:kspDebugKotlin :app:testDebugUnitTest", True, "BUILD SUCCESSFUL in 1m 2s"),
           A("Schema export, that's in now: exportSchema is true, room.schemaLocation points at app/schemas, and "
             "8.json is committed. Build passes. The instrumented tests only run on API 34 so far.")],
          done=["export schema option is off"], todos=["only run on API 34"]),
        S([U("is search next?"),
           A("It could be: Room supports @Fts4 entities, so the raw query can become an FTS entity plus a DAO "
             "method. I haven't changed anything yet.")],
          light=True, traps=["still goes through the old raw query"]),
        S([U("yes, do it"),
           W("app/src/main/java/com/acme/notes/db/NoteFts.kt"), E("app/src/main/java/com/acme/notes/db/NoteDao.kt"),
           B("./gradlew :app:connectedDebugAndroidTest", True, "Tests on Pixel_7_API_34: 23 passed\nBUILD SUCCESSFUL"),
           A("Search is backed by a Room @Fts4 entity now, kept in sync by triggers, and NoteDao.search returns a "
             "Flow. 23 instrumented tests pass on the API 34 emulator.")],
          done=["still goes through the old raw query"], traps=["only run on API 34"]),
        END,
    ]),
    # ---------------------------------------------------------------- mixed
    ("b5-mx-vite", "mixed", [
        S([U("把 admin 控制台从 webpack 4 迁到 Vite，先保证 dev 和 build 都能跑"),
           W("vite.config.ts"), E("package.json"),
           B("pnpm build", True, "✓ built in 21.4s"),
           A("Vite 迁移第一步完成：dev server 冷启动从 48 秒降到 3 秒，build 21 秒。环境变量从 process.env 改成了 import.meta.env。"
             "还有两处没迁：老的 SVG sprite loader 没有对应插件，图标现在显示不出来；Jest 还在用 babel 配置，单测没迁到 Vitest。")],
          topic=["迁到 Vite"], files=["vite.config.ts"],
          todos=["图标现在显示不出来", "单测没迁到 Vitest"]),
        S([U("For the icons use vite-plugin-svg-icons, keep the same symbol ids."),
           E("vite.config.ts"), E("src/main.ts"),
           B("pnpm build && pnpm test:e2e icons", True, "✓ built in 22.0s\n✓ 42 icons rendered"),
           A("The sprite is built by vite-plugin-svg-icons with the old symbol ids, and the Playwright check "
             "renders all 42 icons. The vendor chunk is 1.9 MB; a bundle-size budget in CI would catch it growing.")],
          done=["图标现在显示不出来"], todos=["bundle-size budget in CI"]),
        S([U("Vitest 那个迁了没？"),
           A("还没迁，单测还跑在 Jest + babel 上。")],
          light=True, traps=["单测没迁到 Vitest"]),
        S([U("继续"),
           E("vite.config.ts"), W("vitest.config.ts"),
           B("pnpm vitest run", True, "Test Files  61 passed (61)\n     Tests  388 passed (388)"),
           A("Unit tests run under Vitest now: 61 files, 388 tests pass. babel.config.js and jest.config.js are "
             "deleted.")],
          done=["单测没迁到 Vitest"]),
        END,
    ]),
    ("b5-mx-rag", "mixed", [
        S([U("帮我给客服知识库做 RAG 检索，用 pgvector 存 embedding，先把召回和 rerank 做出来"),
           W("rag/retriever.py"), W("rag/ingest.py"),
           B("pytest tests/test_retriever.py", True, "7 passed in 4.20s"),
           A("检索链路通了：文档按 512 token 切块，bge-m3 生成向量存进 pgvector，召回 top 50 再用 bge-reranker 排出 top 5，"
             "7 个测试通过。HNSW 索引还没建，现在是全表扫描，数据多了会慢。召回评测集也还没有，目前没法量化效果。")],
          topic=["客服知识库"], files=["rag/retriever.py"],
          todos=["HNSW 索引还没建", "召回评测集也还没有"]),
        S([U("Create the vector index, m=16, ef_construction=64, and keep ef_search configurable."),
           E("rag/ingest.py"), W("migrations/0003_vector_index.sql"),
           B("pytest tests/test_retriever.py && python bench/latency.py", True,
             "7 passed in 4.31s\np50 18ms p99 41ms (120k chunks)"),
           A("The index is built with m=16 and ef_construction=64; ef_search comes from RAG_EF_SEARCH, default 40. "
             "On 120k chunks p50 is 18 ms and p99 41 ms. Tests pass. We still have no labeled queries to "
             "measure recall against.")],
          done=["HNSW 索引还没建"], traps=["召回评测集也还没有"]),
        S([U("我标了 200 条 query，放在 eval/queries.jsonl，帮我写个脚本算 recall@5 和 MRR"),
           W("eval/run_eval.py"),
           B("python eval/run_eval.py", True, "recall@5 0.83  MRR 0.71  (200 queries)"),
           A("评测脚本写好了：200 条 query 上 recall@5 是 0.83，MRR 0.71。rerank 前的 recall@50 是 0.94，"
             "所以主要损失在 rerank 这一步。有空的话可以把评测接到 CI 里，每次改切块参数自动跑。")],
          done=["召回评测集也还没有"], todos=["把评测接到 CI 里"]),
        OK("ok"),
        END,
    ]),
]
