"""The fifth to-do CAPTURE and CLOSING set (issue 20): written blind, since read — TUNING data now.

Written blind on 2026-11-26 (branch ``blind6``) by an engineer who did not read the capture or
closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, docs/summaries.md, the Handover sections of BENCHMARKS.md) nor
the scenarios of the earlier sets (``handover_tuning_set.py``, ``handover_closing_set.py``,
``handover_closing_heldout.py``, ``handover_capture_set.py``, ``handover_closing_heldout2.py``,
``handover_closing_heldout3.py``, ``handover_closing_heldout4.py``) beyond their docstrings and
first scenario. The earlier held-out sets have been read or run by the people tuning the rules; this
one (with ``closing-heldout4``) judged the next round of rules. It has since been read and run by
the people tuning the rules as well, and from round 5 on it is TUNING data: its numbers are an upper
bound. ``handover_closing_heldout6.py`` is the held-out set now.

14 projects, 4–5 sessions each (60 transcripts, 12 of them short) plus a last start: 6 Chinese,
6 English, 2 mixed (a Chinese speaker with English code and terms, switching language between
sessions). Domains, away from the earlier sets': ClickHouse materialized-view ad reports, a
HarmonyOS ArkTS photo upload page, YOLOv8 PCB-defect training, Prometheus/Alertmanager gateway
alerts, Casbin RBAC in a Go admin backend, a Cocos Creator level system, Zephyr BLE firmware on an
nRF52840, dunning for failed renewals in Rails, a Typer CLI that renames photos by EXIF date, Sphinx
docs on Read the Docs, moving a service onto Nomad/Consul/Vault, scoped API keys in FastAPI,
faster-whisper batch transcription with diarization, a Tauri desktop auto-updater.

- 41 open to-dos planted (16 Chinese, 19 English, 6 mixed), stated as a state ("… is hard-coded",
  "… isn't set up", "… are English-only", "… is still up", "only tried on …", "写死", "还没有",
  "还没配", "是默认的", "只能单卡跑"), as an indirect or hedged wish ("it'd be nice to … at some
  point", "we should probably …", "后面应该…", "最好…", "回头有空把…", "回头最好…"), in numbered,
  bulleted or inline "remaining" lists, in the person's own prompt ("remind me to …", "下次记得…",
  in an English prompt of a mixed project), and embedded in a longer report.
- 34 of them finished later in other words (14 Chinese, 15 English, 5 mixed): a synonym
  (a preview mode for a missing dry run, key rollover for rotation), the other language, a report
  with numbers, the person saying they did it (also in a short session: "已经合了", "merged to main",
  "I put in … myself"), a request and work that passes, evidence alone (a bare "continue" / "继续",
  the file the to-do names edited and its test passing, a terse report).
- 31 traps (``traps`` on a session: an open to-do that session must NOT close; 13 Chinese, 14
  English, 4 mixed), made hard the way real work is: 8 "not yet" / "还没" answers; 8 sessions that
  finish other work in the to-do's own area (the same file, mailer, workflow, docs page or subtitle
  writer) and say the to-do is still so; 5 half-done reports or failing runs; 5 reports that put the
  to-do "next" or "下次"; 4 where a sibling in the same list is finished and the to-do restated; 1 put
  off again.
- Each project's first session plants its topic and main file.
- Most work sessions' final reports also hold 1–3 sentences that look like open work to a naive rule
  but are not: how the code works now, a result, a handled pitfall, an intended limit ("这是故意的",
  "这是有意的", "on purpose", "which is intended", "that's deliberate"), a past cause, a request to
  the person that is not code work.

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout5`` runs it: to-dos are scored on a
``[ ]`` line of the next start context, finished ones must be gone from ``[ ]`` lines, wrong closes
and traps are read from the to-do index after each project's last session, and ``spurious_todos``
counts the ``[ ]`` lines at a scored start that hold no planted to-do of the project — which here
includes a trap session's restatement of a still-open to-do in its own words (a second line for the
same work) and half-done work reported in a trap session, besides descriptions and results.

BASELINE — unchanged main (scripts of c789752, before any rule was tuned with this set in existence),
``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout5 --json OUT``, offline
summarizer, 2026-11-26 09:13 UTC, load average 1.08 at start and 0.73 at the end (2 shared cores),
136 s: open to-dos captured (on a ``[ ]`` line of the next start) 31/41 (Chinese 13/16, English
13/19, mixed 5/6); finished to-dos still shown 8/34; closes right 12, missed 8, wrong 3; traps held
19, sprung 5, untested 7 (their to-do was never captured); spurious to-dos 50 of 104 ``[ ]`` lines
at the scored starts (33 restate a planted still-open to-do in a later session's words, 5 report
half-done work, 12 are descriptions, results, a lead-in or a fragment); topics 14/14; files 14/14;
leaks 0; start context p50 5,994.5 characters (max 5,998); SessionStart p50 39.9 ms.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

SCENARIOS = [
    # ---------------------------------------------------------------- Chinese
    ("b6-zh-clickhouse", "zh", [
        S([U("用 ClickHouse 给广告投放做一个小时级报表：从 raw_clicks 建物化视图，按 campaign 聚合点击和花费"),
           W("sql/mv_hourly_clicks.sql"), W("reports/hourly.py"), W("tests/test_hourly.py"),
           B("pytest tests/test_hourly.py -q", True, "9 passed in 3.12s"),
           A("物化视图和报表查询都写好了，9 个用例通过。现在有几件事还没收尾：\n"
             "1. 时区还是写死的 UTC+8，海外账户的小时会错位；\n"
             "2. 花费字段用的是 Float64，累计起来会有精度误差；\n"
             "3. 历史数据没有回填，视图只从今天开始有数据。\n"
             "表引擎用的是 SummingMergeTree，合并是后台异步做的，所以查询里要再 sum 一次——这个已经处理了。"
             "上周报表慢是因为没按 event_date 分区，现在已经分区了。")],
          topic=["小时级报表"], files=["sql/mv_hourly_clicks.sql"],
          todos=["时区还是写死的", "花费字段用的是 Float64", "历史数据没有回填"]),
        S([U("先把花费的精度问题解决掉，改成 Decimal"),
           E("sql/mv_hourly_clicks.sql"), E("reports/hourly.py"),
           B("pytest tests/test_hourly.py -q", True, "10 passed in 3.40s"),
           A("花费改成 Decimal(18,4) 了，和计费系统对了 10 月整月的账，差额 0.00 元。"
             "时区这块我顺手看了一下，要改视图的分组键，工作量不小，放到下次吧。报表接口的返回格式没变。")],
          done=["花费字段用的是 Float64"], traps=["时区还是写死的"]),
        S([U("回填脚本我昨晚自己跑了，9 月以来的数据都进视图了，条数和 raw_clicks 对得上。今天把时区处理一下，按账户自己的时区出报表"),
           E("sql/mv_hourly_clicks.sql"), E("reports/hourly.py"),
           B("pytest tests/test_hourly.py -q", False, "2 failed, 9 passed in 3.51s"),
           A("按账户时区分桶的改动写了一半：视图里加了 tz 列，但查询层还没适配，有 2 个用例没过，明天接着弄。")],
          done=["历史数据没有回填"], traps=["时区还是写死的"]),
        S([U("继续"),
           E("reports/hourly.py"), B("pytest tests/test_hourly.py -q", True, "12 passed in 3.38s"),
           A("查询层也改好了，现在每个账户按自己配置的时区出小时报表，12 个用例全过，洛杉矶的账户抽查了 3 天都对。"
             "报表结果缓存 5 分钟，这是故意的，运营那边能接受。")],
          done=["时区还是写死的"]),
        END,
    ]),
    ("b6-zh-harmony", "zh", [
        S([U("鸿蒙版 App 要支持从相册选图上传，用 ArkTS 写，选完图先压缩再传"),
           W("entry/src/main/ets/pages/Upload.ets"), W("entry/src/main/ets/utils/compress.ets"),
           B("hvigorw assembleHap --mode module", True, "BUILD SUCCESSFUL in 48 s"),
           A("相册选图上传的页面做好了，真机上一次选 9 张图能正常传。压缩用的是 image.createImagePacker，质量 80，"
             "一张 4MB 的图压到 600KB 左右。断点续传还没有，大图传到一半断网只能从头再来。"
             "上传接口的地址现在是写死在页面里的。用户拒绝相册权限后会引导去设置里打开，这是按华为的规范做的。")],
          topic=["相册选图上传"], files=["entry/src/main/ets/pages/Upload.ets"],
          todos=["断点续传还没有", "写死在页面里"]),
        S([U("上传地址挪到配置里，按环境区分。另外回头有空把上传进度条也加上"),
           E("entry/src/main/ets/pages/Upload.ets"), W("entry/src/main/ets/common/Config.ets"),
           B("hvigorw assembleHap --mode module", True, "BUILD SUCCESSFUL in 51 s"),
           A("接口域名已经移到 Config.ets，debug 和 release 各用各的环境，页面里不再有硬编码的域名。"
             "压缩后的图片会先存到应用沙箱的 cache 目录，传完就删，这个是预期的。")],
          done=["写死在页面里"], todos=["上传进度条"]),
        S([U("进度条弄了吗"), A("还没，目前上传的时候只有一个转圈的 loading。")],
          light=True, traps=["上传进度条"]),
        S([U("继续"),
           E("entry/src/main/ets/pages/Upload.ets"),
           B("hvigorw assembleHap --mode module", True, "BUILD SUCCESSFUL in 50 s"),
           B("hdc shell aa test -b com.demo.gallery -m entry_test", True, "Tests run: 14, Failures: 0"),
           A("每张图的缩略图下面现在显示百分比，9 张同时传也各自更新，14 个用例都过了。"
             "断点续传下一步再做，得先跟后端确认分片接口的格式。")],
          done=["上传进度条"], traps=["断点续传还没有"]),
        END,
    ]),
    ("b6-zh-yolo", "zh", [
        S([U("用 YOLOv8 训一个 PCB 缺陷检测模型，数据在 data/pcb，先跑个 baseline"),
           W("train/train_pcb.py"), W("train/pcb.yaml"),
           B("python train/train_pcb.py --epochs 100", True, "all  mAP50 0.812  mAP50-95 0.534"),
           A("baseline 跑完了，100 个 epoch，mAP50 0.812。几点情况：\n"
             "- 缺件这一类只有 86 张样本，召回只有 0.41；\n"
             "- 现在的验证集是随机切的，同一块板子的图会同时出现在训练和验证里，指标偏乐观；\n"
             "- 训练脚本目前只能单卡跑。\n"
             "mosaic 增强在最后 10 个 epoch 关掉了，这是官方推荐的做法。显存占用 14GB，batch 32 正好。")],
          topic=["PCB 缺陷检测"], files=["train/train_pcb.py"],
          todos=["召回只有 0.41", "验证集是随机切的", "只能单卡跑"]),
        S([U("按板子编号重新切一下，别让同一块板子同时出现在两边"),
           W("train/split.py"), E("train/pcb.yaml"),
           B("python train/split.py --group-by board_id", True, "train 3120 / val 780, shared boards: 0"),
           B("python train/train_pcb.py --epochs 100", True, "all  mAP50 0.774  mAP50-95 0.501"),
           A("按 board_id 分组重新划分了数据：训练 3120 张、验证 780 张，两边没有重叠的板子。"
             "重新训练后 mAP50 从 0.812 降到 0.774，这才是真实水平。缺件类的召回还是 0.4 左右。")],
          done=["验证集是随机切的"], traps=["召回只有 0.41"]),
        S([U("缺件那一类我让标注组补了 300 张，放在 data/pcb/extra 了，你做下过采样再训一版"),
           E("train/pcb.yaml"), E("train/train_pcb.py"),
           B("python train/train_pcb.py --epochs 100", True, "missing_part  R 0.73 | all  mAP50 0.801"),
           A("加了新标注，并对缺件类做了 3 倍过采样：缺件的召回从 0.41 升到 0.73，整体 mAP50 0.801。"
             "训练时长从 2.1 小时涨到 2.6 小时，是数据变多的正常结果。多卡这次没碰，还是一张卡在跑。")],
          done=["召回只有 0.41"], traps=["只能单卡跑"]),
        S([U("多卡的事先不弄了，下个月新机器到了再说。谢谢"), A("好的。")],
          light=True, traps=["只能单卡跑"]),
        END,
    ]),
    ("b6-zh-alerts", "zh", [
        S([U("给 API 网关配一套 Prometheus 告警：5xx 比例、p99 延迟、Pod 重启，发到飞书群"),
           W("alerts/gateway-rules.yml"), W("alertmanager/feishu.tmpl"),
           B("promtool check rules alerts/gateway-rules.yml", True, "SUCCESS: 6 rules found"),
           A("6 条告警规则写好了，promtool 检查通过，飞书群能收到测试告警。"
             "gateway-rules.yml 里 p99 的阈值现在是拍脑袋定的 800ms，最好拿过去两周的数据校准一下。"
             "发版期间的静默规则也还没配，一发版群里就会被刷屏。"
             "5xx 比例用的是 5 分钟窗口，短暂抖动不会告警，这是有意的。另外麻烦你把正式环境飞书机器人的 webhook 发我一份。")],
          topic=["Prometheus 告警"], files=["alerts/gateway-rules.yml"],
          todos=["拍脑袋定的", "静默规则也还没配"]),
        S([U("发版窗口的静默加一下，发版的时候别刷屏"),
           E("alertmanager/alertmanager.yml"),
           B("amtool check-config alertmanager/alertmanager.yml", True, "Checking 'alertmanager/alertmanager.yml'  SUCCESS"),
           A("加了一条 inhibit 规则：deploy_in_progress 为 1 的时候抑制网关相关告警，amtool 检查通过，昨天下午发版时群里一条都没响。"
             "p99 阈值我拉了下数据，还没定，下次一起调。")],
          done=["静默规则也还没配"], traps=["拍脑袋定的"]),
        S([U("继续"),
           E("alerts/gateway-rules.yml"), W("tests/gateway_test.yml"),
           B("promtool test rules tests/gateway_test.yml", True, "Unit Testing:  tests/gateway_test.yml\n  SUCCESS"),
           A("给 5xx 和 Pod 重启两条规则补了 promtool 单元测试，都通过了；告警文案里加了 runbook 链接。")],
          traps=["拍脑袋定的"]),
        S([U("p99 的阈值我按过去 14 天的 p99.5 改成 1.2s 了，已经合了。"), A("好的，规则文件里现在是 1.2s。")],
          light=True, done=["拍脑袋定的"]),
        END,
    ]),
    ("b6-zh-casbin", "zh", [
        S([U("后台管理系统要做权限控制，用 Casbin 做 RBAC，角色有管理员、运营、只读三种"),
           W("internal/authz/enforcer.go"), W("internal/authz/model.conf"),
           B("go test ./internal/authz/...", True, "ok  \tadmin/internal/authz\t0.412s"),
           A("Casbin 的 RBAC 接上了，中间件按路由和方法校验，三个角色都测过。"
             "策略现在存在 policy.csv 里，改权限要重新发版，后面应该迁到数据库。另外这块还没有审计日志，谁改了谁的角色查不到。"
             "没有权限时返回 403 并带上缺少的权限名，这是前端要求的。enforcer 在进程启动时加载一次，这个目前没问题。")],
          topic=["权限控制"], files=["internal/authz/enforcer.go"],
          todos=["存在 policy.csv 里", "还没有审计日志"]),
        S([U("把策略挪到 MySQL 里，用 gorm-adapter"),
           E("internal/authz/enforcer.go"), W("migrations/20261120_casbin_rule.sql"),
           B("go test ./internal/authz/...", True, "ok  \tadmin/internal/authz\t0.611s"),
           A("策略改为从 MySQL 的 casbin_rule 表加载，用的 gorm-adapter，后台改完角色调一次 LoadPolicy 就即时生效，不用再发版了。"
             "审计日志那块我看了下，打算下一步做。")],
          done=["存在 policy.csv 里"], traps=["还没有审计日志"]),
        S([U("审计日志今天能弄吗？我先去开会，你弄完跑下测试"),
           W("internal/authz/audit.go"), E("internal/authz/enforcer.go"),
           B("go test ./internal/authz/...", False, "--- FAIL: TestAuditOnRoleChange (0.02s)\nFAIL\tadmin/internal/authz"),
           A("审计日志的写入加上了，但角色变更那个用例还挂着：事务提交前就记了日志，回滚时会留下假记录，还没修好。")],
          traps=["还没有审计日志"]),
        S([U("继续"),
           E("internal/authz/audit.go"), B("go test ./internal/authz/...", True, "ok  \tadmin/internal/authz\t0.702s"),
           A("改成事务提交之后再写审计记录，回滚不会再留下记录，测试全过。现在每次角色和策略变更都会记下操作人、时间和前后差异，"
             "后台可以按操作人查。")],
          done=["还没有审计日志"]),
        END,
    ]),
    ("b6-zh-cocos", "zh", [
        S([U("用 Cocos Creator 做消除小游戏的关卡系统，关卡配置从 JSON 读"),
           W("assets/scripts/LevelLoader.ts"), W("assets/scripts/StarRating.ts"), W("assets/levels/level_001.json"),
           B("npm run test", True, "Tests: 18 passed, 18 total"),
           A("关卡加载做好了，18 个用例通过，前 20 关都能从 JSON 正常读取。\n还剩几件事：\n"
             "1. 关卡编辑器还没有，现在策划只能手写 JSON；\n"
             "2. 低端安卓机上第一次进关会卡 1 秒左右；\n"
             "3. StarRating.ts 只有空壳，星级评分的规则还没实现。\n"
             "关卡 JSON 里的坐标以左下角为原点，跟 Cocos 一致。之前闪退是因为资源没预加载，已经改成进关前 preload。")],
          topic=["关卡系统"], files=["assets/scripts/LevelLoader.ts"],
          todos=["关卡编辑器还没有", "第一次进关会卡", "星级评分的规则"]),
        S([U("继续"),
           E("assets/scripts/StarRating.ts"), B("npm run test", True, "Tests: 24 passed, 24 total"),
           A("写完了，24 个用例都过了。编辑器还没开始。")],
          done=["星级评分的规则"], traps=["关卡编辑器还没有"]),
        S([U("首次进关卡顿那个怎么样了？"),
           A("我看了 profile，卡顿主要是第一次加载图集和编译 shader，还没改。")],
          light=True, traps=["第一次进关会卡"]),
        S([U("关卡编辑器另一个同学用 Web 写好了，能导出 JSON，策划已经用上了。你把进关卡顿解决一下"),
           E("assets/scripts/LevelLoader.ts"), W("assets/scripts/Preloader.ts"),
           B("npm run test", True, "Tests: 26 passed, 26 total"),
           B("npm run perf:android -- --device redmi-note8", True, "first level enter: 180 ms (was 1100 ms)"),
           A("在启动页预热了图集和常用 shader，红米 Note 8 上第一次进关从 1.1 秒降到 180ms，26 个用例通过。")],
          done=["关卡编辑器还没有", "第一次进关会卡"]),
        END,
    ]),
    # ---------------------------------------------------------------- English
    ("b6-en-zephyr", "en", [
        S([U("Port the soil-moisture sensor firmware to Zephyr on the nRF52840 and expose readings over a BLE GATT service"),
           W("src/main.c"), W("src/moisture_svc.c"), W("prj.conf"),
           B("west build -b nrf52840dk_nrf52840", True, "Memory region  FLASH: 212 KB used"),
           A("The firmware builds for nrf52840dk and the GATT service notifies a reading every 30 s; I checked it with "
             "nRF Connect on a phone. A few things before this is field-ready:\n"
             "- the ADC calibration constants are hard-coded for the prototype board\n"
             "- there's no low-battery handling at all\n"
             "- DFU over BLE isn't set up, so updates still need a J-Link\n"
             "Notifications only go out once a client subscribes — that's how GATT is meant to work. The brown-outs "
             "last week were caused by the radio and the ADC sampling at the same time; sampling now runs between "
             "connection events.")],
          topic=["soil-moisture sensor"], files=["src/moisture_svc.c"],
          todos=["calibration constants are hard-coded", "no low-battery handling", "DFU over BLE isn't set up"]),
        S([U("Let's get firmware updates working first — MCUboot plus SMP over BLE"),
           E("prj.conf"), W("child_image/mcuboot.conf"), E("src/main.c"),
           B("west build -b nrf52840dk_nrf52840", True, "merged.hex 248 KB"),
           B("mcumgr --conntype ble --connstring peer_name=soil-01 image upload build/zephyr/app_update.bin", True,
             "Done"),
           A("Over-the-air updates work now: MCUboot is in, SMP runs over BLE, and I pushed a new image to soil-01 "
             "from my laptop with mcumgr in 41 s, no J-Link involved. While in main.c I also moved the ADC reads onto "
             "their own work queue. The readings still use the prototype board's calibration values.")],
          done=["DFU over BLE isn't set up"], traps=["calibration constants are hard-coded"]),
        S([U("did you get to the battery stuff?"),
           A("Not yet — the firmware still never looks at the battery voltage.")],
          light=True, traps=["no low-battery handling"]),
        S([U("continue"),
           E("src/moisture_svc.c"), W("src/battery.c"),
           B("west build -b nrf52840dk_nrf52840", True, "Memory region  FLASH: 231 KB used"),
           B("west twister -T tests/ -p native_sim", True, "INFO - 9 of 9 test configurations passed"),
           A("Battery monitoring is in: below 3.3 V the node drops to one reading every 10 minutes and sets a "
             "low-battery flag in its advertisement, and below 3.0 V it stops sampling. 9 of 9 twister configurations "
             "pass. Moving the ADC calibration into the settings subsystem is next.")],
          done=["no low-battery handling"], traps=["calibration constants are hard-coded"]),
        S([U("I did the per-unit calibration myself yesterday: every board now reads its own offsets from NVS settings, "
             "merged to main. Can you bump the version to 1.1.0?"),
           E("VERSION"), B("west build -b nrf52840dk_nrf52840", True, "Memory region  FLASH: 233 KB used"),
           A("Bumped to 1.1.0 and rebuilt; the image is 233 KB.")],
          done=["calibration constants are hard-coded"]),
        END,
    ]),
    ("b6-en-dunning", "en", [
        S([U("We need dunning for failed subscription renewals in the Rails app: retry the card and email the customer"),
           W("app/jobs/dunning_job.rb"), W("app/mailers/dunning_mailer.rb"), W("spec/jobs/dunning_job_spec.rb"),
           B("bundle exec rspec spec/jobs/dunning_job_spec.rb", True, "12 examples, 0 failures"),
           A("Dunning is in place: a failed renewal schedules retries on day 1, 3 and 7, and every failure sends an "
             "email with a link to update the card. 12 examples pass. Open points:\n"
             "1. the retry schedule is hard-coded in the job, and finance wants to tune it per plan\n"
             "2. the emails are English-only\n"
             "3. we never downgrade the account after the last retry fails\n"
             "Retries skip weekends on purpose — the bank's fraud rules flag weekend retries. A job that raises is "
             "retried by Sidekiq up to 5 times, which is fine here.")],
          topic=["dunning"], files=["app/jobs/dunning_job.rb"],
          todos=["retry schedule is hard-coded", "emails are English-only", "never downgrade the account"]),
        S([U("Make the retry cadence configurable per plan"),
           E("app/jobs/dunning_job.rb"), E("app/models/plan.rb"), W("db/migrate/20261121_add_retry_days_to_plans.rb"),
           E("app/mailers/dunning_mailer.rb"),
           B("bundle exec rspec", True, "284 examples, 0 failures"),
           A("Each plan now has a retry_days column (default [1, 3, 7]) that the job reads, so finance can change the "
             "cadence in the admin without a deploy. Full suite green: 284 examples. While I was in the mailer I "
             "reworded the email subject to sound less alarming; the copy is still only in English.")],
          done=["retry schedule is hard-coded"], traps=["emails are English-only"]),
        S([U("What happens right now when the final retry fails?"),
           A("Nothing yet — the subscription stays active and the customer keeps full access; we only log it.")],
          light=True, traps=["never downgrade the account"]),
        S([U("Drop them to the free tier after the last failed retry, but keep their data"),
           E("app/jobs/dunning_job.rb"), W("app/services/downgrade_to_free.rb"),
           B("bundle exec rspec spec/jobs spec/services", False, "41 examples, 2 failures"),
           A("I've started on it: the service moves the subscription to the free plan, but two specs fail because "
             "seats above the free limit aren't handled yet. Not finished.")],
          traps=["never downgrade the account"]),
        S([U("continue"),
           E("app/services/downgrade_to_free.rb"),
           B("bundle exec rspec spec/jobs spec/services", True, "43 examples, 0 failures"),
           A("After the final failed retry the account now falls back to the free tier; seats above the limit are "
             "suspended rather than deleted, so nothing is lost if they pay later. 43 examples, 0 failures.")],
          done=["never downgrade the account"]),
        END,
    ]),
    ("b6-en-photoname", "en", [
        S([U("Write a small CLI with Typer that renames photos by their EXIF date, like 2026-11-03_142233.jpg"),
           W("photoname/cli.py"), W("tests/test_cli.py"),
           B("pytest -q", True, "15 passed in 0.84s"),
           A("`photoname rename DIR` works: it reads DateTimeOriginal, renames to YYYY-MM-DD_HHMMSS and appends -1, -2 "
             "on collisions. 15 tests pass. HEIC files are skipped for now because Pillow can't read their EXIF "
             "without pillow-heif. There's also no --dry-run, which feels risky for a tool that renames things. "
             "Files without EXIF keep their name — that's deliberate. You might want to try it on a copy of your "
             "library first.")],
          topic=["renames photos"], files=["photoname/cli.py"],
          todos=["HEIC files are skipped", "no --dry-run"]),
        S([U("Add a preview mode so I can see what would change before anything gets renamed. Also, it'd be nice to "
             "have a progress bar for big folders at some point."),
           E("photoname/cli.py"), E("tests/test_cli.py"),
           B("pytest -q", True, "19 passed in 0.91s"),
           A("`--preview` (alias `-n`) prints old → new for every file and renames nothing; 19 tests pass. "
             "iPhone photos are still left alone.")],
          done=["no --dry-run"], todos=["progress bar for big folders"], traps=["HEIC files are skipped"]),
        S([U("continue"),
           E("photoname/cli.py"), E("pyproject.toml"),
           B("pytest -q", True, "22 passed in 1.02s"),
           B("photoname rename ~/Pictures/2019 --preview", True,
             "IMG_0042.HEIC -> 2019-07-14_101502.heic\n... 1204 files would be renamed"),
           A("Added pillow-heif and registered its opener, so .HEIC photos from the iPhone are renamed like the JPEGs "
             "now — the 2019 folder previews 1,204 files cleanly. 22 tests pass.")],
          done=["HEIC files are skipped"]),
        S([U("Is there a progress bar yet?"),
           A("No — on a big folder it still prints nothing until the end.")],
          light=True, traps=["progress bar for big folders"]),
        S([U("I put in the rich progress bar myself last night, it looks fine on 20k files. Thanks for the help!"),
           A("Great, glad it worked out.")],
          light=True, done=["progress bar for big folders"]),
        END,
    ]),
    ("b6-en-sphinx", "en", [
        S([U("Set up Sphinx docs for the geokit library with autodoc, and publish them on Read the Docs"),
           W("docs/conf.py"), W("docs/index.rst"), W("docs/api/crs.rst"), W(".readthedocs.yaml"),
           B("sphinx-build -W -b html docs docs/_build", True, "build succeeded."),
           A("The docs build cleanly with -W and Read the Docs picked up the webhook; the API reference comes from the "
             "docstrings. Still to do: the tutorials from the README haven't been ported, and the CRS examples in "
             "docs/api/crs.rst aren't doctested, so they can rot. We should probably also add a version switcher once "
             "2.0 is out. A build takes about 40 s on RTD. Intersphinx links to numpy and shapely resolve.")],
          topic=["Sphinx docs"], files=["docs/conf.py"],
          todos=["tutorials from the README haven't been ported", "aren't doctested", "add a version switcher"]),
        S([U("Move the README tutorials into the docs. And remind me to add a changelog page before we tag 2.0."),
           W("docs/tutorials/quickstart.rst"), W("docs/tutorials/reprojection.rst"), E("docs/index.rst"),
           E("README.md"), E("docs/api/crs.rst"),
           B("sphinx-build -W -b html docs docs/_build", True, "build succeeded."),
           A("The quickstart and reprojection guides now live under docs/tutorials/ and the README links to them "
             "instead of repeating them; the -W build passes. I also fixed three broken cross-references in "
             "docs/api/crs.rst while I was there. Its examples are still not executed by anything.")],
          done=["tutorials from the README haven't been ported"], todos=["add a changelog page"],
          traps=["aren't doctested"]),
        S([U("continue"),
           E("docs/conf.py"),
           B("sphinx-build -b doctest docs docs/_build", False, "2 failures in tests.\nbuild finished with problems."),
           A("Enabled sphinx.ext.doctest and ran it: 2 of the CRS examples fail because the expected output prints "
             "more decimals than we show. I haven't fixed them yet.")],
          traps=["aren't doctested"]),
        S([U("continue"),
           E("docs/api/crs.rst"), E(".github/workflows/docs.yml"),
           B("sphinx-build -b doctest docs docs/_build", True, "47 tests, 0 failures in tests."),
           A("Fixed both with ELLIPSIS and rounding; the doctest builder runs in CI now — 47 tests, 0 failures.")],
          done=["aren't doctested"]),
        END,
    ]),
    ("b6-en-nomad", "en", [
        S([U("Move the image-resizer service from its bare VM onto our Nomad cluster, with Consul service discovery"),
           W("deploy/resizer.nomad.hcl"),
           B("nomad job validate deploy/resizer.nomad.hcl", True, "Job validation successful"),
           B("nomad job run deploy/resizer.nomad.hcl", True, "==> Deployment \"4f1c2a\" successful"),
           A("resizer runs on Nomad now: 3 allocations registered in Consul, health checks on /healthz, and Traefik "
             "routes to it through the Consul catalog. The old VM is still up and takes traffic from the legacy DNS "
             "name; it can go once the CDN origin points at Traefik. Secrets come from env vars in the job file "
             "instead of Vault. The job only schedules on the amd64 nodes, which is intended — libvips isn't built "
             "for arm here. Rolling updates go one allocation at a time with a 30 s min healthy time.")],
          topic=["Nomad"], files=["deploy/resizer.nomad.hcl"],
          todos=["old VM is still up", "instead of Vault"]),
        S([U("Switch the secrets over to Vault templates"),
           E("deploy/resizer.nomad.hcl"), W("deploy/policies/resizer.hcl"),
           B("nomad job plan deploy/resizer.nomad.hcl", True, "+/- Job: \"resizer\"\n+/- Task Group: \"resizer\" (3 in-place update)"),
           B("nomad job run deploy/resizer.nomad.hcl", True, "==> Deployment \"9b7e01\" successful"),
           A("The S3 keys and the URL-signing secret are rendered from Vault through a template stanza with their own "
             "policy; nothing sensitive is left in the job file, and the deploy went through. I bumped memory to 512 MB "
             "because resizing large PNGs got OOM-killed. There are no alerts on allocation restarts yet.")],
          done=["instead of Vault"], todos=["no alerts on allocation restarts"]),
        S([U("Did the CDN switch happen? can we kill the VM"),
           A("Not yet — the CDN origin still points at the VM, so it serves about 30% of requests.")],
          light=True, traps=["old VM is still up"]),
        S([U("The CDN origin has been on Traefik since this morning and I powered off the old box. Please add the "
             "restart alert now"),
           E("deploy/alerts.yml"),
           B("promtool check rules deploy/alerts.yml", True, "SUCCESS: 1 rules found"),
           A("Added a rule that fires when any resizer allocation restarts more than twice in 10 minutes, routed to "
             "#infra-alerts; promtool accepts it.")],
          done=["old VM is still up", "no alerts on allocation restarts"]),
        END,
    ]),
    ("b6-en-apikeys", "en", [
        S([U("Add API keys with scopes to our FastAPI service so partners can call /v1/reports without OAuth"),
           W("app/auth/api_keys.py"), W("tests/test_api_keys.py"),
           B("pytest tests/test_api_keys.py -q", True, "14 passed in 1.31s"),
           A("API keys work: a key is shown once, stored as a SHA-256 hash, and carries scopes like reports:read. "
             "14 tests pass. What's missing: keys never expire, a partner can't rotate a key without downtime, and "
             "usage isn't rate-limited per key. A wrong key gets 401 and a missing scope 403 — the usual split. "
             "The first 8 characters are kept in clear so support can tell keys apart.")],
          topic=["API keys"], files=["app/auth/api_keys.py"],
          todos=["keys never expire", "rotate a key without downtime", "isn't rate-limited per key"]),
        S([U("Give keys an optional expiry date, default 90 days"),
           E("app/auth/api_keys.py"), W("alembic/versions/7c1a_add_expires_at.py"), E("tests/test_api_keys.py"),
           B("pytest tests/test_api_keys.py -q", True, "18 passed in 1.44s"),
           A("Keys now get an expires_at (90 days unless the admin picks a date), and an expired key gets 401 with "
             "`key_expired`. 18 tests pass. For rotation the plan is two active keys per partner with an overlap "
             "window — I'll do that next.")],
          done=["keys never expire"], traps=["rotate a key without downtime"]),
        S([U("continue"),
           E("app/auth/api_keys.py"),
           B("pytest tests/test_api_keys.py -q", False, "1 failed, 19 passed in 1.52s"),
           A("Started on the second key: a partner can now create one, but revoking the old key after the overlap "
             "doesn't work yet and one test still fails.")],
          traps=["rotate a key without downtime"]),
        S([U("continue"),
           E("app/auth/api_keys.py"), E("tests/test_api_keys.py"),
           B("pytest -q", True, "212 passed in 9.87s"),
           A("Key rollover works end to end: a partner can hold two live keys and the old one is revoked "
             "automatically after the 7-day overlap, so switching needs no outage. Whole suite: 212 passed. "
             "Per-key throttling is still the gap.")],
          done=["rotate a key without downtime"], traps=["isn't rate-limited per key"]),
        END,
    ]),
    # ---------------------------------------------------------------- mixed
    ("b6-mx-whisper", "mixed", [
        S([U("用 faster-whisper 给客服录音做批量转写，输出 SRT，模型用 large-v3"),
           W("asr/batch_transcribe.py"), W("tests/test_batch.py"),
           B("python asr/batch_transcribe.py --input samples/ --out out/", True, "120 files, RTF 0.18"),
           A("批量转写跑通了：120 条录音，RTF 0.18，同时输出 SRT 和 JSON。目前还有两个问题：说话人分离还没做，客服和客户的话混在一起；"
             "VAD 参数是默认的，静音多的录音会切出很碎的字幕。只有一张 GPU，所以是串行处理的，目前的量够用。"
             "中文标点是模型自己出的，准确率还可以。")],
          topic=["批量转写"], files=["asr/batch_transcribe.py"],
          todos=["说话人分离还没做", "VAD 参数是默认的"]),
        S([U("Let's add speaker diarization with pyannote and label agent vs customer. 对了，下次记得把产品名加进热词表，"
             "老是识别错"),
           W("asr/diarize.py"), E("asr/batch_transcribe.py"),
           B("pytest tests/ -q", True, "11 passed in 4.20s"),
           B("python asr/batch_transcribe.py --input samples/ --out out/ --diarize", True, "120 files, DER 0.087"),
           A("Diarization is in: pyannote 3.1 separates the two voices and the channel that speaks first is tagged "
             "AGENT; DER on the 20 hand-labelled calls is 8.7%. Each SRT cue is prefixed with [AGENT] or [CUSTOMER]. "
             "I also fixed the SRT timestamps drifting after the first hour (a float rounding bug). The VAD settings "
             "are unchanged.")],
          done=["说话人分离还没做"], todos=["产品名加进热词表"], traps=["VAD 参数是默认的"]),
        S([U("VAD 调了吗？"), A("还没调，还是 faster-whisper 默认的 vad_parameters。")],
          light=True, traps=["VAD 参数是默认的"]),
        S([U("continue"),
           E("asr/batch_transcribe.py"),
           B("python asr/eval_segments.py out/", True, "median cue 2.9s (was 0.8s); cues < 0.5s: 3% (was 27%)"),
           B("pytest tests/ -q", True, "12 passed in 4.31s"),
           A("Tuned the VAD: min_silence_duration_ms 500 → 1200 and speech_pad_ms 400. Median cue length went from "
             "0.8 s to 2.9 s and cues under 0.5 s from 27% to 3%. 12 tests pass.")],
          done=["VAD 参数是默认的"]),
        S([U("热词那个我自己加好了，用 initial_prompt 塞了 40 个产品名，抽查 30 条都认对了"), A("好的，那转写这块就齐了。")],
          light=True, done=["产品名加进热词表"]),
        END,
    ]),
    ("b6-mx-tauri", "mixed", [
        S([U("Tauri 桌面客户端要加自动更新，更新包放在我们自己的 S3 上"),
           E("src-tauri/tauri.conf.json"), W("src-tauri/src/updater.rs"),
           B("cargo test --manifest-path src-tauri/Cargo.toml", True, "test result: ok. 8 passed; 0 failed"),
           A("自动更新接好了：启动时检查 latest.json，有新版本就弹窗提示，更新包用 minisign 验签。8 个测试通过。"
             "现在只在 macOS 上试过，Windows 的 NSIS 安装包还没验证。latest.json 目前是手动传上去的，CI 里还没自动生成。"
             "每 6 小时检查一次更新，这是产品定的。")],
          topic=["自动更新"], files=["src-tauri/src/updater.rs"],
          todos=["NSIS 安装包还没验证", "CI 里还没自动生成"]),
        S([U("Generate latest.json in the release workflow instead of uploading it by hand"),
           E(".github/workflows/release.yml"), W("scripts/make_latest_json.py"),
           B("act -j release --dryrun", True, "Job succeeded"),
           A("The release workflow now builds latest.json from the signed artifacts and uploads it to S3 together with "
             "the bundles — no manual upload any more. The dry run passes. I also pinned the tauri-action version in "
             "the same workflow. The Windows installer is still untested.")],
          done=["CI 里还没自动生成"], traps=["NSIS 安装包还没验证"]),
        S([U("Windows 上我装了 1.3.0 再发了 1.3.1，自动更新成功了，安装包那条路没问题。今天看下更新失败时的提示文案"),
           E("src-tauri/src/updater.rs"),
           B("cargo test --manifest-path src-tauri/Cargo.toml", True, "test result: ok. 9 passed; 0 failed"),
           A("更新失败时现在会提示具体原因（网络、验签失败、磁盘空间不足），并附上手动下载链接，9 个测试通过。"
             "回头最好加个灰度，先推给 10% 的用户。")],
          done=["NSIS 安装包还没验证"], todos=["先推给 10% 的用户"]),
        S([U("Is the staged rollout done?"),
           A("No — every client still gets the update as soon as latest.json changes.")],
          light=True, traps=["先推给 10% 的用户"]),
        END,
    ]),
]
