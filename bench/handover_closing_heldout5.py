"""The fifth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind6``) by an engineer who did not read the capture or
closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, docs/summaries.md, the Handover sections of BENCHMARKS.md) nor
the scenarios of the earlier sets (``handover_tuning_set.py``, ``handover_closing_set.py``,
``handover_closing_heldout.py``, ``handover_capture_set.py``, ``handover_closing_heldout2.py``,
``handover_closing_heldout3.py``, ``handover_closing_heldout4.py``) beyond their docstrings and
first scenario. Do not read its scenarios or its misses to change a rule — when it has been read,
write a new set instead.

(Work in progress: the first half of the projects.)
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, U, W
from handover_tuning_set import S as _S


def S(steps, *, traps=(), **planted):
    """A session of ``handover_tuning_set.S`` plus ``traps``: earlier open to-dos (phrases) that this
    session touches, asks about, reports as half done or puts off but does NOT finish, so it must not
    close them."""
    session = _S(steps, **planted)
    session["traps"] = list(traps)
    return session


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
]
