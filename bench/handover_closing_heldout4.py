"""The fourth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind5``) by an engineer who did not read the capture or
closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, docs/summaries.md, the Handover sections of BENCHMARKS.md) nor
the scenarios of the earlier sets (``handover_tuning_set.py``, ``handover_closing_set.py``,
``handover_closing_heldout.py``, ``handover_capture_set.py``, ``handover_closing_heldout2.py``,
``handover_closing_heldout3.py``) beyond their docstrings and first scenario. The earlier held-out
sets have been read or run by the people tuning the rules; this one replaces them as the held-out
measure. Do not read its scenarios or its misses to change a rule — when it has been read, write a
new set instead.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, U, W
from handover_tuning_set import S as _S


def S(steps, *, traps=(), **planted):
    """A session of ``handover_tuning_set.S`` plus ``traps``: earlier open to-dos (phrases) that this
    session touches, asks about or puts off but does NOT finish, so it must not close them."""
    session = _S(steps, **planted)
    session["traps"] = list(traps)
    return session


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
]
