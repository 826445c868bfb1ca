"""To-do precision TUNING set (issue 20): sentences of a final report that leave NO open work but
look like open work to a naive rule — and, beside them, open work said as a state or indirectly.

Written on 2026-11-26 by the engineer of the precision rules, before changing them, in my own
phrasings (none taken from any bench set); the rules were then tuned against it, so every number
on it is an UPPER BOUND. ``bench/bench_todo_precision.py`` runs the offline capture on it directly.

NEGATIVES: ``(kind, lang, text)`` — nothing here is work left to do. Kinds: ``how`` (how the code
works now), ``result`` (a measured or tested result, "still passes"), ``pitfall`` (a trap already
fixed and written down), ``limit`` (an intended limit), ``cause`` (a past cause), ``choice`` (a
choice made), ``ask`` (a request to the person that is no code work), ``question`` (a question to
the person), ``summary`` (what was changed), ``fact`` (a caveat that is a fact).

POSITIVES: ``(lang, text, key)`` — open work said as a state or indirectly; ``key`` must be in one
captured to-do line.
"""

NEGATIVES = [
    # how the code works now
    ("how", "zh", "现在 parse_header() 会先把 key 统一转成小写，再去查映射表。"),
    ("how", "zh", "导出任务还是走原来的队列，只是多了一个优先级字段。"),
    ("how", "zh", "重试逻辑是指数退避，最多三次，间隔从 200ms 开始翻倍。"),
    ("how", "zh", "配置里的超时依旧从环境变量读，没有写进代码。"),
    ("how", "en", "The loader now reads the manifest once and keeps it in a module-level dict."),
    ("how", "en", "Requests without a token still go through the public rate limiter, which is by design."),
    ("how", "en", "render_table() converts every cell to a string first and then pads it to the column width."),
    ("how", "en", "The cron job still runs at 03:00 UTC; I only changed what it deletes."),
    ("how", "mixed", "sync_worker 里 batch size 还是 500，commit 之后才 ack 消息。"),
    # results
    ("result", "zh", "改完之后 p95 仍然在 35ms 以内，和之前差不多。"),
    ("result", "zh", "全量测试跑了一遍，还是 128 个全过。"),
    ("result", "zh", "旧的导入脚本照样能跑，输出和原来一致。"),
    ("result", "en", "The full suite still passes: 212 tests, 0 failures."),
    ("result", "en", "Memory use stays flat at about 180 MB after the change."),
    ("result", "en", "The old CSV files still import cleanly with the new parser."),
    ("result", "mixed", "benchmark 跑了三次，throughput 还是稳定在 4.2k req/s 左右。"),
    # a pitfall already fixed and recorded
    ("pitfall", "zh", "踩坑记录：mock 的时间没设时区，CI 上照样全绿，本地一跑就错，已经改成 UTC 了。"),
    ("pitfall", "zh", "这里有个坑提一下：缓存 key 没带版本号时，旧数据照样会被读出来，现在 key 里已经带上版本了。"),
    ("pitfall", "zh", "记一笔：fixture 之前共用一个临时目录，测试顺序一变就互相覆盖，已经拆开了。"),
    ("pitfall", "en", "Gotcha worth writing down: the linter still passed while the import was wrong, because the file was excluded; I removed the exclusion."),
    ("pitfall", "en", "Lesson learned: the retry wrapper swallowed the timeout, so the job looked successful even when it hung. It re-raises now."),
    ("pitfall", "en", "Note for the record: a stale lock file made every second run fail; the cleanup step deletes it first now."),
    ("pitfall", "mixed", "这个坑记一下：pytest 的 -k 过滤写错时也照样 exit 0，我在脚本里加了收集数量的检查。"),
    # an intended limit
    ("limit", "zh", "这次只处理了 CSV，Excel 格式按约定不在这个需求范围内。"),
    ("limit", "zh", "分页上限故意定在 200 条，避免一次拉太多。"),
    ("limit", "zh", "好，记下了，这一版先不动日志格式。"),
    ("limit", "zh", "按你说的，这次不碰支付模块。"),
    ("limit", "en", "The exporter only handles UTF-8 input; that was the agreed scope for this ticket."),
    ("limit", "en", "I left the legacy endpoint untouched on purpose, since the mobile app still calls it."),
    ("limit", "en", "Okay, noted — we leave the schema alone this time."),
    ("limit", "mixed", "webhook 目前只支持 POST，这是 spec 里定好的。"),
    # a past cause
    ("cause", "zh", "之前报错是因为连接池太小，高峰期拿不到连接。"),
    ("cause", "zh", "原来页面白屏是打包时把 polyfill 漏掉了，补上后正常。"),
    ("cause", "zh", "那次超时的原因是 DNS 解析卡住，和代码无关。"),
    ("cause", "en", "The crash came from a None being passed where the parser expected a list."),
    ("cause", "en", "The flaky failures were caused by two tests sharing one port."),
    ("cause", "en", "It was broken because the migration ran before the table existed."),
    ("cause", "mixed", "之前 build 失败是因为 node 版本不对，CI 里已经 pin 到 20 了。"),
    # a choice
    ("choice", "zh", "最后选了 SQLite，没有上 Postgres，单机够用。"),
    ("choice", "zh", "序列化用了 msgpack 而不是 JSON，体积小一半。"),
    ("choice", "en", "I went with a plain dict instead of a dataclass, since the keys vary per provider."),
    ("choice", "en", "We kept the synchronous client rather than switching to asyncio."),
    ("choice", "mixed", "时间格式统一用 ISO 8601，不再混用 epoch。"),
    # a request to the person that is not code work
    ("ask", "zh", "生产库我这边没权限，得麻烦你那边看一下结果。"),
    ("ask", "zh", "测试账号我登录不了，需要你在浏览器里点一下确认。"),
    ("ask", "zh", "内网的 Grafana 我访问不到，你有空帮我截个图就行。"),
    ("ask", "en", "I can't reach the staging VPN from here, so you'll need to run the smoke test on your side."),
    ("ask", "en", "Please try it in your browser and tell me if the layout looks right."),
    ("ask", "mixed", "我这边没有 Apple 开发者账号，签名那步得你来点。"),
    # a question to the person
    ("question", "zh", "要不要顺便把旧的 v1 接口也下掉？"),
    ("question", "zh", "你看阈值设成 5% 合适吗"),
    ("question", "en", "Do you want me to also bump the minimum Python version?"),
    ("question", "en", "Should the cache be per-user or shared across the workspace?"),
    # a summary of what was changed
    ("summary", "zh", "改了三个地方：路由表、权限中间件和对应的单测。"),
    ("summary", "zh", "把写死的超时改成读配置，默认 30 秒。"),
    ("summary", "zh", "缺的两条索引已经补上，查询计划也确认走索引了。"),
    ("summary", "en", "Replaced the hard-coded region with a setting and added a test for it."),
    ("summary", "en", "Added the missing null check in normalize() and a regression test."),
    ("summary", "en", "The untested branch in merge_rows() now has two tests."),
    ("summary", "mixed", "把 flaky 的 test_upload 改成用固定 seed，连跑 50 次都过。"),
    # caveats that are facts
    ("fact", "zh", "注意这个接口在数据为空时返回的是 204，不是 404。"),
    ("fact", "zh", "第三方 SDK 本身不支持代理，这一点文档里写了。"),
    ("fact", "zh", "冷启动第一次请求会慢一点，大概 1 秒，之后就正常了。"),
    ("fact", "en", "Heads up: the API returns amounts in cents, not dollars."),
    ("fact", "en", "The upstream library does not support Windows paths, which is documented in their README."),
    ("fact", "en", "The first run after install is slower because the model downloads once."),
    ("fact", "mixed", "macOS 上 inotify 不可用，watcher 会自动退回轮询，这是预期行为。"),
]

