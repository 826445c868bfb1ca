"""The twelfth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind13``, from 0525091) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, scripts/code_memory/text/lexicon.py,
scripts/code_memory/hooks/todo_check.py, docs/summaries.md, docs/hooks.md, the Handover sections of
BENCHMARKS.md) nor the scenarios of the earlier sets (``handover_tuning_set.py``,
``handover_closing_set.py``, ``handover_closing_heldout.py`` … ``handover_closing_heldout10.py``,
``handover_capture_set.py``, ``handover_capture2_set.py``, ``handover_capture6_set.py``,
``handover_traps_set.py``, ``handover_progress_set.py``, ``handover_reconfirm_set.py``,
``handover_wrongs_set.py``, ``handover_wrongs6_set.py``, ``handover_bilingual_set.py``) beyond their
docstrings and first scenario. It judges the rules and the Stop-hook to-do check of round 9
afterwards, beside ``handover_closing_heldout7.py`` … ``handover_closing_heldout11.py``. Do not read
its scenarios or its misses to change a rule — when it has been read, write a new set instead.

12 projects, 3–4 sessions each plus a last start, written to look like real Claude Code sessions
(tool steps, failing then passing runs, terse prompts such as "ok", "继续", "ship it"): 5 Chinese,
5 English, 2 mixed (a Chinese speaker with English code and terms, switching language between
sessions). Domains: DNS/CDN origin caching, PostgreSQL backups with restic and a restore drill,
Alipay/WeChat Pay daily reconciliation, a Greenplum → Doris warehouse migration, ROS 2 AGV
navigation, OpenFeature/flagd feature flags, a Python SDK 2.0 release, an iOS WidgetKit widget, a
JUCE compressor plugin, SendGrid → SES e-mail delivery, LaTeX thesis tooling, a Rust → WASM image
filter.

- 37 open to-dos planted (15 Chinese, 16 English, 6 mixed — stated in Chinese), stated as a state
  ("还在 Greenplum", "写死在脚本里", "只在仿真里测过", "is hard-coded", "always shows 0",
  "parsed but ignored", "isn't thread-safe", "goes nowhere", "still p=none"), as an indirect or
  hedged wish ("有空的话…", "回头要…", "it'd be nice to…", "we should probably…", "应该要有…"), in
  bulleted or numbered lists of what is left, in the person's prompt ("next time remind me to…"),
  and embedded in longer reports.
- 36 finished later in other words: about half share no word with the to-do (a synonym, the other
  language, the effect described: "always shows 0" → "shows 12 after 12 check-ins"), the person's
  own word ("我已经手动…", "I wrote … myself", "I moved DMARC to quarantine this morning"), numbers,
  evidence alone after a bare "继续" / "continue" (the file edited, the run passing, a one-line
  final message), and several restated in other words in an earlier session before they are done.
- 20 traps (``traps`` on a session: an open to-do that session must NOT close): other work in the
  to-do's own file or area finished in the same session, a sibling of the same list item finished,
  half-done and failing work reported as progress, "not yet" / "还没" answers, a question about it,
  the to-do put next, put off, or left to the person.
- 3 long sessions (8–10 user turns in one session): most turns unrelated work, one finishes a
  to-do, one touches the same area without finishing it.
- Most work sessions' final reports also hold 1–3 look-alike sentences that are not open work (how
  the code works now, a result, a pitfall already fixed, an intended limit, a past cause).

Same shapes as ``handover_closing_heldout10.py``: ``todos`` are open after the session, ``done``
earlier to-dos it finished, ``traps`` earlier to-dos it must not close.
``bench_handover_tuning.py --set closing-heldout12`` runs it (``spurious_todos`` counts the ``[ ]``
lines that hold no planted to-do); ``bench_todo_check.py --set closing-heldout12`` replays it turn by
turn through the Stop hook.

BASELINE (the rules of main 0525091 — this branch changes nothing under scripts/ — offline
summarizer, ``--json /tmp/blind13_main.json``, load average 2.1–3.0 on 2 shared cores): open to-dos
captured 33/37 (zh 12/15, en 15/16, mixed 6/6); topics 12/12; files 12/12; finished to-dos still
shown 21/36; closes right 9, missed 21, wrong 2; traps held 15, sprung 2, untested 3; spurious
``[ ]`` lines 18 of 110; leaks 0; context p50 5,978 chars (max 5,998); SessionStart p50 59 ms.
Stop-hook baseline (``bench_todo_check.py --set closing-heldout12 --checkout .``, same rules,
``--json /tmp/blind13_stop.json``, trigger "words only"): finishes 36, captured 32; asked 24 (ask
recall 0.75); ask recall of the summarizer's misses 24/30 = 0.80; finished still shown, floor
(assumes the model answers truly) 6/36; traps asked 15/17; 31 questions over 111 turns (0.279 per
turn, 0.775 per work session); hook p50 25.6 ms; with the replayed answers the index ends with
closes right 25, missed 5, wrong 2, traps held 15, sprung 2, untested 3.
done_at (round 9): the turn of a multi-turn session that finishes a planted to-do, annotated
by an engineer who writes no rules, counts only reported.
"""

from __future__ import annotations

from handover_tuning_set import (
    END,
    A,
    B,
    E,
    R,
    S,  # a session with ``traps``: earlier open to-dos it must NOT close
    U,
    W,
)

