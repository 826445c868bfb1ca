"""The tenth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind11``, from f181e79) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, scripts/code_memory/text/lexicon.py,
scripts/code_memory/hooks/todo_check.py, docs/summaries.md, docs/hooks.md, the Handover sections of
BENCHMARKS.md) nor the scenarios of the earlier sets (``handover_tuning_set.py``,
``handover_closing_set.py``, ``handover_closing_heldout.py`` … ``handover_closing_heldout9.py``,
``handover_capture_set.py``, ``handover_capture2_set.py``, ``handover_capture6_set.py``,
``handover_traps_set.py``, ``handover_progress_set.py``, ``handover_wrongs_set.py``,
``handover_wrongs6_set.py``, ``handover_bilingual_set.py``) beyond their docstrings and first
scenario. It judges the rules and the Stop-hook to-do check of round 8 afterwards, beside
``handover_closing_heldout7.py`` … ``handover_closing_heldout9.py``. Do not read its scenarios or its
misses to change a rule — when it has been read, write a new set instead.

14 projects, 3–4 sessions each plus a last start: 6 Chinese, 6 English, 2 mixed (a Chinese speaker
with English code and terms, switching language between sessions). Domains, away from the earlier
sets': Prometheus/Alertmanager node alerts on k8s, a skewed Spark daily join, avatar upload in a WeChat
mini program, YOLOv8 PCB defect detection, a PID loop in STM32 gimbal firmware, SaaS e-invoice PDFs
(WeasyPrint), a Rust log-grep CLI, a GitHub-wiki → MkDocs Material move, WebAuthn passkeys in Express,
a Bevy platformer's physics step, offline sync in a React Native inspection app, Vector shipping nginx
logs to ClickHouse, DDP multi-GPU BERT fine-tuning, and GitHub Actions caching for a pnpm/turbo monorepo.

- 36 open to-dos planted (15 Chinese, 17 English, 4 mixed — all 4 stated in Chinese), stated as a
  state ("写死的", "还没有按挂载点区分", "没有任何…校验", "只支持正方形", "列是 utf8", "还没试",
  "只支持单机多卡", "only reads from stdin", "is still red", "kept in memory", "stored raw",
  "in plain text", "no disk buffer", "isn't implemented"), as an indirect or hedged wish ("有空把…",
  "应该考虑…", "应该只让…", "it'd be nice to…", "we should probably…", "at some point we should…"),
  in numbered or bulleted lists of what is left, in the person's own prompt ("After this, remind me
  to…"), and embedded in longer reports.
- 32 of them finished later (13 Chinese, 15 English, 4 mixed, 2 in the other language): about half
  sharing no word with the to-do (a synonym or the effect: "dt is clamped to 33 ms", "ledge grace
  timer", "Positional args are now files"), a report with numbers, the person saying they did it
  ("我周末自己…调完了", "I already talked to her", "DBA … 改成 utf8mb4 了"), a request and work that
  passes, evidence alone after a bare "continue" / "继续" / "keep going" with a terse final line
  ("Done — 9 passed。"), a bulleted status list.
- 19 traps (``traps`` on a session: an open to-do that session must NOT close; 8 Chinese, 9 English,
  2 mixed): other work in the to-do's own area (same file, config block, help text, grounded check,
  CI job) finished in the same session, often a sibling of the same list; half-done reports (19 of 64
  redirects, an English template with a failing test, 24 V tried unloaded only, a switch with no
  logic behind it); failing runs; "Not yet" / "还没" answers; a report that puts it "next" /
  "下一步"; put off again ("下个版本再说", "not this sprint"); a statement that it is still so.
- 3 long sessions (8–9 user turns in one ``S``): mostly unrelated work, one turn finishing a to-do,
  one touching the same area without finishing it.
- Each project's first session plants its topic and main file.
- Most work sessions' final reports also hold 1–3 sentences that look like open work to a naive rule
  but are not: how the code works now, a result, a handled pitfall, an intended limit ("这是故意的",
  "which is intended", "deliberate", "as agreed with security"), a measured number, and restatements
  of a still-open to-do in new words in a later report (which must stay one open to-do).

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``R``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout10`` runs it (``spurious_todos`` counts
the ``[ ]`` lines at a scored start that hold no planted to-do of the project);
``bench_todo_check.py --set closing-heldout10`` replays it turn by turn for the Stop-hook check.

BASELINE — unchanged main (the rules of f181e79, the worktree's own scripts; the set as of commit
59b09ce), offline summarizer, 2026-11-26 20:39 UTC, load average 0.63 at the start and 4.00 at the
end (2 shared cores, both benches run side by side):
``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout10 --json OUT`` (176 s):
open to-dos captured (on a ``[ ]`` line of the next start) 33/36 (Chinese 14/15, English 15/17,
mixed 4/4); finished to-dos still shown 10/32; closes right 18, missed 9, wrong 2; traps held 16,
sprung 2, untested 1 (its to-do was never captured); spurious to-dos 32 of 102 ``[ ]`` lines at the
scored starts; topics 14/14; files 14/14; leaks 0; false decisions 0; start context p50 5,986
characters (max 5,998); SessionStart p50 121.8 ms (loaded machine).
``.venv-test/bin/python bench/bench_todo_check.py --set closing-heldout10 --checkout . --json OUT``
(176 s): of 32 finishes, 29 captured, 26 asked (ask recall 0.897); the summarizer missed 10 and the
hook asked about 9 of them (ask recall of summarizer misses 0.9); floor (finished still shown if the
model answers every question right) 1/32; traps asked 18/18; 36 questions over 74 turns (0.486 per
turn, 0.706 per work session; least share of turns asked for full recall 0.338); hook p50 40.7 ms.
done_at (round 9): the turn of a multi-turn session that finishes a planted to-do, annotated
by an engineer who writes no rules, counts only reported.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

SCENARIOS = [
    ("b11-zh-alerts", "zh", [
        S([U("k8s 节点的告警太吵了，一晚上几十条，帮我看看 monitoring/rules/node.yaml"),
           R("monitoring/rules/node.yaml"), E("monitoring/rules/node.yaml"),
           B("promtool check rules monitoring/rules/node.yaml", True, "SUCCESS: 14 rules found"),
           A("噪音主要来自磁盘使用率规则没有 for 子句，抖一下就触发。我给它加了 for: 10m，"
             "又把 CPU 的阈值从 80% 调到 90%。promtool 检查通过。"
             "内存告警目前是按节点总量算的，这是故意的，你们的 Pod 都设了 limit。"
             "不过 alertmanager 的路由里值班手机号还是写死的，另外磁盘告警还没有按挂载点区分，/boot 满了也会报。")],
          topic=["告警太吵"], files=["monitoring/rules/node.yaml"],
          todos=["值班手机号还是写死的", "还没有按挂载点区分"]),
        S([U("继续"),
           E("monitoring/rules/node.yaml"), B("promtool test rules monitoring/tests/node_test.yaml", True, "SUCCESS"),
           A("磁盘规则现在排除了 tmpfs 和 /boot，只看 mountpoint=~\"/|/data.*\"，每个卷单独出一条。单测 SUCCESS。"
             "上周那次误报是 kubelet 重启导致的指标断点，已经用 absent_over_time 兜住了。")],
          done=["还没有按挂载点区分"]),
        S([U("值班号码那个处理了没？"),
           E("monitoring/alertmanager.yml"),
           A("还没，刚才只是把 alertmanager.yml 里的 group_wait 从 30s 改成 1m，减少合并前的重复通知。"
             "号码那块还在 receivers 里明文放着，要我现在改成从 PagerDuty 排班拉吗？")],
          traps=["值班手机号还是写死的"]),
        S([U("不用 PagerDuty，放到 secret 里，从 oncall-secret 挂载"),
           E("monitoring/alertmanager.yml"), W("deploy/oncall-secret.yaml"),
           B("amtool check-config monitoring/alertmanager.yml", True, "SUCCESS"),
           A("receiver 的号码现在从挂载的 oncall-secret 文件读，换班只要更新 Secret。amtool 校验通过。")],
          done=["值班手机号还是写死的"]),
        END,
    ]),
    ("b11-zh-spark-skew", "zh", [
        S([U("每天凌晨的 Spark 作业跑 3 个小时，有个 stage 特别慢，代码在 etl/daily_join.py"),
           R("etl/daily_join.py"), E("etl/daily_join.py"),
           B("spark-submit etl/daily_join.py --date 2026-11-20", True, "finished in 52 min"),
           A("慢是数据倾斜：user_id 为 0 的匿名记录有 4 亿条，全落到一个分区。我把匿名用户加盐打散，"
             "作业从 3 小时降到 52 分钟。目前只在夜里跑一次，这是故意的。"
             "剩下的：\n1. 小表 dim_city 应该走 broadcast join\n2. 输出的 parquet 小文件太多，一天 8000 个\n"
             "3. 这个作业没有任何数据质量校验")],
          topic=["数据倾斜"], files=["etl/daily_join.py"],
          todos=["dim_city 应该走 broadcast join", "parquet 小文件太多", "没有任何数据质量校验"]),
        S([U("先把小文件的问题解决"),
           E("etl/daily_join.py"), B("spark-submit etl/daily_join.py --date 2026-11-21", True, "finished in 49 min, 212 files"),
           A("写出前按 dt 和 province 做 repartition，再开了 AQE 的合并，一天的输出从 8000 个文件降到 212 个，"
             "每个 120MB 左右。顺手把 dim_city 读取时的 schema 显式写上了，之前是推断的。")],
          done=["parquet 小文件太多"], traps=["dim_city 应该走 broadcast join"]),
        S([U("质量校验的事我想了下，用 Great Expectations 还是自己写？"),
           A("你们规则不多，我建议先自己写几条断言：主键非空、金额非负、行数和昨天比波动不超过 20%。"
             "要的话我下次就加。")],
          light=True, traps=["没有任何数据质量校验"]),
        S([U("那就自己写，顺便把广播也做了"),
           E("etl/daily_join.py"), W("etl/checks.py"), B("pytest tests/test_checks.py -q", True, "7 passed"),
           B("spark-submit etl/daily_join.py --date 2026-11-22", True, "finished in 41 min"),
           A("etl/checks.py 加了三条断言，不满足就让作业失败并发钉钉，7 个测试通过。"
             "城市维表现在用 broadcast() 提示小表广播，join 阶段从 11 分钟降到 2 分钟，总时长 41 分钟。")],
          done=["没有任何数据质量校验", "dim_city 应该走 broadcast join"]),
        END,
    ]),
    ("b11-zh-miniapp", "zh", [
        S([U("小程序的头像上传老是失败，尤其是 iOS，看看 miniprogram/pages/profile/index.js"),
           R("miniprogram/pages/profile/index.js"), E("miniprogram/pages/profile/index.js"),
           B("npm test -- profile", True, "5 passed"),
           A("原因是 iOS 选出来的 HEIC 图片服务端不认。现在上传前用 canvas 转成 jpg 并压到 1080 宽，测试通过。"
             "上传接口返回 413 时会提示图片太大，这是后端本来就有的限制。"
             "有空把上传进度条也做一下，现在大图传的时候用户以为卡死了。"
             "另外头像裁剪目前只支持正方形。")],
          topic=["头像上传"], files=["miniprogram/pages/profile/index.js"],
          todos=["上传进度条也做一下", "头像裁剪目前只支持正方形"]),
        S([U("裁剪先放一放，下个版本再说。进度那个弄一下"),
           E("miniprogram/pages/profile/index.js"), E("miniprogram/pages/profile/index.wxml"),
           B("npm test -- profile", True, "6 passed"),
           A("用 uploadTask.onProgressUpdate 在头像下面显示百分比，传完自动隐藏，6 个测试通过。")],
          done=["上传进度条也做一下"], traps=["头像裁剪目前只支持正方形"]),
        S([U("昵称那里也有问题，emoji 存不进去"),
           E("miniprogram/pages/profile/index.js"), E("server/user/nickname.go"),
           B("go test ./server/user/...", False, "FAIL: TestNicknameEmoji utf8mb4 column"),
           A("前端已经不再过滤 emoji 了，但后端测试还是失败：users 表的 nickname 列是 utf8 不是 utf8mb4。"
             "要改表结构，得你们 DBA 同意。昵称 emoji 还是存不进去。")],
          todos=["nickname 列是 utf8 不是 utf8mb4"]),
        S([U("DBA 说可以了，我已经让他们把那列改成 utf8mb4 了，你跑一下测试"),
           B("go test ./server/user/...", True, "ok  server/user 0.41s"),
           A("测试现在通过了，带 emoji 的昵称能正常保存和读回。")],
          done=["nickname 列是 utf8 不是 utf8mb4"]),
        END,
    ]),
    ("b11-zh-yolo", "zh", [
        S([U("产线上要做 PCB 缺陷检测，用 YOLOv8 训练，脚本在 vision/train_defect.py，先跑一个基线"),
           R("vision/train_defect.py"), E("vision/train_defect.py"),
           B("python vision/train_defect.py --epochs 50", True, "mAP50 0.71 mAP50-95 0.43"),
           A("基线跑完了，mAP50 0.71。划痕类别的召回最差，只有 0.38，主要是样本太少，只有 120 张。"
             "输入尺寸用 640，这是为了和产线相机的分辨率对齐。"
             "我们应该考虑给划痕做一下 copy-paste 增强。还有验证集是随机切的，同一块板的图片会同时出现在训练和验证里，"
             "得按板子编号切。")],
          topic=["PCB 缺陷检测"], files=["vision/train_defect.py"],
          todos=["给划痕做一下 copy-paste 增强", "得按板子编号切"]),
        S([U("帮我看看 dataset.yaml 的类别名是不是和标注工具一致"),
           R("vision/dataset.yaml"),
           A("一致，6 个类别顺序也对得上。"),
           U("训练日志能不能每个 epoch 都存一下混淆矩阵"),
           E("vision/train_defect.py"),
           A("加了回调，每个 epoch 把混淆矩阵存到 runs/cm/ 下。"),
           U("GPU 显存现在用了多少"),
           B("nvidia-smi --query-gpu=memory.used --format=csv", True, "memory.used 14210 MiB"),
           A("训练时占 14.2G，batch 32。"),
           U("导出 onnx 试一下"),
           B("yolo export model=runs/best.pt format=onnx", True, "export success, 43.1 MB"),
           A("导出成功，onnx 43.1MB。"),
           U("按板子编号重新切一下数据集"),
           W("vision/split_by_board.py"), E("vision/dataset.yaml"),
           B("python vision/split_by_board.py --val 0.2", True, "train 1742 imgs / 88 boards, val 431 imgs / 22 boards, overlap 0"),
           A("Done — 训练 88 块板、验证 22 块板，重叠 0。"),
           U("划痕样本我这边又拍了一些，放到 raw/scratch_new 了，先看看多少张"),
           B("ls raw/scratch_new | wc -l", True, "86"),
           A("新拍了 86 张，还没标注。"),
           U("增强那块先写个开关吧，不用真做"),
           E("vision/train_defect.py"),
           A("在训练参数里加了 --copy-paste 开关，默认关闭，目前打开也只是占位，还没有实现增强逻辑。"),
           U("最后再跑一次训练看看"),
           B("python vision/train_defect.py --epochs 50", True, "mAP50 0.66 mAP50-95 0.40"),
           A("在新的切分上 mAP50 是 0.66，比之前低是正常的，之前的验证集有泄漏。"
             "ONNX 推理在工控机上单张 38ms。")],
          done=["得按板子编号切"], traps=["给划痕做一下 copy-paste 增强"],
          done_at={"得按板子编号切": 4}),
        S([U("继续"),
           E("vision/train_defect.py"), W("vision/aug/paste_scratch.py"),
           B("python vision/train_defect.py --epochs 50 --copy-paste", True, "mAP50 0.74 scratch recall 0.61"),
           A("把划痕实例抠出来随机贴到无缺陷板上，每张最多 3 处，训练时概率 0.5。"
             "划痕召回从 0.38 到 0.61，整体 mAP50 0.74。")],
          done=["给划痕做一下 copy-paste 增强"]),
        END,
    ]),
    ("b11-zh-stm32", "zh", [
        S([U("云台电机的 PID 抖得厉害，固件在 firmware/Core/Src/motor_pid.c，帮我看看"),
           R("firmware/Core/Src/motor_pid.c"), E("firmware/Core/Src/motor_pid.c"),
           B("make -C firmware && make -C firmware test", True, "pid tests: 12/12"),
           A("抖动是微分项直接对误差求导，编码器量化噪声被放大了。改成对测量值求导并加了一阶低通，"
             "台架上超调从 18% 降到 4%。PID 周期是 1kHz，由 TIM6 中断驱动，这是硬件决定的。"
             "目前参数只在 12V 供电下调过，换 24V 电源还没试；积分限幅也还是拍脑袋定的 ±500。")],
          topic=["PID 抖得厉害"], files=["firmware/Core/Src/motor_pid.c"],
          todos=["换 24V 电源还没试", "积分限幅也还是拍脑袋定的"]),
        S([U("积分饱和那块你给个依据改一下"),
           E("firmware/Core/Src/motor_pid.c"),
           B("make -C firmware test", True, "pid tests: 14/14"),
           A("抗饱和改成了条件积分：输出打满时停止累加，上限按 PWM 满量程的 60% 算，不再是固定 500。"
             "14/14 通过。")],
          done=["积分限幅也还是拍脑袋定的"]),
        S([U("24V 的实验室电源今天借到了，先接上看看波形"),
           E("firmware/Core/Src/motor_pid.c"),
           B("make -C firmware flash", True, "flashed 48KB"),
           A("刷进去了。接 24V 后空载能稳住，但带负载时还是会有 6% 的超调，增益得重新调，今天只做了空载。"
             "串口日志的波特率我改到了 921600，方便抓波形。")],
          traps=["换 24V 电源还没试"]),
        S([U("24V 的我周末自己在台架上调完了，Kp 降到 0.8，带载超调 3%，参数已经提交了"),
           A("好的，那 24V 这块就结了。")],
          light=True, done=["换 24V 电源还没试"]),
        END,
    ]),
    ("b11-zh-invoice", "zh", [
        S([U("SaaS 的账单要给客户出电子发票 PDF，代码在 billing/invoice_pdf.py，先把模板弄出来"),
           R("billing/invoice_pdf.py"), E("billing/invoice_pdf.py"), W("billing/templates/invoice.html"),
           B("pytest tests/test_invoice_pdf.py -q", True, "4 passed"),
           A("用 WeasyPrint 渲染 HTML 模板出 PDF，4 个测试通过。金额统一用 Decimal 保留两位，四舍五入方式是银行家舍入，"
             "这是财务要求的。"
             "现在还有几个问题：\n- 税率是写死的 6%\n- 英文版发票还没有\n- 生成是同步的，大客户一张要 4 秒")],
          topic=["电子发票 PDF"], files=["billing/invoice_pdf.py"],
          todos=["税率是写死的 6%", "英文版发票还没有", "生成是同步的"]),
        S([U("税率按客户所在地区配置，先做这个"),
           E("billing/invoice_pdf.py"), E("billing/tax.py"),
           B("pytest tests/test_invoice_pdf.py tests/test_tax.py -q", True, "11 passed"),
           A("税率现在从 tax_rates 表按客户的地区查，香港 0、大陆 6%、新加坡 9%，11 个测试通过。"
             "模板的页脚顺便加上了公司地址。英文模板下一步做。")],
          done=["税率是写死的 6%"], traps=["英文版发票还没有"]),
        S([U("英文的开始弄吧"),
           W("billing/templates/invoice_en.html"), E("billing/invoice_pdf.py"),
           B("pytest tests/test_invoice_pdf.py -q", False, "1 failed: test_invoice_en_totals — KeyError 'amount_in_words'"),
           A("英文模板写了一半，表头和明细好了，但大写金额那段在英文里没有对应的字段，测试挂了一个。"
             "我明天接着把 amount_in_words 的英文版补上。")],
          traps=["英文版发票还没有"]),
        S([U("继续"),
           E("billing/invoice_pdf.py"), E("billing/templates/invoice_en.html"),
           B("pytest tests/test_invoice_pdf.py -q", True, "9 passed"),
           A("Done — 9 passed。")],
          done=["英文版发票还没有"]),
        END,
    ]),
    ("b11-en-logq", "en", [
        S([U("I'm writing a small Rust CLI to grep our JSON logs by field, start in src/main.rs with clap"),
           W("src/main.rs"), W("Cargo.toml"),
           B("cargo test", True, "test result: ok. 6 passed"),
           A("`logq` parses `--where level=error --since 1h` and streams stdin line by line, so memory stays flat "
             "on big files. 6 tests pass. Lines that aren't valid JSON are skipped silently, which is intended "
             "for mixed logs. Right now it only reads from stdin — no file arguments or globs — and "
             "there's no --help example section. Also it'd be nice to colorize the matched field.")],
          topic=["grep our JSON logs"], files=["src/main.rs"],
          todos=["it only reads from stdin", "no --help example section", "colorize the matched field"]),
        S([U("add a --count flag"),
           E("src/main.rs"), B("cargo test", True, "test result: ok. 7 passed"),
           A("`--count` prints the number of matches instead of the lines. 7 passed."),
           U("how fast is it on the 2GB sample?"),
           B("time ./target/release/logq --where level=error < sample.log > /dev/null", True, "real 0m3.9s"),
           A("3.9 s for 2 GB, about 510 MB/s."),
           U("can we use simd-json instead of serde_json?"),
           E("Cargo.toml"), E("src/main.rs"),
           B("time ./target/release/logq --where level=error < sample.log > /dev/null", True, "real 0m2.6s"),
           A("Switched the parser to simd-json behind a feature flag; 2.6 s now."),
           U("make it accept paths too, like `logq app.log other.log` and `logq 'logs/*.log'`"),
           E("src/main.rs"), B("cargo test", True, "test result: ok. 10 passed"),
           A("Positional args are now files; globs expand via the `glob` crate, and no args still means stdin. 10 passed."),
           U("add --since parsing for dates like 2026-11-01"),
           E("src/main.rs"), B("cargo test", True, "test result: ok. 12 passed"),
           A("`--since` now accepts RFC 3339 dates as well as durations. 12 passed."),
           U("tweak the help text, the --where description is confusing"),
           E("src/main.rs"),
           A("Reworded `--where` to \"FIELD=VALUE, repeatable; all must match\". I only touched that one line of "
             "the help — there's still no examples block at the bottom."),
           U("release build size?"),
           B("ls -lh target/release/logq", True, "3.1M"),
           A("3.1 MB stripped."),
           U("ok commit all this"),
           B("git commit -am 'logq: files, globs, simd-json, --count, --since dates'", True, "[main 4e1a2c0]"),
           A("Committed as 4e1a2c0.")],
          done=["it only reads from stdin"], traps=["no --help example section"],
          done_at={"it only reads from stdin": 3}),
        S([U("the help examples thing — let's do it now"),
           E("src/main.rs"), B("cargo test", True, "test result: ok. 13 passed"),
           A("Added an `after_help` block with four examples (stdin, files, globs, --count). There's a test that "
             "the help output contains them. 13 passed. Color output is still off; I'd pick that up next.")],
          done=["no --help example section"], traps=["colorize the matched field"]),
        S([U("keep going"),
           E("src/main.rs"), E("Cargo.toml"), B("cargo test", True, "test result: ok. 15 passed"),
           A("Matched values are now highlighted in bold red when stdout is a TTY (via `owo-colors`); piped output "
             "stays plain. `--color=never` turns it off. 15 passed.")],
          done=["colorize the matched field"]),
        END,
    ]),
    ("b11-en-mkdocs", "en", [
        S([U("We're moving our internal docs from a GitHub wiki to MkDocs Material. Config is mkdocs.yml, let's set it up"),
           W("mkdocs.yml"), W("docs/index.md"),
           B("mkdocs build --strict", True, "INFO - Documentation built in 2.31 seconds"),
           A("Site builds in strict mode with the Material theme, search and the dark toggle. I imported 64 wiki pages. "
             "Internal wiki links are rewritten at import time, so the 404 you saw earlier on /Home is fixed. "
             "Remaining:\n1. the old wiki URLs have no redirects\n2. code blocks have no copy button\n"
             "3. nobody owns the nav order yet — it's alphabetical\nAfter this, remind me to ask Priya about the SSO proxy for the docs host.")],
          topic=["MkDocs Material"], files=["mkdocs.yml"],
          todos=["old wiki URLs have no redirects", "code blocks have no copy button", "ask Priya about the SSO proxy",
                 "nobody owns the nav order yet"]),
        S([U("copy buttons please, and make the nav follow the sidebar order from the wiki"),
           E("mkdocs.yml"), B("mkdocs build --strict", True, "INFO - Documentation built in 2.40 seconds"),
           A("Enabled `content.code.copy`, so every fenced block gets a clipboard icon. The nav now mirrors the wiki's "
             "_Sidebar.md order. Build is clean. The redirect map is still empty — I mapped the guides, the API pages aren't yet, so it's 19 of 64.")],
          done=["code blocks have no copy button", "nobody owns the nav order yet"],
          traps=["old wiki URLs have no redirects"]),
        S([U("Priya says the SSO proxy is fine for static sites, I already talked to her. Finish the redirects"),
           E("mkdocs.yml"), B("mkdocs build --strict", True, "INFO - Documentation built in 2.52 seconds"),
           B("python scripts/check_redirects.py", True, "64/64 legacy paths resolve"),
           A("All 64 legacy wiki paths now resolve through mkdocs-redirects; the checker script confirms it.")],
          done=["ask Priya about the SSO proxy", "old wiki URLs have no redirects"]),
        END,
    ]),
    ("b11-en-passkeys", "en", [
        S([U("Add passkey (WebAuthn) login next to passwords in our Express app, routes live in server/auth/webauthn.ts"),
           W("server/auth/webauthn.ts"), E("server/app.ts"),
           B("npm test -- auth", True, "Tests: 18 passed"),
           A("Registration and login ceremonies work with @simplewebauthn/server; credentials are stored per user. "
             "18 tests pass. The RP ID is taken from the request host, which is deliberate so staging works. "
             "A few gaps: users can't remove a passkey once added, the challenge is kept in memory so it breaks with "
             "more than one instance, and we should probably rate-limit the login-options endpoint.")],
          topic=["passkey"], files=["server/auth/webauthn.ts"],
          todos=["can't remove a passkey once added", "challenge is kept in memory", "rate-limit the login-options endpoint"]),
        S([U("move the challenge storage to Redis"),
           E("server/auth/webauthn.ts"), W("server/auth/challengeStore.ts"),
           B("npm test -- auth", True, "Tests: 21 passed"),
           A("Challenges now live in Redis with a 5-minute TTL keyed by session id, so any instance can verify. "
             "21 passed. I also renamed the passkey list endpoint to GET /me/passkeys.")],
          done=["challenge is kept in memory"], traps=["can't remove a passkey once added"]),
        S([U("is the login-options thing throttled now?"),
           A("Not yet — GET /auth/passkey/options still accepts unlimited requests. I'll do the throttling next if you want.")],
          light=True, traps=["rate-limit the login-options endpoint"]),
        S([U("yes do it, and the delete too"),
           E("server/auth/webauthn.ts"), E("server/routes/me.ts"),
           B("npm test -- auth", True, "Tests: 26 passed"),
           A("- DELETE /me/passkeys/:id: done, requires a fresh password or passkey check\n"
             "- options endpoint: 10 requests per minute per IP via express-rate-limit, 429 after that\n"
             "26 passed.")],
          done=["can't remove a passkey once added", "rate-limit the login-options endpoint"]),
        END,
    ]),
    ("b11-en-bevy", "en", [
        S([U("My Bevy platformer jitters on 144Hz monitors and sometimes the player falls through platforms. Movement is in src/player.rs"),
           R("src/player.rs"), E("src/player.rs"),
           B("cargo test", True, "test result: ok. 9 passed"),
           A("The jitter came from moving the player in Update with an unclamped Time::delta; I moved physics into "
             "FixedUpdate at 60 Hz and interpolate the sprite, so 144 Hz is smooth now. 9 passed. "
             "The tunnelling is still there: a long hitch gives a huge step. At some point we should cap the frame delta, "
             "and coyote time isn't implemented either. Jump height is 3 tiles, which matches the level design doc.")],
          topic=["jitters on 144Hz"], files=["src/player.rs"],
          todos=["cap the frame delta", "coyote time isn't implemented"]),
        S([U("add a double jump"),
           E("src/player.rs"), B("cargo test", True, "test result: ok. 11 passed"),
           A("Double jump works: one extra jump in the air, reset on landing. 11 passed. I touched the grounded check "
             "for this, but there's still no grace window after leaving a ledge.")],
          traps=["coyote time isn't implemented"]),
        S([U("continue"),
           E("src/player.rs"), E("src/physics.rs"),
           B("cargo test", True, "test result: ok. 13 passed"),
           A("dt is now clamped to 33 ms before the fixed-step accumulator, so a 2-second hitch runs as a few steps "
             "instead of one giant one; the fall-through test with a simulated hitch passes. 13 passed.")],
          done=["cap the frame delta"]),
        S([U("last thing for today: let jumps register for 100ms after walking off a platform"),
           E("src/player.rs"), B("cargo test", True, "test result: ok. 15 passed"),
           A("Added a 100 ms ledge grace timer, so a jump pressed just after leaving the edge still fires. 15 passed.")],
          done=["coyote time isn't implemented"]),
        END,
    ]),
    ("b11-en-rn-offline", "en", [
        S([U("Our React Native field-inspection app needs to work offline. Sync logic is in app/sync/engine.ts"),
           R("app/sync/engine.ts"), E("app/sync/engine.ts"), W("app/sync/queue.ts"),
           B("yarn jest sync", True, "Tests: 14 passed"),
           A("Edits are queued in SQLite while offline and replayed in order when NetInfo reports a connection. 14 passed. "
             "Photos are not part of the queue yet, so an inspection with pictures taken offline loses them. "
             "Conflicts are last-write-wins, which the product owner asked for. The Android build is still red on CI "
             "because of the new SQLite native module.")],
          topic=["work offline"], files=["app/sync/engine.ts"],
          todos=["Photos are not part of the queue yet", "Android build is still red"]),
        S([U("fix the android CI"),
           E("android/app/build.gradle"), E("android/gradle.properties"),
           B("cd android && ./gradlew assembleRelease", False, "FAILURE: Duplicate class com.facebook.jni found"),
           A("Bumped the NDK version and enabled Hermes for the release build, which got past the first error, but "
             "assembleRelease still fails on a duplicate JNI class between two libraries. Not green yet.")],
          traps=["Android build is still red"]),
        S([U("continue"),
           E("android/app/build.gradle"),
           B("cd android && ./gradlew assembleRelease", True, "BUILD SUCCESSFUL in 3m 12s"),
           A("Excluded the duplicate fbjni from the sqlite module; assembleRelease succeeds and the CI job is green.")],
          done=["Android build is still red"]),
        S([U("the pictures problem — how big would that be?"),
           A("Moderate: store the file URI in the queue entry, upload before the record, retry separately. "
             "Maybe a day. Want me to start on it?"),
           U("not this sprint"),
           A("OK, leaving photo sync for later.")],
          light=True, traps=["Photos are not part of the queue yet"]),
        END,
    ]),
    ("b11-en-vector", "en", [
        S([U("Ship nginx access logs to ClickHouse with Vector. Config is deploy/vector/vector.toml"),
           W("deploy/vector/vector.toml"), W("deploy/clickhouse/access_logs.sql"),
           B("vector validate deploy/vector/vector.toml", True, "Validated"),
           A("Vector tails the nginx logs, parses them with a VRL regex and batches into ClickHouse every 5 s or 10k rows. "
             "Validated. The table is partitioned by day and TTL'd at 30 days, as agreed with security. "
             "Two caveats: there's no disk buffer, so a ClickHouse outage drops events, and the user agent "
             "field is stored raw, unparsed. Also the sink credentials sit in plain text in the toml.")],
          topic=["nginx access logs to ClickHouse"], files=["deploy/vector/vector.toml"],
          todos=["there's no disk buffer", "user agent field is stored raw", "credentials sit in plain text"]),
        S([U("add a disk buffer and move the password to an env var"),
           E("deploy/vector/vector.toml"), E("deploy/vector/vector.env"),
           B("vector validate deploy/vector/vector.toml", True, "Validated"),
           A("The sink now has `buffer.type = \"disk\"` with max_size 2 GB, so events survive a ClickHouse restart; I "
             "killed ClickHouse for 5 minutes and 0 events were lost. The password is read from ${CLICKHOUSE_PASSWORD} "
             "now. Validated.")],
          done=["there's no disk buffer", "credentials sit in plain text"]),
        S([U("the UA thing, I started a parse_user_agent transform in the config — can you check it?"),
           R("deploy/vector/vector.toml"), E("deploy/vector/vector.toml"),
           B("vector validate deploy/vector/vector.toml", False, "error: undefined function parse_user_agent"),
           A("Your transform doesn't validate: our Vector 0.34 has no parse_user_agent, it arrived in 0.36. "
             "Until we upgrade, the column keeps the raw string. I also fixed a typo in the status-code cast in the "
             "same remap block.")],
          traps=["user agent field is stored raw"]),
        END,
    ]),
    ("b11-mx-ddp", "mixed", [
        S([U("帮我把 BERT 分类的训练从单卡改成 DDP 多卡，脚本是 train/finetune.py"),
           R("train/finetune.py"), E("train/finetune.py"),
           B("torchrun --nproc_per_node=4 train/finetune.py --max_steps 200", True, "step 200 loss 0.412 throughput 4x"),
           A("改成 DDP 了，4 卡吞吐是单卡的 3.8 倍，loss 曲线和单卡一致。DistributedSampler 每个 epoch 会 set_epoch，"
             "这个已经处理了。目前只支持单机多卡，多机还没配 rendezvous。"
             "checkpoint 现在每张卡都会写一份，应该只让 rank 0 写。")],
          topic=["DDP 多卡"], files=["train/finetune.py"],
          todos=["只支持单机多卡", "应该只让 rank 0 写"]),
        S([U("let's add wandb logging"),
           E("train/finetune.py"), B("torchrun --nproc_per_node=4 train/finetune.py --max_steps 20", True, "wandb: synced run ddp-bert-17"),
           A("wandb is initialised on rank 0 only and logs loss, lr and throughput every 10 steps."),
           U("lr schedule 换成 cosine with warmup"),
           E("train/finetune.py"),
           A("Switched to get_cosine_schedule_with_warmup, 500 warmup steps."),
           U("what's the eval accuracy now"),
           B("python train/eval.py --ckpt runs/latest", True, "acc 0.917 f1 0.904"),
           A("acc 0.917, macro-F1 0.904."),
           U("mixed precision 打开"),
           E("train/finetune.py"), B("torchrun --nproc_per_node=4 train/finetune.py --max_steps 200", True, "step 200 loss 0.409 throughput 6.1x"),
           A("bf16 autocast on; throughput is 6.1x single-GPU fp32 now."),
           U("gradient accumulation 参数也加上"),
           E("train/finetune.py"),
           A("Added --grad_accum (default 1); the no_sync context skips allreduce on the accumulation steps."),
           U("checkpoint saving: only the main process should write it, fix that"),
           E("train/finetune.py"), B("torchrun --nproc_per_node=4 train/finetune.py --max_steps 50 --save_every 25", True, "saved runs/ckpt-25 (1 file) runs/ckpt-50 (1 file)"),
           A("Saving is now guarded by `if dist.get_rank() == 0` plus a barrier afterwards; one file per save instead of four."),
           U("tokenizer 的 cache 目录能不能放到 /data 下"),
           E("train/finetune.py"),
           A("HF cache now points to /data/hf_cache via HF_HOME."),
           U("把 requirements 更新一下"),
           E("requirements.txt"),
           A("Pinned torch 2.4, transformers 4.44, wandb 0.17 in requirements.txt."),
           U("多机那块，我们下周有两台机器，先看看要改什么"),
           R("train/launch.sh"),
           A("For two nodes we'd need a rendezvous endpoint (c10d on node 0), NCCL_SOCKET_IFNAME set to the IB "
             "interface, and the launch script taking --nnodes/--node_rank. I haven't changed anything yet — it is still "
             "single-node only until we have the machines.")],
          done=["应该只让 rank 0 写"], traps=["只支持单机多卡"],
          done_at={"应该只让 rank 0 写": 5}),
        S([U("两台机器到了，multi-node 配一下"),
           E("train/launch.sh"), E("train/finetune.py"),
           B("bash train/launch.sh --nnodes 2", True, "world_size 8, step 200 loss 0.407, throughput 11.4x"),
           A("Two nodes x 4 GPUs now train together through c10d rendezvous on node 0; world_size 8, 11.4x single-GPU "
             "throughput. Eval accuracy is unchanged at 0.918.")],
          done=["只支持单机多卡"]),
        END,
    ]),
    ("b11-mx-ci-cache", "mixed", [
        S([U("我们 monorepo 的 GitHub Actions 太慢了，一次 25 分钟，帮我看 .github/workflows/ci.yml"),
           R(".github/workflows/ci.yml"), E(".github/workflows/ci.yml"),
           B("act -j test --dryrun", True, "ok"),
           A("主要浪费在每次都全量 pnpm install 和全量 build。我加了 pnpm store 的缓存，并用 turbo 只跑受影响的包，"
             "预计能降到 10 分钟以内。lint 和 test 现在是串行的，这是故意的，lint 失败就不浪费 runner。"
             "turbo 的 remote cache 还没接，现在只有本地缓存；另外 e2e 那个 job 没有任何缓存。")],
          topic=["GitHub Actions 太慢"], files=[".github/workflows/ci.yml"],
          todos=["remote cache 还没接", "e2e 那个 job 没有任何缓存"]),
        S([U("set up the turbo remote cache with our self-hosted server"),
           E(".github/workflows/ci.yml"), E("turbo.json"),
           B("gh workflow run ci.yml && gh run watch", True, "✓ test in 6m41s — turbo: 38 cached, 4 executed"),
           A("Turbo now talks to the self-hosted cache at cache.internal with TURBO_TOKEN from repo secrets. The second run "
             "hit 38 of 42 tasks from cache; CI took 6m41s. The e2e job still downloads Playwright browsers every time — "
             "I looked at it but haven't changed that job.")],
          done=["remote cache 还没接"], traps=["e2e 那个 job 没有任何缓存"]),
        S([U("e2e 的也搞一下"),
           E(".github/workflows/e2e.yml"),
           B("gh workflow run e2e.yml && gh run watch", True, "✓ e2e in 4m02s (was 9m30s)"),
           A("Playwright 的浏览器现在按版本号缓存到 ~/.cache/ms-playwright，命中后跳过下载；e2e 从 9分30秒 降到 4分02秒。")],
          done=["e2e 那个 job 没有任何缓存"]),
        END,
    ]),
]
