"""The eighth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind9``, from b220a29) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, scripts/code_memory/text/lexicon.py, docs/summaries.md, the
Handover sections of BENCHMARKS.md) nor the scenarios of the earlier sets (``handover_tuning_set.py``,
``handover_closing_set.py``, ``handover_closing_heldout.py`` … ``handover_closing_heldout7.py``,
``handover_capture_set.py``, ``handover_capture2_set.py``, ``handover_traps_set.py``,
``handover_progress_set.py``, ``handover_wrongs_set.py``, ``handover_bilingual_set.py``) beyond their
docstrings and first scenario. It judges the rules of round 6 afterwards, beside
``handover_closing_heldout7.py``. Do not read its scenarios or its misses to change a rule — when it
has been read, write a new set instead.

14 projects, 3–4 sessions each (54 transcripts, 8 of them short) plus a last start: 6 Chinese, 6 English, 2 mixed (a Chinese speaker
with English code and terms, switching language between sessions). Domains, away from the earlier
sets': MinIO image thumbnails in Go, a Scrapy job-listing crawler, KEDA autoscaling on RabbitMQ queue
length, an XGBoost credit score, yearly expiry of loyalty points (Spring, Redisson), a CH32V003 LED
dimmer, a Unity lobby, an oclif scaffolding CLI, a Nextra docs site, magic-link login in Express,
CloudKit offline sync of an iOS app, an ECS service on Pulumi, an ONNX Runtime export with INT8
quantization, a pandas-to-Polars daily report.

- 37 open to-dos planted (16 Chinese, 17 English, 4 mixed — all stated in Chinese), stated as a
  state ("写死在 4", "明文写在", "口径不一致", "目前只支持单机", "断电后…不会记住", "is hard-coded",
  "fails silently", "only been checked on macOS", "doesn't exist", "has no retention", "can be used more
  than once"), as an indirect or hedged wish ("回头…", "有空的话…", "可能还得…不过不确定", "it'd be nice
  to…", "we should probably…", "at some point we should…"), in numbered or bulleted lists of what is
  left, in the person's own prompt ("弄完提醒我…", "after this, remind me to…"), and embedded in a
  longer report.
- 32 of them finished later in other words (14 Chinese, 14 English, 4 mixed, 2 of them in the other
  language): a synonym, a report with numbers, the person saying they did it (also in a short
  session), a request and work that passes, evidence alone (a bare "continue" / "继续" then the work
  and a passing run), a bulleted status list.
- 23 traps (``traps`` on a session: an open to-do that session must NOT close; 10 Chinese, 10
  English, 3 mixed): other work in the to-do's own area (the same file, worker, page or stack) with
  a sibling finished; half-done reports; failing runs; "not yet" / "还没" answers to a question; a
  report that puts it next; put off again.
- Each project's first session plants its topic and main file.
- Most work sessions' final reports also hold 1–3 sentences that look like open work to a naive rule
  but are not: how the code works now, a result, a handled pitfall, an intended limit ("这是故意的",
  "on purpose", "that's intended", "that's fine for beta"), a number measured, a restatement of a
  still-open to-do in new words (which must stay one open to-do).

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``R``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout8`` runs it (scoring as for
``closing-heldout7``; ``spurious_todos`` counts the ``[ ]`` lines at a scored start that hold no
planted to-do of the project).

BASELINE — unchanged main (the rules of b220a29, the worktree's own scripts; the set as of commit
c590427), ``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout8 --json OUT``,
offline summarizer, 2026-11-26 15:07 UTC, load average 5.09 at the start and 1.69 at the end (2
shared cores), 138 s: open to-dos captured (on a ``[ ]`` line of the next start) 34/35 scored (2 of
the 37 are finished before the next scored start, so only their closing counts; Chinese 14/15,
English 16/16, mixed 4/4); finished to-dos still shown 15/32; closes right 13, missed 15, wrong 3;
traps held 19, sprung 3, untested 1 (its to-do was never captured); spurious to-dos 12 of 95 ``[ ]``
lines at the scored starts; topics 14/14; files 14/14; leaks 0; false decisions 0; start context
p50 5,997 characters (max 5,998); SessionStart p50 47.1 ms.
done_at (round 9): the turn of a multi-turn session that finishes a planted to-do, annotated
by an engineer who writes no rules, counts only reported.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

SCENARIOS = [
    ("b9-zh-thumb", "zh", [
        S([U("图片上传到 MinIO 以后要生成缩略图，帮我在 internal/thumb/worker.go 里写个 worker"),
           W("internal/thumb/worker.go"), W("internal/thumb/resize.go"),
           B("go test ./internal/thumb/...", True, "ok  \timgsvc/internal/thumb\t0.62s"),
           A("缩略图 worker 写好了：监听 MinIO 的 bucket 通知，生成 200px 和 800px 两档 WebP，测试都过了。"
             "原图超过 50MB 会直接跳过，这是故意的，防止把内存打满。目前 GIF 只取第一帧，动图缩略图还没做；"
             "另外 worker 的并发数写死在 4 了，回头改成从配置读。")],
          topic=["缩略图"], files=["internal/thumb/worker.go"], todos=["动图缩略图还没做", "并发数写死在 4"]),
        S([U("并发数那个改一下，放到 config.yaml 里。弄完提醒我把 CDN 上旧的缩略图缓存刷掉"),
           E("internal/thumb/worker.go"), E("config.yaml"),
           B("go test ./internal/thumb/...", True, "ok  \timgsvc/internal/thumb\t0.58s"),
           A("worker 的并发现在读 config.yaml 里的 thumb.workers，默认还是 4，改完重启生效。顺手把 worker.go 里"
             "重复打印的错误日志合并成了一条。GIF 这边还是只取第一帧。之前偶发的空指针是 bucket 通知里 key 带了"
             " URL 编码，已经先解码再处理了。")],
          todos=["CDN 上旧的缩略图缓存刷掉"], done=["并发数写死在 4"], traps=["动图缩略图还没做"]),
        S([U("动图那个下次再说，这周先把 WebP 质量调一下，现在看着有点糊"),
           E("internal/thumb/resize.go"), B("go test ./internal/thumb/...", True, "ok"),
           A("WebP 质量从 75 提到了 85，文件平均大了 18%，清晰度肉眼可见好了。动图缩略图按你说的先不动。")],
          traps=["动图缩略图还没做"]),
        S([U("CDN 那边我已经手动刷过了。今天把 GIF 动图也支持一下吧"),
           E("internal/thumb/resize.go"), W("internal/thumb/testdata/spinner.gif"),
           B("go test ./internal/thumb/...", True, "ok  \timgsvc/internal/thumb\t1.93s"),
           A("GIF 现在逐帧缩放后输出成动画 WebP，帧间隔保留原样；一个 120 帧的测试图 0.8 秒处理完，测试都过了。")],
          done=["动图缩略图还没做", "CDN 上旧的缩略图缓存刷掉"]),
        END,
    ]),
    ("b9-zh-crawler", "zh", [
        S([U("用 Scrapy 写个爬虫抓招聘站上的 Python 岗位，spider 放在 jobs/spiders/listing.py"),
           W("jobs/spiders/listing.py"), W("jobs/pipelines.py"),
           B("scrapy crawl listing -s CLOSESPIDER_PAGECOUNT=5", True, "'item_scraped_count': 212"),
           A("listing 爬虫能跑了，5 页抓到 212 条岗位，薪资统一成了月薪区间。入库按 job_id 去重，重复抓不会多出记录。"
             "还剩几件事：\n1. 详情页的福利标签还没抓\n2. 没有代理池，跑久了会被封 IP\n"
             "3. 城市字段有的带区名有的不带，得归一化")],
          topic=["Python 岗位"], files=["jobs/spiders/listing.py"],
          todos=["福利标签还没抓", "没有代理池", "城市字段有的带区名"]),
        S([U("先把城市归一化做了"),
           E("jobs/pipelines.py"), W("jobs/cities.py"),
           B("pytest tests/test_pipelines.py -q", True, "9 passed"),
           A("城市现在统一到地级市：“北京朝阳”和“北京市”都映射成“北京”，对照表在 jobs/cities.py，9 个测试都过了。"
             "代理池下一步再弄。福利标签我看了下详情页，是 JS 渲染的，还没开始抓。")],
          done=["城市字段有的带区名"], traps=["没有代理池", "福利标签还没抓"]),
        S([U("继续"),
           W("jobs/proxy_pool.py"), E("jobs/middlewares.py"),
           B("scrapy crawl listing -s CLOSESPIDER_PAGECOUNT=50", True, "'item_scraped_count': 2104, 'ban_count': 0"),
           A("代理中间件接好了：每个请求随机挑一个代理，连续失败 3 次就把它踢出去。50 页跑完 2104 条，0 次被封。")],
          done=["没有代理池"]),
        S([U("福利标签那个弄了吗？"), A("还没有，详情页是 JS 渲染的，得先接 scrapy-playwright。")], light=True,
          traps=["福利标签还没抓"]),
        END,
    ]),
    ("b9-zh-keda", "zh", [
        S([U("队列消费者高峰期老是积压，想用 KEDA 按 RabbitMQ 队列长度扩缩容，配置放 deploy/keda/scaledobject.yaml"),
           W("deploy/keda/scaledobject.yaml"),
           B("kubectl apply --dry-run=server -f deploy/keda/", True, "scaledobject.keda.sh/consumer created (server dry run)"),
           A("ScaledObject 写好了：队列里每 500 条加一个副本，最少 2 个最多 20 个。冷却时间 300 秒，这是故意的，"
             "免得来回抖。现在只在 staging 集群验证过，生产还没上。另外 RabbitMQ 的密码是明文写在 "
             "TriggerAuthentication 里的，应该改成从 Secret 读。")],
          topic=["KEDA"], files=["deploy/keda/scaledobject.yaml"], todos=["生产还没上", "密码是明文写在"]),
        S([U("密码那个改成走 Secret"),
           E("deploy/keda/scaledobject.yaml"), W("deploy/keda/secret.yaml"),
           B("kubectl apply -f deploy/keda/ --context staging", True, "triggerauthentication.keda.sh/rabbitmq-auth configured"),
           A("TriggerAuthentication 现在用 secretTargetRef 引用 rabbitmq-auth 这个 Secret，yaml 里的明文删掉了，"
             "staging 上扩容照常。生产你说要等周四的变更窗口，我先不动。")],
          done=["密码是明文写在"], traps=["生产还没上"]),
        S([U("在 staging 压一下，看扩得够不够快"),
           B("python loadgen.py --rate 2000 --minutes 10", True, "queue peak 38211, replicas max 14"),
           A("压了 10 分钟：队列最高 3.8 万，90 秒内扩到 14 个副本，6 分钟把积压清空，扩容速度够用。缩容时正在处理的"
             "消息会被 SIGTERM 打断后重新入队，不会丢。可能还得给消费者加个 preStop 钩子，不过不确定有没有必要。")],
          todos=["加个 preStop 钩子"]),
        S([U("周四已经上生产了，跑了两天没问题。preStop 我也顺手加上了，sleep 15 秒。"),
           A("好的，那 KEDA 这块就齐了。")], light=True, done=["生产还没上", "加个 preStop 钩子"]),
        END,
    ]),
    ("b9-zh-credit", "zh", [
        S([U("信用评分模型想从逻辑回归换成 XGBoost，训练脚本在 model/train_xgb.py"),
           W("model/train_xgb.py"),
           B("python model/train_xgb.py", True, "best_iteration=412 valid AUC 0.781 KS 0.43"),
           A("XGBoost 训好了，验证集 AUC 0.781，比逻辑回归高 0.03，KS 0.43，早停在第 412 轮。现在的问题是：特征里的"
             "“近 30 天查询次数”训练集和线上口径不一致，得先对齐；模型也还没做分箱稳定性（PSI）检查。"
             "有空的话可以再试试 LightGBM 对比一下。")],
          topic=["XGBoost"], files=["model/train_xgb.py"],
          todos=["口径不一致", "还没做分箱稳定性", "试试 LightGBM 对比"]),
        S([U("PSI 跑一下"),
           W("model/psi.py"), E("model/train_xgb.py"),
           B("python model/psi.py --split valid", True, "max PSI 0.31 (inq_30d)"),
           A("PSI 脚本写好了，不过只算了训练集对验证集，跨月的 PSI 还没跑，要等数据组导出线上样本。目前最大的 PSI 是 "
             "inq_30d 的 0.31，应该和查询次数的口径问题是同一个原因。其余特征都在 0.05 以下。")],
          traps=["还没做分箱稳定性", "口径不一致"]),
        S([U("数据组给了线上口径，我已经把 inq_30d 在特征表里改成跟线上一致了，你重训一下，顺便把跨月的也跑了"),
           E("model/train_xgb.py"),
           B("python model/train_xgb.py && python model/psi.py --months 6", True,
             "valid AUC 0.776 KS 0.42\nmonthly max PSI 0.08"),
           A("按新口径重训，AUC 0.776，略降是正常的，之前那个特征有点穿越。6 个月的跨月 PSI 也跑完了，最大 0.08，"
             "都在 0.1 以内。")],
          done=["口径不一致", "还没做分箱稳定性"]),
        END,
    ]),
    ("b9-zh-points", "zh", [
        S([U("会员积分要做年度过期，每年 12 月 31 日清掉上一年的积分，逻辑写在 points/ExpireJob.java"),
           W("points/ExpireJob.java"), E("points/PointsLedger.java"),
           B("mvn -q test", True, "Tests run: 18, Failures: 0, Errors: 0"),
           A("过期任务写好了：按年生成负向流水，不直接改余额，所以对账能对得上。每批处理 1000 个用户。任务现在是单机跑的，"
             "目前只支持单机，多实例部署会重复扣。过期前 7 天的短信提醒还没接。")],
          topic=["积分"], files=["points/ExpireJob.java"], todos=["目前只支持单机", "短信提醒还没接"]),
        S([U("加个分布式锁，用 Redisson"),
           E("points/ExpireJob.java"), B("mvn -q test", True, "Tests run: 21, Failures: 0, Errors: 0"),
           A("ExpireJob 启动时先抢 Redisson 锁 points:expire:{year}，抢不到就直接退出；测试里模拟了两个实例同时起，"
             "只有一个执行。锁超时 2 小时，50 万用户实测 41 分钟跑完。")],
          done=["目前只支持单机"]),
        S([U("短信提醒先别做了，运营说可能改成站内信。先把过期流水的备注改成中文"),
           E("points/PointsLedger.java"), B("mvn -q test", True, "Tests run: 21, Failures: 0, Errors: 0"),
           A("过期流水的备注现在是“积分年度过期”。过期提醒按你说的先放着。")],
          traps=["短信提醒还没接"]),
        S([U("运营定了用站内信。过期前 7 天的提醒做一下，模板 ID 是 notice_points_expire"),
           W("points/ExpireNoticeJob.java"), B("mvn -q test", True, "Tests run: 24, Failures: 0, Errors: 0"),
           A("过期提醒接好了：过期前 7 天给还有积分的用户发站内信，模板 notice_points_expire，测试环境 3 个账号都收到了。")],
          done=["短信提醒还没接"]),
        END,
    ]),
    ("b9-zh-dimmer", "zh", [
        S([U("用 CH32V003 做个 LED 调光器，PWM 写在 src/pwm.c，旋钮走 ADC"),
           W("src/pwm.c"), W("src/main.c"), B("make", True, "   text\t   data\t    bss\n   3120\t     12\t    148"),
           A("PWM 调光跑通了：TIM1 输出 20kHz，旋钮 ADC 10 位映射到 0–100% 占空比，低于 2% 直接关断，这是故意的，"
             "避免闪。固件 3120 字节，16K Flash 还很宽裕。还有两点：亮度曲线现在是线性的，低亮度段人眼看着跳得厉害，"
             "回头加个 gamma 校正；断电后亮度不会记住。")],
          topic=["调光"], files=["src/pwm.c"], todos=["加个 gamma 校正", "断电后亮度不会记住"]),
        S([U("曲线那个弄一下"),
           E("src/pwm.c"), W("src/gamma_table.h"), B("make", True, "   text\n   3380"),
           A("pwm.c 里加了 256 项 gamma 2.2 查找表，低亮度段顺多了，固件涨到 3380 字节。")],
          done=["加个 gamma 校正"]),
        S([U("断电记忆做了没"), A("还没，CH32V003 没有 EEPROM，得拿 Flash 最后一页来模拟，我下次做。")],
          light=True, traps=["断电后亮度不会记住"]),
        S([U("继续"),
           W("src/flash_store.c"), E("src/main.c"), B("make && make flash", True, "Verify OK"),
           A("亮度停止变化 2 秒后写进 Flash 最后一页，上电时读回来；拔电测了 5 次，都恢复到原来的亮度。")],
          done=["断电后亮度不会记住"]),
        END,
    ]),
    ("b9-en-lobby", "en", [
        S([U("We need a lobby for our Unity game — players create or join rooms. Start in "
             "Assets/Scripts/Lobby/LobbyManager.cs"),
           W("Assets/Scripts/Lobby/LobbyManager.cs"), W("Assets/Scripts/Lobby/RoomList.cs"),
           B("unity -batchmode -runTests -testPlatform EditMode", True, "Passed: 23 Failed: 0"),
           A("LobbyManager can create, list and join rooms through Unity Lobby; 23 edit-mode tests pass. Rooms expire "
             "after 30 seconds without a heartbeat, which is what the service expects. Two things remain: when the "
             "host leaves, the lobby doesn't migrate the room — it just dies; and the room list only refreshes when "
             "you press the button, so it'd be nice to poll it every few seconds.")],
          topic=["lobby"], files=["Assets/Scripts/Lobby/LobbyManager.cs"],
          todos=["doesn't migrate the room", "poll it every few seconds"]),
        S([U("do the auto refresh"),
           E("Assets/Scripts/Lobby/RoomList.cs"),
           B("unity -batchmode -runTests -testPlatform EditMode", True, "Passed: 25 Failed: 0"),
           A("The room list now refreshes itself every 5 seconds while the lobby screen is open and stops when it's "
             "hidden, which keeps us under the 1 query/second rate limit. 25 tests pass. Host handover is the next "
             "thing to tackle.")],
          done=["poll it every few seconds"], traps=["doesn't migrate the room"]),
        S([U("ok, host migration now"),
           E("Assets/Scripts/Lobby/LobbyManager.cs"),
           B("unity -batchmode -runTests -testPlatform EditMode", False,
             "Passed: 25 Failed: 2\nHostLeave_PromotesOldestPlayer: relay allocation was null"),
           A("I wired up promotion of the oldest player to host, but two tests fail: the new host never gets a relay "
             "allocation, so the others can't reconnect. Not working yet.")],
          traps=["doesn't migrate the room"]),
        S([U("continue"),
           E("Assets/Scripts/Lobby/LobbyManager.cs"),
           B("unity -batchmode -runTests -testPlatform EditMode", True, "Passed: 27 Failed: 0"),
           A("Fixed: the promoted player requests a fresh relay allocation and the others rejoin through its join "
             "code. All 27 tests pass, including HostLeave_PromotesOldestPlayer.")],
          done=["doesn't migrate the room"]),
        END,
    ]),
    ("b9-en-mkapp", "en", [
        S([U("Build a scaffolding CLI with oclif: `mkapp new <name>` copies a template. The command goes in "
             "src/commands/new.ts"),
           W("src/commands/new.ts"), W("templates/basic/package.json"), B("npm test", True, "12 passing (1s)"),
           A("`mkapp new` works: it copies templates/basic, replaces {{name}} in every file and runs git init; 12 tests "
             "pass. It refuses to overwrite an existing directory, on purpose. Still open:\n"
             "- `--template` only takes the bundled ones, no git URLs yet\n"
             "- there's no Windows CI, and path handling has only been checked on macOS\n"
             "- the README still documents the old bash script")],
          topic=["scaffolding CLI"], files=["src/commands/new.ts"],
          todos=["no git URLs yet", "only been checked on macOS", "README still documents the old bash script"]),
        S([U("I rewrote the README myself this morning. Can you make --template accept a repo link?"),
           E("src/commands/new.ts"), W("src/fetch-template.ts"), B("npm test", True, "17 passing (3s)"),
           A("`--template` now also takes a git remote (shallow clone into a temp dir, then copied like a bundled "
             "template); 17 tests pass. Private repos use whatever git credentials you have, that's intended.")],
          done=["README still documents the old bash script", "no git URLs yet"]),
        S([U("add a windows job to CI"),
           E(".github/workflows/ci.yml"), E("src/commands/new.ts"),
           B("act -j test-windows", False, "Error: EPERM: operation not permitted, rename 'C:\\tmp\\mkapp-x1'"),
           A("Added a windows-latest job and normalized the temp path in new.ts, but the job fails: the copy hits "
             "EPERM on Windows while git init still holds the directory. Not fixed yet.")],
          traps=["only been checked on macOS"]),
        S([U("The Windows job went green after I bumped fs-extra — merged."), A("Nice, thanks for letting me know.")],
          light=True, done=["only been checked on macOS"]),
        END,
    ]),
    ("b9-en-nextra", "en", [
        S([U("Move our docs to a Nextra site. Pages go under docs-site/pages, theme config in docs-site/theme.config.tsx"),
           W("docs-site/theme.config.tsx"), W("docs-site/pages/_meta.json"), W("docs-site/pages/v1.mdx"),
           B("npm run build", True, "Generated 64 static pages"),
           A("The Nextra site builds: 64 pages, sidebar generated from _meta.json, code blocks highlighted as before. "
             "Not done: the old /v1/* URLs don't redirect anywhere yet. Search is the built-in FlexSearch — we should "
             "probably check it handles the API reference pages, which are huge. Also the 1.x docs are hard-coded "
             "into one page (v1.mdx) rather than being a real version switch.")],
          topic=["Nextra"], files=["docs-site/theme.config.tsx"],
          todos=["don't redirect anywhere yet", "check it handles the API reference", "hard-coded into one page"]),
        S([U("redirects please"),
           E("docs-site/next.config.js"), B("npm run build", True, "Generated 64 static pages"),
           A("Mapped the guides: 41 /v1/guide/* URLs now 301 to their new paths. The API pages aren't mapped yet — "
             "their slugs changed shape, so I need a mapping table from you.")],
          traps=["don't redirect anywhere yet"]),
        S([U("here's the table (api-slugs.csv), finish the redirects. Also fix the typo in the v1 page title"),
           E("docs-site/next.config.js"), W("docs-site/scripts/gen-redirects.mjs"), E("docs-site/pages/v1.mdx"),
           B("npm run build && npx linkinator out --recurse", True, "Scanned 1893 links, 0 broken, 118 redirects"),
           A("Every old URL now lands somewhere: 118 permanent redirects (the 41 guide rules plus 77 generated from "
             "api-slugs.csv), and linkinator finds 0 broken links. The v1 page title typo is fixed. The v1 page is "
             "still one big file, as before.")],
          done=["don't redirect anywhere yet"], traps=["hard-coded into one page"]),
        S([U("FYI I tried search on the big API reference pages myself — it's fine once code blocks are excluded "
             "from the index, I pushed that."), A("Good to know.")],
          light=True, done=["check it handles the API reference"]),
        END,
    ]),
    ("b9-en-magiclink", "en", [
        S([U("Add magic-link email login to our Express app. The route lives in src/auth/magicLink.ts"),
           W("src/auth/magicLink.ts"), E("src/app.ts"), B("npm test -- auth", True, "8 passing"),
           A("Magic links work: POST /auth/magic emails a signed token that expires in 15 minutes, and GET "
             "/auth/magic/verify logs you in. The response is the same whether or not the email exists, so it "
             "doesn't leak accounts. Left for later: a token can be used more than once until it expires, and there's "
             "no rate limit on the send endpoint. The email is plain text for now, that's fine for beta.")],
          topic=["magic-link"], files=["src/auth/magicLink.ts"],
          todos=["used more than once", "no rate limit on the send endpoint"]),
        S([U("make the tokens single-use"),
           E("src/auth/magicLink.ts"), W("migrations/004_used_tokens.sql"), B("npm test -- auth", True, "11 passing"),
           A("Each token's jti is recorded when it's redeemed, so a second click gets 410 Gone; 11 tests pass. "
             "Anyone can still hit the send endpoint as often as they like.")],
          done=["used more than once"], traps=["no rate limit on the send endpoint"]),
        S([U("throttle the link emails, 5 per hour per address. After this, remind me to rotate the signing "
             "secret on staging"),
           E("src/auth/magicLink.ts"), W("src/auth/throttle.ts"), B("npm test -- auth", True, "14 passing"),
           A("Sending is now capped at 5 per address per hour (and 30 per IP), counted in Redis; the 6th request gets "
             "429 with Retry-After. 14 tests pass.")],
          todos=["rotate the signing secret"], done=["no rate limit on the send endpoint"]),
        S([U("signing key on staging is swapped, all good"), A("Great.")], light=True,
          done=["rotate the signing secret"]),
        END,
    ]),
    ("b9-en-cloudsync", "en", [
        S([U("Our iOS notes app needs offline sync through CloudKit. Start with Sources/Sync/SyncEngine.swift"),
           W("Sources/Sync/SyncEngine.swift"), W("Sources/Sync/ConflictResolver.swift"),
           B("xcodebuild test -scheme Notes", True, "Executed 31 tests, with 0 failures"),
           A("SyncEngine pushes local changes through NSPersistentCloudKitContainer and pulls on launch and on remote "
             "notifications; 31 tests pass. Conflicts resolve last-writer-wins by modification date, which is "
             "intended for notes. What I couldn't finish: attachments over 1 MB aren't synced at all, and when sync "
             "breaks it fails silently — the user never sees an error. At some point we should also migrate the old "
             "Realm data.")],
          topic=["offline sync"], files=["Sources/Sync/SyncEngine.swift"],
          todos=["attachments over 1 MB", "fails silently", "migrate the old Realm data"]),
        S([U("surface sync failures in the UI"),
           E("Sources/Sync/SyncEngine.swift"), W("Sources/UI/SyncBanner.swift"),
           B("xcodebuild test -scheme Notes", True, "Executed 34 tests, with 0 failures"),
           A("A banner now says \"Couldn't sync — tap to retry\" when an export or import fails, and clears on the "
             "next success; 34 tests pass. On large attachments: CKAsset can carry them, but I haven't changed the "
             "model yet.")],
          done=["fails silently"], traps=["attachments over 1 MB"]),
        S([U("big attachments next, go"),
           E("Sources/Sync/SyncEngine.swift"), E("Sources/Model/Notes.xcdatamodeld/contents"),
           B("xcodebuild test -scheme Notes", False, "testLargeAttachmentRoundTrip: CKError quotaExceeded"),
           A("Moved attachment bytes to an external-storage attribute so they go up as a CKAsset. The round-trip "
             "test fails with quotaExceeded — the dev container is full — so it's unverified.")],
          traps=["attachments over 1 MB"]),
        S([U("I cleared the dev container quota. continue"),
           B("xcodebuild test -scheme Notes", True, "Executed 36 tests, with 0 failures"),
           A("Re-ran: testLargeAttachmentRoundTrip passes with a 12 MB PDF, and all 36 tests pass.")],
          done=["attachments over 1 MB"]),
        END,
    ]),
    ("b9-en-pulumi", "en", [
        S([U("Port our ECS service infra to Pulumi in TypeScript. Stack code in infra/index.ts"),
           W("infra/index.ts"), W("infra/alb.ts"),
           B("pulumi preview --stack staging", True, "Resources:\n    + 23 to create"),
           A("The staging stack previews cleanly: 23 resources (VPC, ALB, ECS service, task definition, log group). "
             "Preview only — nothing is deployed, which is what you asked. Still to do: the TLS cert ARN is "
             "hard-coded in alb.ts; the prod stack config doesn't exist yet; and the log group has no retention, so "
             "logs pile up forever.")],
          topic=["Pulumi"], files=["infra/index.ts"],
          todos=["TLS cert ARN is hard-coded", "prod stack config doesn't exist", "log group has no retention"]),
        S([U("set logs to expire after 30 days and look the certificate up by domain"),
           E("infra/index.ts"), E("infra/alb.ts"),
           B("pulumi preview --stack staging", True, "Resources:\n    ~ 2 to update"),
           A("Status:\n- log expiry: done, 30 days\n- certificate: looked up with aws.acm.getCertificate by domain, "
             "no ARN in the code any more\n- prod stack: not started")],
          done=["TLS cert ARN is hard-coded", "log group has no retention"], traps=["prod stack config doesn't exist"]),
        S([U("deploy staging"),
           B("pulumi up --stack staging --yes", True, "Resources:\n    + 23 created\nDuration: 6m12s"),
           A("Staging is up: 23 resources created in 6 minutes, and the service answers 200 on the ALB. The prod "
             "stack comes next, once you give me the account ID.")],
          traps=["prod stack config doesn't exist"]),
        END,
    ]),
    ("b9-mx-onnx", "mixed", [
        S([U("把 intent 模型导出成 ONNX，推理服务用 onnxruntime，导出脚本写在 export/to_onnx.py"),
           W("export/to_onnx.py"), B("python export/to_onnx.py", True, "max abs diff 2.1e-05"),
           A("导出好了，ONNX 和 PyTorch 输出的最大误差 2.1e-5，在容差内。动态 batch 和动态序列长度都开了。"
             "还有两个问题：INT8 量化还没做，CPU 上 p99 是 38ms；另外 tokenizer 还在 Python 里跑，服务端得装 "
             "transformers。")],
          topic=["ONNX"], files=["export/to_onnx.py"], todos=["INT8 量化还没做", "tokenizer 还在 Python 里跑"]),
        S([U("Quantize it with dynamic int8 quantization and check accuracy"),
           E("export/to_onnx.py"), W("export/quantize.py"),
           B("python export/quantize.py && python eval.py --model model.int8.onnx", True,
             "acc 0.912 (fp32 0.915)  p99 14ms"),
           A("Dynamic int8 quantization is done: accuracy 0.912 vs 0.915 for fp32, CPU p99 down from 38 ms to 14 ms, "
             "and the model is 4x smaller. The serving image still needs transformers for tokenization.")],
          done=["INT8 量化还没做"], traps=["tokenizer 还在 Python 里跑"]),
        S([U("any progress on getting tokenization out of python?"),
           A("Not yet — I'd use onnxruntime-extensions to bake it into the graph, but I haven't started.")],
          light=True, traps=["tokenizer 还在 Python 里跑"]),
        S([U("tokenizer 我自己用 onnxruntime-extensions 打进模型里了，服务端已经不装 transformers 了"),
           A("好的，那服务镜像能小不少。")], light=True, done=["tokenizer 还在 Python 里跑"]),
        END,
    ]),
    ("b9-mx-polars", "mixed", [
        S([U("把日报的 pandas 管道改写成 Polars，主文件 pipeline/daily_report.py，现在跑一次要 14 分钟"),
           W("pipeline/daily_report.py"),
           B("python pipeline/daily_report.py --date 2026-11-20", True, "rows 8412339  elapsed 96.4s"),
           A("改成 Polars lazy 之后，840 万行 96 秒跑完，原来要 14 分钟；和 pandas 版逐列比对结果一致。有一点：窗口指标 "
             "rolling_7d 还是转回 pandas 算的，那一步占了 40 秒；另外这个 pipeline 还没有单元测试。")],
          topic=["Polars"], files=["pipeline/daily_report.py"], todos=["转回 pandas 算的", "还没有单元测试"]),
        S([U("port rolling_7d to native polars"),
           E("pipeline/daily_report.py"),
           B("python pipeline/daily_report.py --date 2026-11-20", True, "rows 8412339  elapsed 58.1s"),
           A("rolling_7d now uses group_by_dynamic natively; the whole run takes 58 s and the numbers match the old "
             "output to 1e-9. No pandas import is left in the pipeline.")],
          done=["转回 pandas 算的"]),
        S([U("add tests for the report pipeline"),
           W("tests/test_daily_report.py"),
           B("pytest tests/test_daily_report.py -q", False, "2 failed, 5 passed"),
           A("Wrote 7 tests on a small fixture; 2 fail because the fixture has no weekend rows and rolling_7d skips "
             "them. Not green yet.")],
          traps=["还没有单元测试"]),
        S([U("继续"),
           E("tests/test_daily_report.py"), B("pytest tests/test_daily_report.py -q", True, "7 passed"),
           A("fixture 补上了周末的数据，7 个测试全过。")],
          done=["还没有单元测试"]),
        END,
    ]),
]
