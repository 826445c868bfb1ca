"""The sixth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind; TUNING data from round 6 on.

It judged the round-5 rules blind (BENCHMARKS.md § "Handover — fifth round, merged"); from round 6 on its
scenarios and misses have been read by the people tuning the rules, so every number on it is an upper bound.

Written blind on 2026-11-26 (branch ``blind7``, from d658ec4) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, docs/summaries.md, the Handover sections of BENCHMARKS.md) nor
the scenarios of the earlier sets (``handover_tuning_set.py``, ``handover_closing_set.py``,
``handover_closing_heldout.py`` … ``handover_closing_heldout5.py``, ``handover_capture_set.py``,
``handover_capture2_set.py``, ``handover_traps_set.py``, ``handover_progress_set.py``) beyond their
docstrings and first scenario. Every earlier held-out set has been read or run by the people tuning
the rules; this one is the only blind set of round 5 and judges its rules afterwards. Do not read its
scenarios or its misses to change a rule — when it has been read, write a new set instead.

14 projects, 4–5 sessions each (61 transcripts, 10 of them short) plus a last start: 6 Chinese,
6 English, 2 mixed (a Chinese speaker with English code and terms, switching language between
sessions). Domains, away from the earlier sets': Canal binlog sync of a product table into
Elasticsearch, a uni-app WeChat mini-program member card page, a Chinese RoBERTa intent classifier,
Modbus RTU polling on RT-Thread/GD32, Jenkins-to-GitLab-CI migration, Alipay statement
reconciliation, a Rust dotfiles CLI, SAML SSO with Keycloak in Django, Phaser 3 checkpoints, an
Astro Starlight docs migration, a timm plant-disease classifier, pgBackRest backups as a Kubernetes
CronJob, a SwiftUI WidgetKit widget, Vector shipping logs to Loki.

- 45 open to-dos planted (18 Chinese, 19 English, 8 mixed — 6 stated in Chinese, 2 in English),
  stated as a state ("… is hard-coded", "… has no …", "only works on …", "never actually tried …",
  "nobody gets alerted …", "still point at …", "还没写", "写死", "是假数据", "没适配", "还没跑过",
  "还在 Jenkins 上"), as an indirect or hedged wish ("we should probably …", "it'd be nice to … at
  some point", "最好…", "回头…", "有空…"), in numbered or bulleted lists of what is left, in the
  person's own prompt ("remind me to …", "弄完提醒我…"), and embedded in a longer report.
- 40 of them finished later in other words (17 Chinese, 18 English, 5 mixed, all 5 in the other
  language): a synonym, a report with numbers, the person saying they did it (also in a short
  session), a request and work that passes, evidence alone (a bare "continue" / "继续", the to-do's
  file edited and its run passing, a terse report), a bulleted status list with ✅, "that's in now",
  "搞定了", "已经合到 main", "已经上线了".
- 28 traps (``traps`` on a session: an open to-do that session must NOT close; 12 Chinese, 12
  English, 4 mixed), hard the way real work is: 9 sessions that finish other work in the to-do's own
  area (the same file, page, module, config or job) and leave it, or say it is still so; 6 half-done
  reports or failing runs (a partial import, partial redirects, an OOM, an unwritable buffer dir, an
  unverified port); 3 where a sibling in the same list is finished and the to-do left; 4 "not yet" /
  "还没" answers to a question; 2 reports that put it next; 3 put off again; 1 statement of how
  things still are.
- Each project's first session plants its topic and main file.
- Most work sessions' final reports also hold 1–3 sentences that look like open work to a naive rule
  but are not: how the code works now, a result, a handled pitfall, an intended limit ("这是故意的",
  "这是有意的", "that's intended", "that's on purpose", "which is fine"), a past cause, a request to
  the person that is not code work.

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``R``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout6`` runs it: to-dos are scored on a
``[ ]`` line of the next start context, finished ones must be gone from ``[ ]`` lines, wrong closes
and traps are read from the to-do index after each project's last session, and ``spurious_todos``
counts the ``[ ]`` lines at a scored start that hold no planted to-do of the project (a trap
session's own restatement of a still-open to-do, in other words, counts there too).

BASELINE — unchanged main (scripts of d658ec4, before any rule of round 5 was tuned; run from a
``git archive d658ec4`` checkout with ``--checkout``; the set as of commit 97fd6a3),
``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout6 --checkout DIR --json OUT``,
offline summarizer, 2026-11-26 11:55 UTC, load average 12.46 at start and 9.46 at the end (2 shared
cores, several engineers' benches running), 217 s: open to-dos captured (on a ``[ ]`` line of the
next start) 35/45 (Chinese 13/18, English 14/19, mixed 8/8); finished to-dos still shown 14/40;
closes right 12, missed 14, wrong 1; traps held 20, sprung 1, untested 7 (their to-do was never
captured); spurious to-dos 38 of 126 ``[ ]`` lines at the scored starts; topics 14/14; files 14/14;
leaks 0; start context p50 5,983 characters (max 5,998); SessionStart p50 279.3 ms (inflated by
the load: compare it only within one run).
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

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
        S([U("位点那个我昨天自己改成存 Redis 了，已经上线了，重启两次都是从断点接着消费的。你看下 sync/canal_consumer.py 里还有没有要顺手清理的"),
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
           A("改好了，已经合到 main：推镜像现在走项目的 REGISTRY_DEPLOY_TOKEN，#4840 推送成功，你个人的 token 可以吊销了。")],
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
           A("搞定了。退款行现在按 out_request_no 和我们的 refund 表对上了，昨天账单里 43 笔退款全部一致，17 个测试通过。"
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
    ("b7-en-keycloak", "en", [
        S([U("We need SAML SSO against our Keycloak realm for the Django admin. Start in accounts/saml.py using "
             "python3-saml."),
           W("accounts/saml.py"), E("config/urls.py"),
           B("python -m pytest tests/test_saml.py -q", True, "7 passed"),
           A("SP-initiated login works against the test realm: /saml/login redirects to Keycloak, the ACS view validates "
             "the signed assertion and logs the user in. 7 tests pass. Unsigned assertions are rejected — that's "
             "intended. What's not there yet:\n"
             "- single logout: signing out of Django leaves the Keycloak session alive;\n"
             "- users are matched by email only, so someone whose email changes gets a second account;\n"
             "- the SP certificate is checked into the repo under certs/ — it should come from the secret store.")],
          topic=["SAML"], files=["accounts/saml.py"],
          todos=["leaves the Keycloak session alive", "matched by email only", "SP certificate is checked into the repo"]),
        S([U("Get the SP cert out of the repo — load it from AWS Secrets Manager at startup"),
           E("accounts/saml.py"), E("config/settings.py"),
           B("git rm certs/sp.key certs/sp.crt", True, "rm 'certs/sp.key'\nrm 'certs/sp.crt'"),
           B("python -m pytest tests/test_saml.py -q", True, "8 passed"),
           A("The SP key pair is now read from AWS Secrets Manager (`sso/sp-keypair`) when settings load, and "
             "certs/sp.key and certs/sp.crt are removed from the repo. 8 tests pass. Startup fails with a clear "
             "message if the secret is missing, rather than falling back to anything. Could you confirm the "
             "secret's name with the platform team?")],
          done=["SP certificate is checked into the repo"]),
        S([U("The logout thing — is that done?"),
           A("Not yet. /logout only clears the Django session; the IdP session at Keycloak stays.")], light=True,
          traps=["leaves the Keycloak session alive"]),
        S([U("Match users on the persistent NameID instead of email; keep email as a fallback for the first login"),
           E("accounts/saml.py"), W("accounts/migrations/0004_saml_subject.py"),
           B("python -m pytest tests/test_saml.py -q", True, "11 passed"),
           A("Accounts now link to the persistent NameID, stored in a new `saml_subject` column; the email is only used "
             "on the first login to find an existing user. 11 tests pass, including one that changes a user's email at "
             "the IdP and logs in again to the same account. Single logout is the next thing I'll pick up in this module.")],
          done=["matched by email only"], traps=["leaves the Keycloak session alive"]),
        S([U("continue"),
           E("accounts/saml.py"), E("accounts/views.py"),
           B("python -m pytest tests/test_saml.py -q", True, "13 passed\ntest_logout_ends_idp_session PASSED"),
           A("Done — /logout now sends a LogoutRequest to Keycloak and the SLS endpoint completes it, so both sessions "
             "end.")],
          done=["leaves the Keycloak session alive"]),
        END,
    ]),
    ("b7-en-phaser", "en", [
        S([U("In my Phaser 3 platformer, add checkpoints to src/scenes/Level.ts so dying respawns you at the last flag "
             "instead of the level start."),
           E("src/scenes/Level.ts"), W("src/objects/Checkpoint.ts"),
           B("npm test", True, "Tests: 9 passed, 9 total"),
           A("Checkpoints work: touching a flag stores its position, and on death the player respawns there with full "
             "health. Coins collected before the checkpoint stay collected — that's on purpose, so players can't farm "
             "them. A few rough edges: the checkpoint isn't saved to localStorage, so a page reload starts the level "
             "over; the flag has no activation animation or sound, it just silently switches state; and it'd be nice to "
             "show a small toast like 'Checkpoint!' at some point.")],
          topic=["add checkpoints"], files=["src/scenes/Level.ts"],
          todos=["checkpoint isn't saved to localStorage", "no activation animation or sound", "show a small toast"]),
        S([U("Make the checkpoint survive a reload"),
           E("src/scenes/Level.ts"), W("src/save.ts"),
           B("npm test", True, "Tests: 11 passed, 11 total"),
           A("The last checkpoint per level is now written to localStorage under `save:v1` and read back when the level "
             "starts, so reloading puts you at the flag. 11 tests pass. The flag itself is still silent with no "
             "animation.")],
          done=["checkpoint isn't saved to localStorage"], traps=["no activation animation or sound"]),
        S([U("Add the little popup when you reach a flag"),
           E("src/scenes/Level.ts"), W("src/ui/Toast.ts"),
           B("npm test", True, "Tests: 12 passed, 12 total"),
           A("A 'Checkpoint!' banner now slides in at the top for 1.5 s when you touch a new flag. 12 tests pass. I "
             "reused the tween helper, so it respects the reduced-motion setting. The flag sprite itself still doesn't "
             "animate — I need art for that.")],
          done=["show a small toast"], traps=["no activation animation or sound"]),
        S([U("I drew a flag-raise spritesheet (assets/flag.png, 6 frames) and a ding in assets/sfx/checkpoint.ogg — "
             "wire them up"),
           E("src/objects/Checkpoint.ts"), E("src/scenes/Level.ts"),
           B("npm test", True, "Tests: 13 passed, 13 total"),
           A("When a flag activates it now plays the 6-frame raise animation and the ding, once per flag. 13 tests pass.")],
          done=["no activation animation or sound"]),
        END,
    ]),
    ("b7-en-starlight", "en", [
        S([U("Move our docs site to Astro Starlight: migrate the markdown from docs/ into src/content/docs and configure "
             "the sidebar in astro.config.mjs. And after this, remind me to ask Lena for the logo SVG."),
           E("astro.config.mjs"),
           B("npm run build", True, "142 page(s) built in 9.8s"),
           A("The site builds: 142 pages, the sidebar grouped into Guides / Reference / Changelog and generated from the "
             "folders. Search uses Pagefind, which indexes at build time, so there's no search server to host. Open "
             "items from the migration:\n"
             "1. 23 internal links still point at the old `.md` paths and 404;\n"
             "2. there's no version switcher — only latest is published, the 2.x docs are gone;\n"
             "3. there's no redirect from the old docs URLs, so links from outside will break.\n"
             "And as you asked: ask Lena for the logo SVG.")],
          topic=["Starlight"], files=["astro.config.mjs"],
          todos=["internal links still point at the old", "only latest is published",
                 "no redirect from the old docs URLs", "ask Lena for the logo SVG"]),
        S([U("Fix the dead internal links. Lena sent the logo by the way, it's in public/logo.svg — put it in the header"),
           E("src/content/docs/guides/install.md"), E("src/content/docs/reference/cli.md"), E("astro.config.mjs"),
           B("npm run build && npx lychee dist", True, "142 page(s) built\n1204 links checked, 0 errors"),
           A("Every internal link now uses the new slugs — lychee checked 1,204 links with 0 errors — and the header "
             "shows public/logo.svg. I also fixed two typos in the install guide.")],
          done=["internal links still point at the old", "ask Lena for the logo SVG"]),
        S([U("Now the redirects for the old URLs"),
           E("astro.config.mjs"),
           B("npm run build", True, "142 page(s) built\nredirects: 37"),
           A("I added 37 entries to `redirects` in astro.config.mjs, covering the old /guides/*.html pages. The reference "
             "section's old URLs aren't mapped yet — their slugs changed more and I need the old sitemap for them.")],
          traps=["no redirect from the old docs URLs"]),
        S([U("Here's the old sitemap (old-sitemap.xml) — map the reference pages too"),
           E("astro.config.mjs"),
           B("npm run build && python tools/check_old_urls.py old-sitemap.xml", True,
             "redirects: 112\n112/112 old URLs answer 301 to a live page"),
           A("All 112 old URLs, guides and reference, now answer a 301 to a live page. The build is still 142 pages.")],
          done=["no redirect from the old docs URLs"], traps=["only latest is published"]),
        END,
    ]),
    ("b7-en-plantcls", "en", [
        S([U("Training a plant-disease classifier with timm (convnext_tiny) — add mixed precision and a cosine schedule "
             "to train.py"),
           E("train.py"),
           B("python train.py --epochs 1 --subset 0.05", True, "epoch 0 val_acc=0.62 it/s=41.3"),
           A("AMP is on via torch.autocast with bf16, and the LR follows a cosine curve after 2 warmup epochs. Throughput "
             "went from 23 to 41 it/s. Val accuracy is 0.62 after one epoch on 5% of the data, which is expected for a "
             "smoke run. Things I noticed while in there: the validation split leaks — the same leaf photographed twice "
             "can land in both train and val; augmentation is only a random flip, and we should probably add color "
             "jitter since the field photos vary a lot in lighting; and checkpoints only keep the last epoch, not the "
             "best one.")],
          topic=["plant-disease classifier"], files=["train.py"],
          todos=["the validation split leaks", "add color jitter", "checkpoints only keep the last epoch"]),
        S([U("Fix the split: group by leaf_id"),
           E("data/split.py"),
           B("python data/split.py", True, "train 31,204 / val 3,512 images; 0 leaf_ids in both"),
           A("The split is grouped by leaf_id now: 31,204 train and 3,512 val images, and no leaf_id appears in both. "
             "Val accuracy will drop a little; that's the honest number.")],
          done=["the validation split leaks"]),
        S([U("continue"),
           E("train.py"),
           B("python train.py --epochs 30", False, "RuntimeError: CUDA out of memory. Tried to allocate 1.20 GiB"),
           A("I added ColorJitter to the training transforms in train.py and started the full run, but it ran out of GPU "
             "memory at batch 128 in the first epoch. I'll lower the batch or accumulate gradients and rerun.")],
          traps=["add color jitter", "checkpoints only keep the last epoch"]),
        S([U("use grad accumulation 2x with batch 64 and rerun"),
           E("train.py"),
           B("python train.py --epochs 30 --batch 64 --accum 2", True,
             "best val_acc=0.914 at epoch 24; saved checkpoints/best.pt"),
           A("Status after the 30-epoch run (batch 64 × 2 accumulation):\n"
             "- augmentation: brightness/contrast/saturation jitter is in and was active for this run ✅\n"
             "- best-model saving: train.py writes checkpoints/best.pt whenever val accuracy improves, next to last.pt ✅\n"
             "- best val accuracy 0.914 at epoch 24.")],
          done=["add color jitter", "checkpoints only keep the last epoch"]),
        END,
    ]),
    ("b7-en-pgbackrest", "en", [
        S([U("Set up nightly Postgres backups with pgBackRest to S3, as a Kubernetes CronJob in deploy/backup-cronjob.yaml"),
           W("deploy/backup-cronjob.yaml"), W("deploy/pgbackrest.conf"),
           B("kubectl apply -f deploy/ --dry-run=server", True, "cronjob.batch/pg-backup created (server dry run)"),
           A("The CronJob takes a full backup on Sundays and a differential the other nights at 02:00 UTC, into "
             "s3://acme-pg-backups, keeping 4 full backups. The server-side dry run accepts it. Gaps: we've never "
             "actually tried a restore from these backups; nobody gets alerted if the job fails; and the repo isn't "
             "encrypted at rest beyond S3's default.")],
          topic=["pgBackRest"], files=["deploy/backup-cronjob.yaml"],
          todos=["never actually tried a restore", "nobody gets alerted if the job fails", "repo isn't encrypted at rest"]),
        S([U("turn on repo encryption"),
           E("deploy/pgbackrest.conf"), E("deploy/backup-cronjob.yaml"),
           B("kubectl apply -f deploy/", True, "cronjob.batch/pg-backup configured"),
           B("kubectl logs job/pg-backup-manual", True, "INFO: backup command end: completed successfully (repo1 cipher aes-256-cbc)"),
           A("repo1 now uses aes-256-cbc with the passphrase from the `pgbackrest-cipher` secret, and a manual backup "
             "completed with it. The older unencrypted backups will age out under the retention policy, which is fine. "
             "The job's failure handling is unchanged: a failed run just shows up as a failed Job.")],
          done=["repo isn't encrypted at rest"], traps=["nobody gets alerted if the job fails"]),
        S([U("did the restore test happen?"),
           A("No — I'd like a scratch namespace for it first, so it hasn't been run.")], light=True,
          traps=["never actually tried a restore"]),
        S([U("pg-scratch exists now. Restore last night's backup into it and compare row counts"),
           W("deploy/restore-job.yaml"),
           B("kubectl -n pg-scratch apply -f deploy/restore-job.yaml", True, "job.batch/pg-restore created"),
           B("kubectl -n pg-scratch logs job/pg-restore", True,
             "restore command end: completed successfully\n48 tables, row counts match source"),
           A("The restore drill passed: last night's differential restored into pg-scratch in 11 minutes, and all 48 "
             "tables' row counts match production as of the backup time.")],
          done=["never actually tried a restore"]),
        S([U("I added a Datadog monitor on failed pg-backup jobs myself, it pages whoever is on call — that's in now"),
           A("Good, noted.")], light=True,
          done=["nobody gets alerted if the job fails"]),
        END,
    ]),
    ("b7-mx-widget", "mixed", [
        S([U("给 app 加一个 WidgetKit 小组件，显示当前温度和未来 3 小时，TimelineProvider 写在 WeatherWidget/Provider.swift"),
           W("WeatherWidget/Provider.swift"), W("WeatherWidget/WeatherWidgetView.swift"),
           B("xcodebuild -scheme WeatherWidgetExtension build", True, "** BUILD SUCCEEDED **"),
           A("小组件做好了，small 和 medium 两种尺寸，timeline 每 30 分钟刷新一次，这是系统刷新预算允许的频率。"
             "数据通过 App Group 共享的 UserDefaults 读主 app 缓存的天气，不单独发请求。还差几样：large 尺寸还没做；"
             "深色模式下温度文字颜色看不清；点小组件现在只是打开 app 首页，最好能 deep link 到对应城市。")],
          topic=["WidgetKit"], files=["WeatherWidget/Provider.swift"],
          todos=["large 尺寸还没做", "深色模式下温度文字颜色看不清", "deep link 到对应城市"]),
        S([U("Fix the dark mode contrast on the widget"),
           E("WeatherWidget/WeatherWidgetView.swift"),
           B("xcodebuild -scheme WeatherWidgetExtension build", True, "** BUILD SUCCEEDED **"),
           A("The temperature label now uses `.primary` on a material background, so it reads well in both "
             "appearances — checked in the light and dark previews. Also, the widget has no placeholder view yet, so the "
             "widget gallery shows a blank card.")],
          done=["深色模式下温度文字颜色看不清"], todos=["no placeholder view yet"]),
        S([U("Tapping the widget should open the city it's showing"),
           E("WeatherWidget/WeatherWidgetView.swift"), E("App/DeepLinkRouter.swift"),
           B("xcodebuild -scheme WeatherApp build", True, "** BUILD SUCCEEDED **"),
           A("A tap now opens weatherapp://city/<id>, and the router pushes that city's detail screen. The large "
             "family is still not implemented.")],
          done=["deep link 到对应城市"], traps=["large 尺寸还没做"]),
        S([U("large 的先不做了，下个版本再说。今天看看小组件的耗电"),
           E("WeatherWidget/Provider.swift"),
           B("xcodebuild -scheme WeatherWidgetExtension build", True, "** BUILD SUCCEEDED **"),
           A("把 getTimeline 里兜底的网络请求去掉了，只读 App Group 缓存，Instruments 里小组件进程的能耗从 High 降到 Low。"
             "缓存超过 2 小时会显示灰色的更新时间，这是有意的提示。顺手把 placeholder 补上了，小组件库里的预览不再是空白卡片。")],
          done=["no placeholder view yet"], traps=["large 尺寸还没做"]),
        END,
    ]),
    ("b7-mx-vector", "mixed", [
        S([U("用 Vector 把 nginx 和 app 的日志收到 Loki，配置写在 vector/vector.toml"),
           W("vector/vector.toml"),
           B("vector validate vector/vector.toml", True, "√ Loaded [\"vector/vector.toml\"]\n√ Validated"),
           A("配置写好了：nginx access log 用 VRL 解析成结构化字段，app 的 JSON 日志直接透传；标签只用了 service 和 env，"
             "避免 Loki 的 label 基数爆掉。validate 通过。几件事还没弄：\n"
             "- 日志里的手机号还没脱敏；\n"
             "- Loki 挂掉时 Vector 用的是内存 buffer，一重启就丢日志，应该换成磁盘 buffer；\n"
             "- 回头把 k8s 的 pod 日志也接进来。")],
          topic=["Vector"], files=["vector/vector.toml"],
          todos=["手机号还没脱敏", "换成磁盘 buffer", "k8s 的 pod 日志也接进来"]),
        S([U("Mask phone numbers in the logs before they leave the host"),
           E("vector/vector.toml"), W("vector/tests/mask_phone.toml"),
           B("vector test vector/vector.toml vector/tests/mask_phone.toml", True, "test mask_phone ... passed"),
           A("A remap transform now rewrites 11-digit mainland mobile numbers as 138****5678 before the Loki sink; the "
             "unit test covers nginx query strings and JSON bodies. The sink's buffer is still the in-memory one.")],
          done=["手机号还没脱敏"], traps=["换成磁盘 buffer"]),
        S([U("buffer 的事你看下怎么弄"),
           E("vector/vector.toml"),
           B("vector validate vector/vector.toml", False, "x data_dir \"/var/lib/vector\" is not writable"),
           A("sink 的 buffer 改成了 type = \"disk\"，但容器里 /var/lib/vector 没有写权限，validate 没过，"
             "得在 compose 里给它挂一个卷才行。")],
          traps=["换成磁盘 buffer"]),
        S([U("I mounted a volume at /var/lib/vector in docker-compose.yml, try again"),
           E("docker-compose.yml"),
           B("vector validate vector/vector.toml", True, "√ Validated"),
           B("docker compose stop loki && sleep 60 && docker compose start loki && sleep 30 && "
             "logcli query '{service=\"api\"}' --since 3m | wc -l", True, "3120"),
           A("Validated. The Loki sink now buffers on disk (max 2 GiB): I stopped Loki for a minute and all 3,120 lines "
             "arrived after it came back, none lost. One gap I noticed: the nginx error log isn't collected at all, only "
             "the access log.")],
          done=["换成磁盘 buffer"], todos=["nginx error log isn't collected"]),
        END,
    ]),
]