SCENARIOS = [
    ("b13-zh-cdn", "zh", [
        S([U("静态资源要切到 CDN，帮我看下 deploy/cdn/nginx_origin.conf 的缓存头该怎么配"),
           R("deploy/cdn/nginx_origin.conf"),
           A("现在所有静态文件都是 max-age=600，带 hash 的 js/css 完全可以缓存一年。建议 hash 文件 immutable，"
             "index.html 不缓存。要我直接改吗？"),
           U("好的，那就这样改"),
           E("deploy/cdn/nginx_origin.conf"),
           B("nginx -t", False, "nginx: [emerg] unknown directive \"add_headers\" in nginx_origin.conf:41"),
           E("deploy/cdn/nginx_origin.conf"),
           B("nginx -t", True, "nginx: configuration file /etc/nginx/nginx.conf test is successful"),
           B("curl -sI https://origin.static.example.cn/assets/app.3f9a1c.js | grep -i cache-control", True,
             "cache-control: public, max-age=31536000, immutable"),
           U("ok"),
           A("改好了：带 hash 的 js/css 现在是 max-age=31536000, immutable，index.html 是 no-cache，这是故意的，"
             "发版后用户能马上拿到新入口。刚才 nginx -t 报错是我把 add_header 拼错了，已经改正。还有几件事：\n"
             "1. 回源域名 origin.static.example.cn 的 DNS 记录 TTL 还是 86400，真要切回去会很慢\n"
             "2. 字体文件跨域头没配，Firefox 下图标字体会变成方块\n"
             "另外刷新缓存现在只能去控制台手点。")],
          topic=["CDN"], files=["deploy/cdn/nginx_origin.conf"],
          todos=["TTL 还是 86400", "字体文件跨域头没配", "刷新缓存现在只能去控制台手点"]),
        S([U("TTL 那个我上午已经在 DNSPod 上手动改成 600 了。今天把图片的 webp 协商做一下"),
           R("deploy/cdn/nginx_origin.conf"),
           E("deploy/cdn/nginx_origin.conf"),
           B("nginx -t", True, "nginx: configuration file /etc/nginx/nginx.conf test is successful"),
           B("curl -sI -H 'Accept: image/webp' https://origin.static.example.cn/img/banner.png", True,
             "content-type: image/webp\nvary: Accept"),
           A("webp 协商好了：浏览器带 Accept: image/webp 就回 webp，响应里加了 Vary: Accept，CDN 会按它分开缓存。"),
           U("Firefox 图标那个顺手弄了吗？"),
           A("还没动，字体那块的响应头还是老样子，我下次跟 CDN 的回源规则一起改。"),
           U("行，那先这样"),
           A("好的。今天只改了图片格式协商，CDN 命中率看了一下是 92%，和改之前差不多。")],
          done=["TTL 还是 86400"], traps=["字体文件跨域头没配"]),
        S([U("写个脚本，发版后自动调 CDN 的刷新接口，别再去控制台点了"),
           W("deploy/cdn/purge_cdn.py"), W("tests/test_purge_cdn.py"),
           B("python -m pytest tests/test_purge_cdn.py -q", False, "FAILED test_batches - assert 2 == 1"),
           E("deploy/cdn/purge_cdn.py"),
           B("python -m pytest tests/test_purge_cdn.py -q", True, "4 passed"),
           E("deploy/deploy.sh"),
           A("好了，deploy.sh 最后一步会调 purge_cdn.py 按目录刷新，每次最多 1000 条 URL，这是厂商接口的上限。"),
           U("继续"),
           E("deploy/cdn/nginx_origin.conf"),
           B("nginx -t", True, "nginx: configuration file /etc/nginx/nginx.conf test is successful"),
           B("curl -sI -H 'Origin: https://app.example.cn' https://origin.static.example.cn/fonts/iconfont.woff2",
             True, "access-control-allow-origin: https://app.example.cn"),
           A("woff2/ttf 的响应现在带 Access-Control-Allow-Origin 了，Firefox 下图标正常显示。")],
          done=["刷新缓存现在只能去控制台手点", "字体文件跨域头没配"],
          done_at={"字体文件跨域头没配": 1}),
        END,
    ]),
    ("b13-zh-backup", "zh", [
        S([U("数据库备份脚本 ops/backup/pg_backup.sh 老是半夜失败，帮我看看"),
           R("ops/backup/pg_backup.sh"),
           B("bash ops/backup/pg_backup.sh --dry-run", False,
             "Fatal: unable to create lock in backend: repository is already locked by PID 4121"),
           A("是上一次的 restic 进程被杀后留下了锁，后面每次都拿不到锁。可以在开头先 unlock 再备份。"),
           U("那就加个 unlock 再跑"),
           E("ops/backup/pg_backup.sh"),
           B("bash ops/backup/pg_backup.sh --dry-run", True, "snapshot 7be21f0c saved (dry run)"),
           U("好"),
           A("改好了：脚本开头先 restic unlock，再做备份，dry-run 跑通了。锁是上次 OOM 被杀留下的，不是并发。"
             "不过有几点要说一下：备份从来没做过恢复演练，现在不知道能不能真的恢复；保留策略也是写死在脚本里的 "
             "--keep-daily 7；有空的话把备份失败接到企业微信告警。")],
          topic=["备份"], files=["ops/backup/pg_backup.sh"],
          todos=["从来没做过恢复演练", "保留策略也是写死在脚本里的", "把备份失败接到企业微信告警"]),
        S([U("保留天数改成从 ops/backup/backup.env 里读"),
           E("ops/backup/pg_backup.sh"), W("ops/backup/backup.env"),
           B("shellcheck ops/backup/pg_backup.sh", True, ""),
           A("改成读 KEEP_DAILY / KEEP_WEEKLY 了，不设的话默认还是 7 和 4。"),
           U("今天在 staging 上试一下从备份恢复"),
           B("restic restore latest --target /srv/restore-test", True, "restoring <Snapshot 7be21f0c> ... 48213 files"),
           B("pg_ctl -D /srv/restore-test/pgdata start", False,
             "FATAL:  could not locate required checkpoint record"),
           A("数据文件恢复出来了，但 PostgreSQL 起不来：缺了备份期间的 WAL，快照里只有基础备份。要把 WAL 归档也一起拉下来才行。"),
           U("好吧，今天先到这"),
           A("好的。恢复演练还没成功：基础备份能拉下来，缺 WAL 所以库起不来，下次接着弄。")],
          done=["保留策略也是写死在脚本里的"], traps=["从来没做过恢复演练"]),
        S([U("继续搞恢复"),
           W("ops/backup/restore.sh"),
           B("bash ops/backup/restore.sh --target staging", False, "restore_command failed: wal-archive/000000010000002A00000031 not found"),
           E("ops/backup/restore.sh"),
           B("bash ops/backup/restore.sh --target staging", True,
             "database system is ready to accept connections\nrow count check: 312 tables OK"),
           A("staging 上从昨晚的快照加 WAL 拉起来了，312 张表行数和生产对得上，全程 14 分钟。"),
           U("告警那个呢"),
           A("还没接，要企业微信群机器人的 webhook 地址，你给我一个？")],
          done=["从来没做过恢复演练"], traps=["把备份失败接到企业微信告警"]),
        S([U("webhook 我自己加好了，在 backup.env 里，昨晚故意弄挂了一次，群里收到消息了"),
           R("ops/backup/backup.env"),
           A("看了，失败时 curl 机器人地址，消息里带主机名和退出码，没问题。")],
          done=["把备份失败接到企业微信告警"]),
        END,
    ]),
    ("b13-zh-recon", "zh", [
        S([U("做一下和支付宝的日对账，账单在 SFTP 上，对比我们的 ledger，代码放 recon/alipay_daily.py"),
           W("recon/alipay_daily.py"), W("tests/test_alipay_daily.py"),
           B("python -m pytest tests/test_alipay_daily.py -q", False, "KeyError: '商户订单号'"),
           E("recon/alipay_daily.py"),
           B("python -m pytest tests/test_alipay_daily.py -q", True, "9 passed"),
           A("测试过了，9 passed。要我拿昨天的账单实际跑一遍吗？"),
           U("跑"),
           B("python -m recon.alipay_daily --date 2026-11-25", True, "matched 41822, diff 3"),
           A("昨天的账单对出来 3 笔差异，我看一下是什么。"),
           U("嗯"),
           R("recon/alipay_daily.py"),
           A("对账脚本能跑了：拉 T-1 的账单，按商户订单号和 ledger 对，差异写到 recon_diff 表。"
             "昨天对出来 3 笔差异，都是跨天的退款，属于正常情况。还差的：\n"
             "- 微信支付的账单还没接\n"
             "- 手续费现在没对，只对了金额\n"
             "- 账单文件是 GBK，现在是硬编码 decode('gbk')，哪天支付宝换编码就会挂\n"
             "另外每天 10 点才跑是故意的，支付宝 9 点以后才出账单。")],
          topic=["对账"], files=["recon/alipay_daily.py"],
          todos=["微信支付的账单还没接", "手续费现在没对", "硬编码 decode('gbk')"]),
        S([U("先把服务费那一列也逐笔核一下"),
           E("recon/alipay_daily.py"),
           B("python -m pytest tests/test_alipay_daily.py -q", True, "11 passed"),
           A("好了，账单里的服务费和 ledger 的 fee 字段逐笔比，差 1 分以内算平，昨天的数据全平。"),
           U("recon_diff 查起来太慢，加个索引"),
           W("migrations/0031_recon_diff_idx.sql"),
           B("psql -f migrations/0031_recon_diff_idx.sql", True, "CREATE INDEX"),
           A("加了 (biz_date, channel) 联合索引，按天查差异从 2.3 秒降到 40 毫秒。"),
           U("差异金额大于 100 的发邮件给财务"),
           W("recon/notify.py"),
           B("python -m pytest tests/test_notify.py -q", True, "3 passed"),
           A("好了，超过 100 元的差异每天对完账发一封汇总邮件给 finance@。"),
           U("SFTP 偶尔超时，加个重试"),
           E("recon/sftp.py"),
           B("python -m pytest tests/test_sftp.py -q", True, "5 passed"),
           A("加了 3 次重试，间隔 5 秒。"),
           U("微信那边的账单格式你看一下，先别写代码"),
           R("docs/wechatpay_bill_format.md"),
           A("看了：微信的账单也是 CSV，但每个字段前面带一个反引号，金额单位是元，退款单独一段。"
             "解析要另写一个，等你说开始再接。"),
           U("日志里的商户号打一下码"),
           E("recon/alipay_daily.py"),
           B("python -m pytest tests/test_alipay_daily.py -q", True, "12 passed"),
           A("日志里商户号只留后 4 位了。"),
           U("跑一下全量测试"),
           B("python -m pytest -q", True, "84 passed"),
           A("全绿，84 passed。"),
           U("好的，那就这样"),
           A("好的。今天加了服务费核对、差异表索引、大额差异邮件、SFTP 重试和日志打码。"
             "财付通那边的账单还没开始接，格式已经看过了。")],
          done=["手续费现在没对"], traps=["微信支付的账单还没接", "硬编码 decode('gbk')"]),
        S([U("微信账单接一下，格式上次看过了"),
           W("recon/wechat_daily.py"), W("tests/test_wechat_daily.py"),
           B("python -m pytest tests/test_wechat_daily.py -q", False, "ValueError: could not convert string to float: '`12.50'"),
           E("recon/wechat_daily.py"),
           B("python -m pytest tests/test_wechat_daily.py -q", True, "8 passed"),
           A("好了，财付通的日账单现在也每天 10 点拉，差异同样写进 recon_diff，channel=wechat。昨天的对出来 0 笔差异。"),
           U("编码那个我自己改了，现在先用 charset-normalizer 探测，探测不出来再退回 gbk，你看一眼"),
           R("recon/alipay_daily.py"),
           A("看了 diff，没问题，测试也是绿的。")],
          done=["微信支付的账单还没接", "硬编码 decode('gbk')"],
          done_at={"硬编码 decode('gbk')": 1}),
        END,
    ]),
    ("b13-zh-dw", "zh", [
        S([U("数仓要从 Greenplum 迁到 Doris，先把用户行为宽表 dws_user_action_d 迁过去，DDL 放 "
             "warehouse/doris/dws_user_action_d.sql"),
           R("warehouse/greenplum/dws_user_action_d.sql"),
           W("warehouse/doris/dws_user_action_d.sql"),
           B("mysql -h doris-fe -P 9030 < warehouse/doris/dws_user_action_d.sql", True, ""),
           B("python tools/compare_counts.py dws_user_action_d --date 2026-11-25", True,
             "greenplum=182334901 doris=182334901 diff=0"),
           U("可以"),
           A("宽表在 Doris 上建好了，按天分区，按 user_id 分 32 个桶；昨天的分区两边行数一致（1.82 亿）。"
             "几个没做完的：历史分区只导了最近 90 天，更早的还在 Greenplum；金额字段的 sum 对比还没做，"
             "目前只比了行数；调度还是挂在老的 Azkaban 上，回头要迁到 DolphinScheduler。")],
          topic=["Doris"], files=["warehouse/doris/dws_user_action_d.sql"],
          todos=["更早的还在 Greenplum", "sum 对比还没做", "调度还是挂在老的 Azkaban 上"]),
        S([U("金额字段按天 sum 对一下"),
           E("tools/compare_counts.py"),
           B("python tools/compare_counts.py dws_user_action_d --sum pay_amount", True, "checked 90 partitions, sum diff=0"),
           A("加了 --sum，90 个分区的 pay_amount 合计两边一分不差。"),
           U("把 2023 年以前的历史分区也导过来"),
           B("python tools/backfill.py --table dws_user_action_d --from 2021-01-01 --to 2023-12-31", True,
             "imported 1094 partitions, skipped 1"),
           B("python tools/compare_counts.py dws_user_action_d --from 2021-01-01", False,
             "partition 2022-03-14: greenplum=201334 doris=0"),
           A("大部分导完了：1095 个分区导了 1094 个，2022-03-14 那天源表文件损坏，导入跳过了，Doris 里是空的。"),
           U("那天的我去问 DBA，先这样"),
           A("好的。历史数据还差 2022-03-14 这一天，等 DBA 修好文件再补。")],
          done=["sum 对比还没做"], traps=["更早的还在 Greenplum"]),
        S([U("DBA 把那天的文件修好了，我已经手动重导过，行数对上了。宽表的字段注释补一下"),
           E("warehouse/doris/dws_user_action_d.sql"),
           B("mysql -h doris-fe -P 9030 -e 'SHOW CREATE TABLE dws_user_action_d'", True, "COMMENT '用户行为日宽表'"),
           A("每个字段都补了 COMMENT，表注释也加了。"),
           U("调度迁 DolphinScheduler 这个下周再说"),
           A("好，记下了，还是下周做，这周 Azkaban 照常跑。")],
          done=["更早的还在 Greenplum"], traps=["调度还是挂在老的 Azkaban 上"]),
        S([U("调度迁过去吧"),
           W("scheduler/ds/dws_user_action_d.json"),
           B("dsctl workflow import scheduler/ds/dws_user_action_d.json", True,
             "workflow 'dws_user_action_d' online, next run 2026-11-28 02:00"),
           A("工作流已经在 DS 上线了，每天凌晨 2 点跑，依赖上游的 ods 表就绪；Azkaban 那边的 job 我停用了。")],
          done=["调度还是挂在老的 Azkaban 上"]),
        END,
    ]),
    ("b13-zh-agv", "zh", [
        S([U("仓库的 AGV 过窄通道老是停住不走，看下 nav2 的参数 config/nav2_params.yaml"),
           R("config/nav2_params.yaml"),
           E("config/nav2_params.yaml"),
           B("colcon build --packages-select agv_nav", True, "Summary: 1 package finished"),
           B("ros2 launch agv_nav sim.launch.py scenario:=narrow_aisle", True, "goal reached in 41.2s, 0 recoveries"),
           U("不错"),
           A("把 inflation_radius 从 0.55 调到 0.35，仿真里窄通道能过了，41 秒到点，没有触发恢复行为。"
             "停住是因为代价地图把整条通道都膨胀满了。还有：激光雷达和里程计的时间戳差了 80ms 左右，没同步；"
             "急停按钮现在只在仿真里测过；低电量自动回充也还没写。")],
          topic=["AGV"], files=["config/nav2_params.yaml"],
          todos=["时间戳差了 80ms", "急停按钮现在只在仿真里测过", "低电量自动回充也还没写"]),
        S([U("回充先做"),
           W("agv_nav/agv_nav/auto_dock.py"), W("agv_nav/test/test_auto_dock.py"),
           B("colcon test --packages-select agv_nav", False, "test_auto_dock.py::test_threshold FAILED"),
           E("agv_nav/agv_nav/auto_dock.py"),
           B("colcon test --packages-select agv_nav", True, "17 tests, 0 errors, 0 failures"),
           B("ros2 launch agv_nav sim.launch.py scenario:=battery_low", True, "docked after 63s, charging=True"),
           A("电量低于 20% 会自己导航回充电桩并对接，仿真里 63 秒对上桩。"),
           U("时间同步那个看了吗"),
           A("看了，还没改。要在雷达驱动里开 PTP，还得在车载工控机上配 ptp4l，这个得你在车上弄。")],
          done=["低电量自动回充也还没写"], traps=["时间戳差了 80ms"]),
        S([U("今天在实车上测急停，你帮我看着 /estop 和速度"),
           B("ros2 topic echo /estop --once", True, "data: true"),
           B("python tools/brake_distance.py bag/estop_2026-11-27", True,
             "5 presses, mean stop 120ms, max distance 0.27m"),
           A("实车上按了 5 次急停，平均 120ms 刹停，最远滑了 0.27 米，都在 0.3 米的要求以内。"),
           U("PTP 我在车上配好了，bag 里看雷达和轮速计的时间差现在 2ms 以内"),
           A("好的，那传感器时间对齐这块就解决了。")],
          done=["急停按钮现在只在仿真里测过", "时间戳差了 80ms"],
          done_at={"时间戳差了 80ms": 1}),
        END,
    ]),
    ("b13-en-flags", "en", [
        S([U("We're replacing our env-var toggles with OpenFeature + flagd. Start with the new search ranker "
             "flag; the client goes in web/src/flags/client.ts"),
           W("web/src/flags/client.ts"), E("web/src/search/ranker.ts"),
           B("pnpm vitest run src/flags", False, "1 failed: ProviderNotReadyError"),
           A("One test fails: the first evaluation runs before the flagd provider is ready. Looking into it."),
           U("go on"),
           E("web/src/flags/client.ts"),
           B("pnpm vitest run src/flags", True, "12 passed"),
           A("Passing now — 12 tests."),
           U("ok, summarize where we are"),
           A("The OpenFeature client is wired to flagd and `search.new-ranker` now gates the ranker. The test "
             "failed at first because the provider wasn't ready before the first evaluation — fixed by awaiting "
             "`setProviderAndWait`. Left over:\n"
             "- flag evaluations aren't sent to analytics yet, so we can't tell who saw which ranker\n"
             "- the flagd URL is hard-coded to localhost:8013\n"
             "- there's no kill switch runbook for on-call\n"
             "Evaluations fall back to `false` when flagd is down; that's on purpose.")],
          topic=["OpenFeature"], files=["web/src/flags/client.ts"],
          todos=["evaluations aren't sent to analytics", "flagd URL is hard-coded", "no kill switch runbook"]),
        S([U("the search page's facet counts are off by one when a filter is active"),
           R("web/src/search/facets.ts"), E("web/src/search/facets.ts"),
           B("pnpm vitest run src/search", True, "18 passed"),
           A("The off-by-one came from counting the synthetic 'All' bucket. Fixed; 18 tests pass."),
           U("ok, also debounce the search box to 250ms"),
           E("web/src/search/SearchBox.tsx"),
           B("pnpm vitest run src/search", True, "19 passed"),
           A("Done — debounced at 250 ms."),
           U("read flags/flagd.json and tell me which flags are stale"),
           R("flags/flagd.json"),
           A("Three flags have been fully on for more than 60 days: `legacy-header`, `promo-banner-v2` and "
             "`new-footer`. Want me to remove them and their code paths?"),
           U("yes"),
           E("flags/flagd.json"), E("web/src/layout/Header.tsx"), E("web/src/layout/Footer.tsx"),
           B("pnpm vitest run", True, "208 passed"),
           A("Removed the three flags and their dead branches; 208 tests pass."),
           U("make the flag client read its endpoint from FLAGD_ENDPOINT instead of the literal"),
           E("web/src/flags/client.ts"),
           B("pnpm vitest run src/flags", True, "14 passed"),
           A("Done — tests pass."),
           U("and log every evaluation at debug level, just locally for now"),
           E("web/src/flags/client.ts"),
           B("pnpm vitest run src/flags", True, "15 passed"),
           A("Evaluations are logged at debug level now. Nothing goes to Amplitude yet — that still needs an "
             "OpenFeature hook."),
           U("bump vitest to 2.1"),
           E("package.json"),
           B("pnpm install && pnpm vitest run", True, "209 passed"),
           A("Bumped to 2.1.4; all 209 tests pass."),
           U("lint"),
           B("pnpm lint", False, "3 errors: no-unused-vars"),
           A("Three unused imports left over from the flag removal. Fix them?"),
           U("yes"),
           E("web/src/layout/Header.tsx"),
           B("pnpm lint", True, "0 problems"),
           A("Lint is clean."),
           U("ship it"),
           B("git push origin feat/openfeature", True, "To github.com:acme/web.git\n   4c1d2e0..9ab77f1"),
           A("Pushed to `feat/openfeature`; CI is running.")],
          done=["flagd URL is hard-coded"], traps=["evaluations aren't sent to analytics"],
          done_at={"flagd URL is hard-coded": 4}),
        S([U("I wrote the on-call page for turning a flag off in an emergency myself last night — "
             "docs/runbooks/flags.md. Have a look"),
           R("docs/runbooks/flags.md"),
           A("Read it. The steps match how flagd reloads its file (it picks up changes within 5 s), and the "
             "Grafana link is right. Looks good."),
           U("now send evaluation events to Amplitude via an OpenFeature hook"),
           W("web/src/flags/amplitudeHook.ts"),
           B("pnpm vitest run src/flags", False, "1 failed: expected track to be called once, called 0 times"),
           E("web/src/flags/amplitudeHook.ts"),
           B("pnpm vitest run src/flags", True, "17 passed"),
           A("Each evaluation now fires a `flag_evaluated` event with the flag key, variant and user id; "
             "17 tests pass.")],
          done=["no kill switch runbook", "evaluations aren't sent to analytics"],
          done_at={"evaluations aren't sent to analytics": 1}),
        END,
    ]),
    ("b13-en-sdk", "en", [
        S([U("Let's get the 2.0 release of our Python SDK out. Start with the changelog and the version bump in "
             "pyproject.toml"),
           R("CHANGELOG.md"), E("pyproject.toml"), E("CHANGELOG.md"),
           B("python -m build", True, "Successfully built acme_geo-2.0.0.tar.gz and acme_geo-2.0.0-py3-none-any.whl"),
           A("Bumped to 2.0.0, added the 2.0 section to the changelog, and both artifacts build. Run `twine check` too?"),
           U("yes"),
           B("twine check dist/*", True, "Checking dist/acme_geo-2.0.0-py3-none-any.whl: PASSED"),
           U("anything else before we tag?"),
           A("Version is 2.0.0 and the changelog lists the breaking changes. Both the sdist and the wheel build "
             "and pass `twine check`. Before we tag, a few things: the migration guide from 1.x doesn't exist "
             "yet; `Client.geocode_batch` still has no type hints, so mypy users get `Any`; and the wheel is "
             "only tested on Linux — we should probably add macOS and Windows to the CI matrix.")],
          topic=["2.0 release"], files=["pyproject.toml"],
          todos=["migration guide from 1.x doesn't exist", "still has no type hints",
                 "add macOS and Windows to the CI matrix"]),
        S([U("add the other runners"),
           E(".github/workflows/test.yml"),
           B("gh workflow run test.yml && gh run watch", False,
             "✓ test (ubuntu-latest)\n✓ test (macos-latest)\nX test (windows-latest): 2 failed"),
           A("macOS is in the matrix and green. Windows is in too but red: two cache tests build paths with "
             "'/'. I haven't fixed those yet."),
           U("leave it. type the batch call"),
           E("src/acme_geo/client.py"),
           B("mypy --strict src", True, "Success: no issues found in 14 source files"),
           A("`geocode_batch` now takes `Sequence[str]` and returns `list[GeocodeResult]`; mypy --strict is clean.")],
          done=["still has no type hints"], traps=["add macOS and Windows to the CI matrix"],
          done_at={"still has no type hints": 1}),
        S([U("continue"),
           E("src/acme_geo/cache.py"), E("tests/test_cache.py"),
           B("gh workflow run test.yml && gh run watch", True,
             "✓ test (ubuntu-latest)\n✓ test (macos-latest)\n✓ test (windows-latest)"),
           A("All three green."),
           U("what's left before tagging?"),
           A("Only the notes telling 1.x users how to upgrade. Everything else is in."),
           U("I'll write those upgrade notes myself tomorrow"),
           A("Sounds good — ping me when they're up and I'll tag.")],
          done=["add macOS and Windows to the CI matrix"], traps=["migration guide from 1.x doesn't exist"]),
        S([U("upgrade notes are up at docs/upgrading.md — tag it"),
           R("docs/upgrading.md"),
           B("git tag v2.0.0 && git push origin v2.0.0", True, "* [new tag] v2.0.0 -> v2.0.0"),
           B("gh run watch", True, "✓ publish: uploaded acme-geo 2.0.0 to PyPI"),
           A("Tagged v2.0.0; it's on PyPI.")],
          done=["migration guide from 1.x doesn't exist"]),
        END,
    ]),
    ("b13-en-widget", "en", [
        S([U("Add a home screen widget showing today's streak. Put it in HabitWidget/StreakWidget.swift"),
           W("HabitWidget/StreakWidget.swift"), E("HabitWidget/Provider.swift"),
           B("xcodebuild -scheme HabitWidgetExtension -destination 'platform=iOS Simulator,name=iPhone 15' build",
             True, "** BUILD SUCCEEDED **"),
           U("looks fine in the simulator"),
           A("The small widget shows the current streak and today's ring. The timeline refreshes at midnight "
             "and after each check-in through `WidgetCenter.reloadTimelines`. Things I didn't get to: it'd be "
             "nice to have a medium size with the last 7 days; the widget reads the streak from "
             "`UserDefaults.standard`, which the extension can't see, so it always shows 0 on a real device; "
             "and dark mode colors are hard-coded. Xcode previews work for the small family.")],
          topic=["widget"], files=["HabitWidget/StreakWidget.swift"],
          todos=["medium size with the last 7 days", "it always shows 0", "dark mode colors are hard-coded"]),
        S([U("fix the streak reading"),
           E("HabitShared/StreakStore.swift"), E("HabitWidget/Provider.swift"),
           B("xcodebuild test -scheme HabitTracker", True, "Executed 41 tests, with 0 failures"),
           A("The app and the extension share `group.com.acme.habits` through `UserDefaults(suiteName:)` now; on "
             "the device the widget shows 12 after 12 check-ins."),
           U("start on the bigger one"),
           W("HabitWidget/WeekWidget.swift"),
           B("xcodebuild -scheme HabitWidgetExtension build", True, "** BUILD SUCCEEDED **"),
           A("The medium layout is there with seven placeholder dots, but it doesn't read the real history "
             "yet — that needs a query on the history store."),
           U("ok stop here"),
           A("Stopping here.")],
          done=["it always shows 0"], traps=["medium size with the last 7 days"]),
        S([U("colors: use asset catalog colors so they follow the system appearance"),
           E("HabitWidget/Assets.xcassets/RingFill.colorset/Contents.json"), E("HabitWidget/StreakWidget.swift"),
           B("xcodebuild -scheme HabitWidgetExtension build", True, "** BUILD SUCCEEDED **"),
           A("Swapped the literals for named colors with light and dark variants; checked both appearances in "
             "previews."),
           U("continue"),
           E("HabitWidget/WeekWidget.swift"), E("HabitShared/HistoryStore.swift"),
           B("xcodebuild test -scheme HabitTracker", True, "Executed 44 tests, with 0 failures"),
           A("Done — the week row shows each day's check-ins; tests pass.")],
          done=["dark mode colors are hard-coded", "medium size with the last 7 days"],
          done_at={"medium size with the last 7 days": 1}),
        END,
    ]),
    ("b13-en-dsp", "en", [
        S([U("The compressor in Source/Compressor.cpp pumps audibly on drums, take a look"),
           R("Source/Compressor.cpp"),
           A("The release stage ramps linearly, so the gain recovers at a constant dB rate and you hear it "
             "breathe between hits. I'd switch to a one-pole exponential. OK?"),
           U("ok"),
           E("Source/Compressor.cpp"),
           B("cmake --build build && ctest --test-dir build", True, "100% tests passed, 0 tests failed out of 9"),
           U("sounds better. anything else you noticed?"),
           A("The pumping came from the release stage using a linear ramp; it now uses an exponential one-pole "
             "with separate attack and release coefficients. Unit tests pass. Still open: the sidechain input is "
             "parsed but ignored, so external keying does nothing; there's no oversampling, so fast attacks alias "
             "at 44.1k; and the gain-reduction meter isn't thread-safe — it reads a float the audio thread writes, "
             "without an atomic. Lookahead is capped at 5 ms by design, to keep latency low.")],
          topic=["compressor"], files=["Source/Compressor.cpp"],
          todos=["sidechain input is parsed but ignored", "there's no oversampling", "meter isn't thread-safe"]),
        S([U("make the GR display safe to read from the UI"),
           E("Source/Compressor.cpp"), E("Source/PluginEditor.cpp"),
           B("cmake --build build-tsan && ./build-tsan/StressTest", True, "ThreadSanitizer: no issues found"),
           A("The editor reads gain reduction from a `std::atomic<float>` now; a TSan run of the stress test is "
             "clean."),
           U("the knee is too hard, soften it to 6 dB"),
           E("Source/Compressor.cpp"),
           B("ctest --test-dir build", True, "100% tests passed, 0 tests failed out of 10"),
           A("Knee is 6 dB with quadratic interpolation; smoother on the snare. Tests pass."),
           U("is oversampling worth it?"),
           A("For attacks under 1 ms at 44.1 kHz, yes — I'd do 2x with `juce::dsp::Oversampling` around the "
             "detector and gain stage. I'll do the oversampling next if you want.")],
          done=["meter isn't thread-safe"], traps=["sidechain input is parsed but ignored", "there's no oversampling"]),
        S([U("do it"),
           W("Source/Oversampler.h"), E("Source/Compressor.cpp"),
           B("ctest --test-dir build", False, "aliasing_test: -62 dB above limit -80 dB"),
           E("Source/Compressor.cpp"),
           B("ctest --test-dir build", True, "100% tests passed, 0 tests failed out of 11"),
           A("2x polyphase IIR oversampling around the detector and gain stage; the aliasing test now measures "
             "-91 dB (limit -80). Adds 1.2 ms of latency, which the host compensates.")],
          done=["there's no oversampling"]),
        S([U("I hooked up the external key myself — bus 1 drives the detector when 'Ext' is on. Add a test for it"),
           W("Tests/SidechainTest.cpp"),
           B("ctest --test-dir build", True, "100% tests passed, 0 tests failed out of 12"),
           A("Added: with Ext on, a quiet main input and a loud key give 9.8 dB of gain reduction; with Ext off, "
             "none.")],
          done=["sidechain input is parsed but ignored"]),
        END,
    ]),
    ("b13-en-mail", "en", [
        S([U("We're moving transactional email off SendGrid to SES. The sender is mailer/send.py"),
           R("mailer/send.py"),
           A("send.py calls the SendGrid v3 API directly in two places. I'll put SES behind the same "
             "`send_message` function so callers don't change."),
           U("ok"),
           E("mailer/send.py"),
           B("python -m pytest tests/test_send.py -q", False, "FAILED test_reply_to - KeyError: 'ReplyToAddresses'"),
           E("mailer/send.py"),
           B("python -m pytest tests/test_send.py -q", True, "22 passed"),
           U("what's missing?"),
           A("send.py talks to SES through boto3 now and the templates render the same HTML. A few gaps: bounces "
             "and complaints aren't handled — nothing listens to the SNS notifications, so we'd keep mailing dead "
             "addresses; DMARC is still p=none on the domain; and the unsubscribe link goes nowhere in the digest "
             "email. Sending is capped at 14 messages/second — that's the SES account limit, not ours.")],
          topic=["SES"], files=["mailer/send.py"],
          todos=["bounces and complaints aren't handled", "DMARC is still p=none", "unsubscribe link goes nowhere"]),
        S([U("set up the SNS webhook"),
           W("mailer/sns_webhook.py"),
           B("python -m pytest tests/test_sns_webhook.py -q", False, "FAILED test_signature - InvalidSignature"),
           E("mailer/sns_webhook.py"),
           B("python -m pytest tests/test_sns_webhook.py -q", True, "7 passed"),
           A("The webhook verifies SNS signatures and handles hard bounces: the address goes on the suppression "
             "list. Complaints aren't wired yet — they come on a separate topic I haven't subscribed to."),
           U("ok leave that for tomorrow. next time remind me to ask legal about the digest unsubscribe wording"),
           A("Noted — I'll bring it up next session.")],
          todos=["ask legal about the digest unsubscribe wording"], traps=["bounces and complaints aren't handled"]),
        S([U("complaints topic too"),
           E("mailer/sns_webhook.py"),
           B("python -m pytest tests/test_sns_webhook.py -q", True, "11 passed"),
           A("Complaint notifications land in the same handler now; a complained address is suppressed like a hard "
             "bounce. Checked with the SES mailbox simulator (complaint@simulator.amazonses.com)."),
           U("I moved DMARC to quarantine this morning, aggregate reports look clean"),
           A("Good — with SPF and DKIM both aligned, quarantine is safe."),
           U("the digest opt-out: wire it to the preferences endpoint"),
           E("mailer/templates/digest.html"), E("mailer/routes.py"),
           B("python -m pytest tests/ -q", True, "36 passed"),
           A("The digest's opt-out now hits /prefs/unsubscribe?token=… and we send List-Unsubscribe-Post so Gmail "
             "shows its own button. The footer text is unchanged.")],
          done=["bounces and complaints aren't handled", "DMARC is still p=none", "unsubscribe link goes nowhere"],
          traps=["ask legal about the digest unsubscribe wording"],
          done_at={"DMARC is still p=none": 1, "unsubscribe link goes nowhere": 2}),
        END,
    ]),
    ("b13-mix-thesis", "mixed", [
        S([U("我的毕业论文用 latexmk 编译太慢了，每次 40 多秒，看下 thesis/main.tex 和 .latexmkrc"),
           R("thesis/main.tex"), R("thesis/.latexmkrc"),
           A("慢主要在 TikZ：每次都重画 23 张图。可以用 externalize 把图缓存成 PDF，只有改过的图才重画。"),
           U("好的，那就这样"),
           E("thesis/.latexmkrc"), E("thesis/main.tex"),
           B("latexmk -xelatex main.tex", True, "Output written on main.pdf (86 pages).\nreal 0m17.4s"),
           A("把 TikZ 图改成 externalize 缓存后，增量编译从 43 秒降到 17 秒。参考文献用的是 biber，这个不用动。"
             "还有几个问题：中文字体现在依赖 macOS 自带的宋体，Linux 上编不了；插图目录里有几张图的标题太长，"
             "溢出页边距了；另外学校要求的 PDF/A 格式还没做。")],
          topic=["latexmk"], files=["thesis/main.tex"],
          todos=["Linux 上编不了", "标题太长，溢出页边距", "PDF/A 格式还没做"]),
        S([U("switch the fonts to Noto CJK so it builds in the CI container too"),
           E("thesis/style/fonts.tex"),
           B("docker run --rm -v $PWD:/w texlive/texlive latexmk -xelatex main.tex", True,
             "Output written on main.pdf (86 pages)."),
           A("Fonts are Noto Serif CJK SC / Noto Sans CJK SC now; the texlive Docker image builds the PDF."),
           U("add a GitHub Action that builds the PDF on push"),
           W(".github/workflows/thesis.yml"),
           B("act -j build", True, "Job succeeded"),
           A("Added; the PDF is uploaded as an artifact."),
           U("chktex warnings, clean them"),
           B("chktex thesis/main.tex", False, "47 warnings printed"),
           E("thesis/chapters/ch2.tex"),
           B("chktex thesis/main.tex", True, "0 warnings printed"),
           A("chktex is clean."),
           U("the list of figures entries"),
           E("thesis/chapters/ch3.tex"),
           B("latexmk -xelatex main.tex", True, "Output written on main.pdf (86 pages)."),
           A("I gave the chapter 3 figures short captions (`\\caption[short]{long}`); chapters 4 and 5 still "
             "have overlong entries in the list of figures."),
           U("ok"),
           A("Want me to do chapters 4 and 5 now?"),
           U("later. switch the bibliography to GB/T 7714-2015"),
           E("thesis/style/bib.tex"),
           B("latexmk -xelatex main.tex", True, "Output written on main.pdf (87 pages)."),
           A("Using biblatex-gb7714-2015 now; all 132 references render."),
           U("spell check the abstract"),
           R("thesis/chapters/abstract.tex"), E("thesis/chapters/abstract.tex"),
           A("Fixed two typos (\"robostness\", \"mehtod\")."),
           U("what does the school's checker need for the archival format?"),
           A("PDF/A-1b with all fonts embedded and XMP metadata. Not done yet — the `pdfx` package can do it "
             "once there's a .xmpdata file."),
           U("fine, that's it for today"),
           A("Today: Noto fonts (the CI container builds it), the GitHub Action, chktex clean, GB/T 7714 "
             "references. Still open: overlong figure captions in chapters 4–5, and the archival PDF.")],
          done=["Linux 上编不了"], traps=["标题太长，溢出页边距", "PDF/A 格式还没做"]),
        S([U("第四五章的图注我自己缩好了，你帮我把归档格式搞一下"),
           E("thesis/main.tex"), W("thesis/main.xmpdata"),
           B("latexmk -xelatex main.tex", True, "Output written on main.pdf (87 pages)."),
           B("verapdf --flavour 1b main.pdf", True, "PASS: 0 failed rules"),
           A("加了 pdfx 宏包和 main.xmpdata，veraPDF 按 PDF/A-1b 校验通过。")],
          done=["标题太长，溢出页边距", "PDF/A 格式还没做"]),
        END,
    ]),
    ("b13-mix-wasm", "mixed", [
        S([U("把图片滤镜从 JS 挪到 Rust 编译成 wasm，代码在 crates/filters/src/lib.rs，先做高斯模糊"),
           W("crates/filters/src/lib.rs"), W("web/src/filters.ts"),
           B("wasm-pack build --target web crates/filters", True, "[INFO]: :-) Your wasm pkg is ready to publish"),
           A("wasm 包编出来了，要跑一下基准对比吗？"),
           U("跑"),
           B("pnpm bench:blur", True, "js: 182ms  wasm: 41ms (4000x3000)"),
           U("继续，说下现在的情况"),
           A("高斯模糊现在走 wasm，4000x3000 的图从 182ms 降到 41ms。像素数据通过 wasm 的线性内存传，没有多余拷贝。"
             "还没做的：wasm 包有 1.9MB，没开 wasm-opt；Safari 15 不支持 wasm SIMD，会直接报错，应该要有个非 SIMD "
             "的 fallback；还有锐化和色阶两个滤镜还在 JS 里。")],
          topic=["wasm"], files=["crates/filters/src/lib.rs"],
          todos=["没开 wasm-opt", "非 SIMD 的 fallback", "锐化和色阶两个滤镜还在 JS 里"]),
        S([U("port sharpen to Rust"),
           E("crates/filters/src/lib.rs"), E("web/src/filters.ts"),
           B("wasm-pack build --target web crates/filters", True, "[INFO]: :-) Your wasm pkg is ready to publish"),
           B("pnpm test", True, "31 passed"),
           A("Sharpen (unsharp mask) runs in Rust now, 3.6x faster than the JS one. Levels is still JS."),
           U("shrink the release build"),
           E("crates/filters/Cargo.toml"), E("scripts/build-wasm.sh"),
           B("./scripts/build-wasm.sh --release && ls -lh pkg/*.wasm", True, "612K pkg/filters_bg.wasm"),
           A("Release builds now run the binaryen optimizer at -O3 and strip debug info: 1.9 MB → 612 KB."),
           U("Safari?"),
           A("Not yet — it still fails to instantiate on Safari 15.")],
          done=["没开 wasm-opt"], traps=["锐化和色阶两个滤镜还在 JS 里", "非 SIMD 的 fallback"],
          done_at={"没开 wasm-opt": 1}),
        S([U("继续"),
           E("crates/filters/src/lib.rs"), E("web/src/filters.ts"),
           B("wasm-pack build --target web crates/filters", True, "[INFO]: :-) Your wasm pkg is ready to publish"),
           B("pnpm test", True, "38 passed"),
           A("色阶也搬过去了，web/src/filters.ts 里旧的 JS 实现删掉了，测试通过。"),
           U("Safari 那个我昨天自己加了：build 出两个包，用 WebAssembly.validate 检测 SIMD 选一个，Safari 15 上测过能用"),
           R("web/src/filters.ts"),
           A("看了检测逻辑，没问题；不带 SIMD 的包在 Safari 上模糊大概慢 1.8 倍，可以接受。")],
          done=["锐化和色阶两个滤镜还在 JS 里", "非 SIMD 的 fallback"],
          done_at={"非 SIMD 的 fallback": 1}),
        END,
    ]),
]
