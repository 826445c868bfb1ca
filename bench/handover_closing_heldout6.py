"""The sixth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind7``, from d658ec4) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, docs/summaries.md, the Handover sections of BENCHMARKS.md) nor
the scenarios of the earlier sets (``handover_tuning_set.py``, ``handover_closing_set.py``,
``handover_closing_heldout.py`` … ``handover_closing_heldout5.py``, ``handover_capture_set.py``,
``handover_capture2_set.py``, ``handover_traps_set.py``, ``handover_progress_set.py``) beyond their
docstrings and first scenario. Every earlier held-out set has been read or run by the people tuning
the rules; this one is the only blind set of round 5 and judges its rules afterwards. Do not read its
scenarios or its misses to change a rule — when it has been read, write a new set instead.

SUMMARY_PLACEHOLDER

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``R``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout6`` runs it: to-dos are scored on a
``[ ]`` line of the next start context, finished ones must be gone from ``[ ]`` lines, wrong closes
and traps are read from the to-do index after each project's last session, and ``spurious_todos``
counts the ``[ ]`` lines at a scored start that hold no planted to-do of the project (a trap
session's own restatement of a still-open to-do, in other words, counts there too).

BASELINE_PLACEHOLDER
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, U, W
from handover_tuning_set import S as _S


def S(steps, *, traps=(), **planted):
    """A session of ``handover_tuning_set.S`` plus ``traps``: earlier open to-dos (phrases) that this
    session touches, asks about, reports as half done, puts next or off, but does NOT finish — so it
    must not close them."""
    session = _S(steps, **planted)
    session["traps"] = list(traps)
    return session

SCENARIOS = [
    ("b7-zh-canal", "zh", [
        S([U("商品搜索要做成实时的，想用 Canal 订阅 MySQL binlog，把 product 表同步到 Elasticsearch，先写个消费者 "
             "sync/canal_consumer.py"),
           W("sync/canal_consumer.py"), W("sync/es_writer.py"),
           B("python -m pytest tests/test_sync.py -q", True, "8 passed"),
           A("消费者写好了：收到 binlog 的 INSERT/UPDATE 会转成 ES 的 upsert，DELETE 转成删除，8 个测试都过了。"
             "目前是逐条写入 ES，这是故意的，先保证同一个商品的变更顺序。还有几件事没弄：\n"
             "1. 全量初始化脚本还没写，新索引现在是空的；\n"
             "2. 索引 mapping 里 title 用的是默认分词，中文搜不准，得换成 ik_max_word；\n"
             "3. 消费位点存在本地文件里，容器一重启就丢了。")],
          topic=["Canal"], files=["sync/canal_consumer.py"],
          todos=["全量初始化脚本还没写", "换成 ik_max_word", "消费位点存在本地文件里"]),
        S([U("先把 mapping 改一下，中文分词那个"),
           E("sync/index_mapping.json"),
           B("python sync/reindex.py --index product_v2", True, "created index product_v2 (analyzer: ik)"),
           B("python -m pytest tests/test_sync.py -q", True, "9 passed"),
           A("product_v2 的 title 和 brief 字段现在用 IK 分词器建索引、检索时用 ik_smart，搜“蓝牙耳机”能命中了，"
             "别名 product 已经切到 v2，旧索引保留三天再删。全量导入的脚本下次再写。")],
          done=["换成 ik_max_word"], traps=["全量初始化脚本还没写"]),
        S([U("全量导入的脚本写一下，分批从 MySQL 读"),
           W("sync/bootstrap.py"),
           B("python sync/bootstrap.py --batch 5000", False,
             "imported 1,200,000 rows\npymysql.err.OperationalError: (2013, 'Lost connection to MySQL server during query')"),
           A("脚本写好了，但导到 120 万行的时候 MySQL 断开了连接，应该是大偏移量的 LIMIT 查询太慢超时了，还没导完。"
             "我打算改成按主键范围分页再跑。")],
          traps=["全量初始化脚本还没写"]),
        S([U("继续"),
           E("sync/bootstrap.py"),
           B("python sync/bootstrap.py --batch 5000", True, "imported 3,412,877 rows into product_v2 in 14m02s"),
           A("改成按 id 范围分页以后，340 万商品全部导进去了，用时 14 分钟，ES 文档数和 MySQL 行数一致。")],
          done=["全量初始化脚本还没写"]),
        S([U("位点那个我昨天自己改成存 Redis 了，重启两次都是从断点接着消费的。你看下 sync/canal_consumer.py 里还有没有要顺手清理的"),
           R("sync/canal_consumer.py"),
           A("看过了，旧的写本地文件的 save_position 已经没人调用，可以删掉；其他没有要清理的。")],
          done=["消费位点存在本地文件里"]),
        END,
    ]),
    ("b7-zh-miniapp", "zh", [
        S([U("小程序的会员卡页面做一下，用 uni-app，放在 pages/member/card.vue，显示等级和积分"),
           W("pages/member/card.vue"), E("pages.json"),
           B("npm run build:mp-weixin", True, "DONE  Build complete."),
           A("会员卡页面做好了，等级和积分从 /api/member/profile 取，未登录会跳到登录页。积分明细列表目前是假数据，"
             "后端接口还没对。另外 iPhone 底部安全区没适配，“去兑换”按钮会被 Home 条挡住一点。主包现在 1.6MB，"
             "还在 2MB 的限制以内。")],
          topic=["会员卡"], files=["pages/member/card.vue"],
          todos=["积分明细列表目前是假数据", "底部安全区没适配"]),
        S([U("积分明细接口后端给了，/api/member/points，分页的，接上吧"),
           E("pages/member/card.vue"), W("api/points.js"),
           B("npm run build:mp-weixin", True, "DONE  Build complete."),
           A("积分明细现在走 /api/member/points 真实数据了，上拉加载下一页，每页 20 条，空列表显示“暂无积分记录”。"
             "顺手把等级图标换成了 SVG，清晰一些。按钮被挡的问题这次没动。")],
          done=["积分明细列表目前是假数据"], traps=["底部安全区没适配"]),
        S([U("按钮被挡那个弄了吗？"), A("还没有，底部按钮现在离屏幕底边还是 0。")], light=True,
          traps=["底部安全区没适配"]),
        S([U("用 env(safe-area-inset-bottom) 给底部按钮加个 padding"),
           E("pages/member/card.vue"),
           B("npm run build:mp-weixin", True, "DONE  Build complete."),
           A("加好了，iPhone 14 真机上“去兑换”按钮在 Home 条上面了，安卓机上没有变化，这是预期的。"
             "会员卡的分享海报回头有空做一下，运营之前提过。")],
          done=["底部安全区没适配"], todos=["分享海报回头有空做一下"]),
        END,
    ]),
    ("b7-zh-intent", "zh", [
        S([U("客服意图分类模型要重新训练，底座用 chinese-roberta-wwm-ext，训练脚本在 train/intent_trainer.py，"
             "帮我把 early stopping 加上"),
           E("train/intent_trainer.py"),
           B("python train/intent_trainer.py --epochs 1 --limit 500", True, "epoch 1 val_macro_f1=0.71"),
           A("early stopping 加上了，按验证集 macro-F1 连续 3 个 epoch 不涨就停，最好的权重存到 runs/best。"
             "500 条小样本试跑一轮 F1 0.71，这只是冒烟，不代表效果。看下来还有这些问题：\n"
             "- 类别严重不平衡，“退款”类占了 40%，loss 还没加权；\n"
             "- 评估只看总体 F1，没有每个类别的混淆矩阵；\n"
             "- 目前只在 CPU 上调通过，GPU 机器上还没跑过。")],
          topic=["意图分类"], files=["train/intent_trainer.py"],
          todos=["loss 还没加权", "没有每个类别的混淆矩阵", "GPU 机器上还没跑过"]),
        S([U("给 loss 加上类别权重，按样本数的倒数"),
           E("train/intent_trainer.py"),
           B("python train/intent_trainer.py --epochs 20", True, "early stop at epoch 9; best val_macro_f1=0.846 (epoch 6)"),
           A("加权交叉熵加上了，权重取各类频次的倒数再归一化。完整跑了一遍，第 9 轮早停，验证集 macro-F1 0.846，"
             "“转人工”类的召回从 0.52 涨到 0.78。分类别的评估和混淆矩阵放到下一步做。")],
          done=["loss 还没加权"], traps=["没有每个类别的混淆矩阵"]),
        S([U("评估那块加一下，每个意图的 precision/recall 和混淆矩阵都输出到 reports/ 下面"),
           W("train/evaluate.py"),
           B("python train/evaluate.py --ckpt runs/best", True, "wrote reports/confusion_matrix.png, reports/per_class.csv"),
           A("评估脚本现在会输出每个意图的 P/R/F1 表和混淆矩阵热力图，都在 reports/ 下。最容易混的是“退款”和“退货”，"
             "互相错分 11%，这是标注口径本身就模糊，不是模型的问题。")],
          done=["没有每个类别的混淆矩阵"]),
        S([U("A100 那台我自己跑过了，bf16 一个 epoch 4 分钟，F1 和 CPU 上的一致"),
           A("好，那训练脚本在显卡上也确认没问题了。")], light=True,
          done=["GPU 机器上还没跑过"]),
        END,
    ]),
    ("b7-zh-modbus", "zh", [
        S([U("GD32 板子上跑 RT-Thread，要通过 RS485 用 Modbus RTU 轮询 8 个温湿度传感器，代码写在 "
             "applications/modbus_poll.c"),
           W("applications/modbus_poll.c"), E("applications/SConscript"),
           B("scons -j4", True, "LINK rtthread.elf\nscons: done building targets."),
           A("轮询线程写好了，每 2 秒依次读 8 个从站的 0x0000-0x0001 寄存器，CRC 校验失败的帧直接丢弃并计数。"
             "编译通过，RAM 占用 31KB。有几个问题要说一下：从站地址现在是写死在数组里的，换个现场就得重新编译；"
             "某个从站掉线时整轮轮询会卡 1 秒超时，最好能跳过连续失败的从站；"
             "另外还没在真板子上接 8 个传感器测过，我这边只接了 2 个。")],
          topic=["Modbus RTU"], files=["applications/modbus_poll.c"],
          todos=["从站地址现在是写死在数组里的", "跳过连续失败的从站", "还没在真板子上接 8 个传感器测过"]),
        S([U("把从站地址改成从 FAL 分区的配置里读"),
           E("applications/modbus_poll.c"), W("applications/slave_cfg.c"),
           B("scons -j4", True, "LINK rtthread.elf\nscons: done building targets."),
           A("从站地址表现在从 FAL 的 cfg 分区读，msh 里用 slave_set 1,2,3 可以改，掉电保存；分区为空时用 1-8 的默认值。"
             "顺便把轮询线程的栈从 2KB 调到 1.5KB，水位线看下来还有 40% 余量。")],
          done=["从站地址现在是写死在数组里的"], traps=["跳过连续失败的从站"]),
        S([U("现场 8 个传感器都接上了，跑了一晚上没丢帧。不过拔掉 5 号之后，一轮从 2 秒变成了 3 秒"),
           A("对，这就是掉线从站那 1 秒超时，目前每轮都还会去等它。")], light=True,
          done=["还没在真板子上接 8 个传感器测过"], traps=["跳过连续失败的从站"]),
        S([U("继续"),
           E("applications/modbus_poll.c"),
           B("scons -j4 && python tools/sim_slaves.py --drop 5", True,
             "cycle 2.02s with slave 5 offline (skipped after 3 failures, re-probed every 60s)"),
           A("好了。")],
          done=["跳过连续失败的从站"]),
        END,
    ]),
    ("b7-zh-gitlabci", "zh", [
        S([U("把 Jenkinsfile 里的流水线迁到 GitLab CI，先迁构建和单测两个阶段。对了，弄完提醒我找运维要 runner 的 tag 权限"),
           W(".gitlab-ci.yml"),
           B("gitlab-ci-lint .gitlab-ci.yml", True, "Syntax is correct"),
           A("写好了 .gitlab-ci.yml，build 和 test 两个 stage，用 docker:24 的 runner，Maven 依赖缓存按 pom.xml 的哈希做 key，"
             "二次构建从 6 分钟降到 2 分半。部署阶段还在 Jenkins 上，这次没迁。推镜像用的是你个人的 token，"
             "得换成项目级的 deploy token。还有，你让我提醒的：找运维要 runner 的 tag 权限。")],
          topic=["GitLab CI"], files=[".gitlab-ci.yml"],
          todos=["部署阶段还在 Jenkins 上", "换成项目级的 deploy token", "找运维要 runner 的 tag 权限"]),
        S([U("deploy 阶段也迁过来，staging 自动，prod 手动点"),
           E(".gitlab-ci.yml"),
           B("gitlab-ci-lint .gitlab-ci.yml", True, "Syntax is correct"),
           B("git push origin ci-migration", True, "pipeline #4821 passed"),
           A("发布流程已经全部搬到 GitLab 了：main 合并后自动发 staging，prod 是 when: manual 手动点。"
             "流水线 #4821 全绿，Jenkins 上那个 job 可以停了。推镜像的凭据这次没动，还是原来那个。")],
          done=["部署阶段还在 Jenkins 上"], traps=["换成项目级的 deploy token"]),
        S([U("token 的事换了吗"), A("还没换，.gitlab-ci.yml 里 CI_REGISTRY_PASSWORD 还是引用你个人的变量。")],
          light=True, traps=["换成项目级的 deploy token"]),
        S([U("deploy token 我在项目设置里建好了，变量名 REGISTRY_DEPLOY_TOKEN，你把 CI 里的引用改过去。"
             "runner 权限的事运维说下周再给"),
           E(".gitlab-ci.yml"),
           B("git push origin ci-migration", True, "pipeline #4840 passed"),
           A("改好了，推镜像现在走项目的 REGISTRY_DEPLOY_TOKEN，#4840 推送成功，你个人的 token 可以吊销了。")],
          done=["换成项目级的 deploy token"], traps=["找运维要 runner 的 tag 权限"]),
        S([U("运维把 runner 的 tag 权限开给我了，谢谢提醒"), A("好的。")], light=True,
          done=["找运维要 runner 的 tag 权限"]),
        END,
    ]),
    ("b7-zh-recon", "zh", [
        S([U("每天要对支付宝的账单，写个脚本下载对账单，和我们的 payment 记录逐笔核对，放 recon/alipay_bill.py"),
           W("recon/alipay_bill.py"),
           B("python -m pytest tests/test_recon.py -q", True, "12 passed"),
           A("脚本写好了：按日下载对账单 zip，解压后用 trade_no 和 payment 表逐笔比对，输出三类差异——我方有对方无、"
             "对方有我方无、金额不一致，12 个测试都过。目前只在夜里跑一次，这是故意的，对账单要 T+1 才出。"
             "还没做的：退款单没有参与核对；差异结果现在只打到日志里，财务看不到，最好发到他们的钉钉群；"
             "有空再把手续费那一列也核一下。")],
          topic=["对账"], files=["recon/alipay_bill.py"],
          todos=["退款单没有参与核对", "差异结果现在只打到日志里", "把手续费那一列也核一下"]),
        S([U("把差异推到财务的钉钉群，用机器人 webhook"),
           E("recon/alipay_bill.py"), W("recon/notify.py"),
           B("python -m pytest tests/test_recon.py -q", True, "14 passed"),
           A("差异汇总现在会发到财务钉钉群，按三类分别列条数和前 10 笔明细，14 个测试通过。"
             "退款我顺便看了一下：对账单里退款是单独一行、金额为负，还没接进比对逻辑。")],
          done=["差异结果现在只打到日志里"], traps=["退款单没有参与核对"]),
        S([U("退款也核一下"),
           E("recon/alipay_bill.py"),
           B("python -m pytest tests/test_recon.py -q", True, "17 passed"),
           A("退款行现在按 out_request_no 和我们的 refund 表对上了，昨天账单里 43 笔退款全部一致，17 个测试通过。"
             "手续费那列下次再说。")],
          done=["退款单没有参与核对"], traps=["把手续费那一列也核一下"]),
        S([U("上周的差异报表里有 3 笔金额不一致，是什么原因？"),
           A("这 3 笔都是跨零点的交易，我方记在前一天，支付宝记在后一天，第二天的核对会自动对平，不需要改代码。")],
          light=True),
        S([U("服务费也核一下，费率 0.6%，逐笔四舍五入到分"),
           E("recon/alipay_bill.py"),
           B("python -m pytest tests/test_recon.py -q", True, "19 passed"),
           A("服务费现在也参与核对了：按 0.6% 逐笔算、四舍五入到分，和账单里的服务费列比对，上周 9812 笔全部对上。")],
          done=["把手续费那一列也核一下"]),
        END,
    ]),
    ("b7-en-dotsync", "en", [
        S([U("I'm writing dotsync, a Rust CLI that symlinks dotfiles from a git repo into $HOME. Implement the `link` "
             "subcommand in src/sync.rs with clap."),
           W("src/sync.rs"), E("src/main.rs"),
           B("cargo test", True, "test result: ok. 11 passed; 0 failed"),
           A("`dotsync link` is in: it walks the repo, creates a symlink for every file under `home/`, and refuses to "
             "overwrite an existing regular file unless you pass `--force`. All 11 tests pass. Caveats: it only works "
             "on macOS and Linux right now — on Windows, symlinks need developer mode and I haven't handled that. "
             "There's nothing to undo the links yet; an `unlink` command would be the natural counterpart. And the "
             "backup of overwritten files goes to /tmp, which gets wiped on reboot.")],
          topic=["dotsync"], files=["src/sync.rs"],
          todos=["only works on macOS and Linux", "nothing to undo the links yet",
                 "backup of overwritten files goes to /tmp"]),
        S([U("Backups first: put them under ~/.local/state/dotsync/backups with a timestamp"),
           E("src/sync.rs"),
           B("cargo test", True, "test result: ok. 13 passed; 0 failed"),
           A("Files that `--force` replaces are now moved to ~/.local/state/dotsync/backups/<timestamp>/, keeping their "
             "relative path, so they survive a reboot. 13 tests pass. I also made the error message clearer when the "
             "repo path doesn't exist.")],
          done=["backup of overwritten files goes to /tmp"], traps=["only works on macOS and Linux"]),
        S([U("Add the reverse command, `dotsync unlink`, that removes our symlinks and restores the newest backup"),
           E("src/sync.rs"), E("src/main.rs"),
           B("cargo test", True, "test result: ok. 15 passed; 0 failed"),
           A("`dotsync unlink` removes every symlink that points into the repo and puts back the newest backup if there "
             "is one. 15 tests pass. I've also started on Windows: symlink creation now goes through a helper that calls "
             "`std::os::windows::fs::symlink_file` there, but I can't build or run it on this machine, so that part is "
             "unverified.")],
          done=["nothing to undo the links yet"], traps=["only works on macOS and Linux"]),
        S([U("ok I tried it on my Windows box with developer mode on — link and unlink both work, and the CI matrix now "
             "has a windows-latest job that's green"),
           A("Great — so all three platforms are covered now.")], light=True,
          done=["only works on macOS and Linux"]),
        END,
    ]),
]