POSITIVES = [
    ("zh", "离线模式下的同步还没做，断网时改动会丢。", "离线模式"),
    ("zh", "批量删除接口目前没有权限校验。", "权限校验"),
    ("zh", "导出的 Excel 里日期列还是字符串格式。", "日期列"),
    ("zh", "短信验证码的发送频率限制写死在代码里了。", "频率限制"),
    ("zh", "深色主题下按钮的文字看不清。", "按钮"),
    ("zh", "回滚脚本完全没测过。", "回滚脚本"),
    ("zh", "搜索框目前只认拼音全拼，简拼搜不到。", "搜索框"),
    ("zh", "上线前得把调试日志的开关关掉。", "调试日志"),
    ("zh", "有空的话把这几个 SQL 挪到 repository 层。", "repository"),
    ("zh", "订单表的归档任务缺一个失败告警。", "失败告警"),
    ("zh", "iOS 端的推送还是用的旧证书。", "旧证书"),
    ("zh", "大文件上传偶尔会超时，原因还没查清楚。", "大文件上传"),
    ("zh", "多语言里日文的翻译缺了一半。", "日文"),
    ("zh", "报表页在 Safari 上样式是错的。", "Safari"),
    ("zh", "用户注销后 token 仍然有效，这个要处理。", "token"),
    ("en", "The invoice PDF is missing the VAT number.", "VAT number"),
    ("en", "Password reset emails are still sent from the old domain.", "old domain"),
    ("en", "The Helm chart has no resource limits yet.", "resource limits"),
    ("en", "Bulk import doesn't validate the email column.", "email column"),
    ("en", "The retry queue is untested under load.", "retry queue"),
    ("en", "The webhook secret is hard-coded in settings.py.", "webhook secret"),
    ("en", "Someone should look at why the nightly backup job takes two hours.", "backup job"),
    ("en", "The audit log currently only records logins, not permission changes.", "audit log"),
    ("en", "The Android build still targets API level 30.", "API level"),
    ("en", "We'll want rate limiting on the public search endpoint before launch.", "rate limiting"),
    ("en", "The French translation of the onboarding screens is out of date.", "French translation"),
    ("en", "Error messages from the payment form aren't localized.", "payment form"),
    ("en", "The CSV export breaks on names with commas in them.", "CSV export"),
    ("en", "Eventually the thumbnail generation should move to a worker.", "thumbnail"),
    ("en", "The admin dashboard crashes when a user has no orders.", "admin dashboard"),
    ("mixed", "config loader 还不支持 YAML anchors。", "YAML"),
    ("mixed", "Dockerfile 里 base image 还是 python:3.9。", "base image"),
    ("mixed", "metrics endpoint 目前没有鉴权，后面要补。", "metrics endpoint"),
    ("mixed", "e2e 测试在 CI 上偶尔会挂，还没定位。", "e2e"),
]
