"""The second to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-26 (branch ``blind3``) by an engineer who did not read the capture or
closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
docs/summaries.md, the Handover sections of BENCHMARKS.md) nor the scenarios of the earlier sets
(``handover_tuning_set.py``, ``handover_closing_set.py``, ``handover_closing_heldout.py``) beyond
their docstrings and first scenario. The two earlier sets were read by the people tuning the rules;
this one replaces them as the held-out measure. Do not read its scenarios or its misses to change a
rule — when it has been read, write a new set instead.

14 projects, 3–6 sessions each: 6 Chinese, 6 English, 2 mixed (a Chinese speaker with English code
and terms, switching language between sessions). Domains: Kubernetes/Helm, an Airflow ETL, a WeChat
mini-program, GPU training, a VitePress docs site, STM32 firmware, TOTP auth, Stripe billing, a
Postgres CLI, a platform game, React Native CI, Terraform, Elasticsearch autocomplete, Triton
model serving.

- 38 open to-dos planted (16 Chinese, 17 English, 5 mixed), stated as a state ("…is still red",
  "…has no tests", "…is hard-coded", "only works on …", "还是写死的", "目前只支持…"), as an indirect
  wish ("it'd be nice to…", "we should probably…", "at some point…", "有空把…", "最好改成…"), in
  numbered or bulleted "remaining" lists, in the person's own prompt ("remind me to…", "下次记得…"),
  hedged, and embedded in a longer report.
- 27 of them finished later in other words (11 Chinese, 12 English, 4 mixed): a synonym, the other
  language, a report with numbers, the person saying they did it, a request and work that passes,
  evidence alone (the named file edited and its test passing after a bare "继续"), a bulleted status
  list, "that's in now", "搞定" / "上线了" / "合了".
- 23 traps (``traps`` on a session: an open to-do that session must NOT close; 11 Chinese, 10
  English, 2 mixed): a "not yet" / "还没" answer, the same file edited for something else,
  half-done work, a failing run, a sibling finished, work put off again, a question about it, a
  plan to do it, a statement of how things are.
- Each project's first session plants its topic and main file.

Same shapes as ``handover_tuning_set.py`` (``S``/``U``/``A``/``E``/``W``/``B``/``END``) plus
``traps``. ``bench_handover_tuning.py --set closing-heldout2`` runs it: to-dos are scored on a
``[ ]`` line of the next start context, finished ones must be gone from ``[ ]`` lines, wrong closes
and traps are read from the to-do index after each project's last session.

BASELINE — unchanged main (scripts of c45f3a7, before any rule was tuned with this set in existence),
``.venv-test/bin/python bench/bench_handover_tuning.py --set closing-heldout2 --json OUT``, offline
summarizer, 2026-11-26 06:17 UTC, load average 0.96 at start and 2.65 at the end (2 shared cores),
171 s: open to-dos captured (on a ``[ ]`` line of the next start) 16/38 (Chinese 10/16, English
3/17, mixed 3/5); finished to-dos still shown 8/27; closes right 3, missed 8, wrong 0; traps held 8,
sprung 0, untested 15 (their to-do was never captured); topics 14/14; files 14/14; leaks 0; start
context p50 5,997 characters (max 5,998); SessionStart p50 125.2 ms.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

SCENARIOS = [
    # ---------------------------------------------------------------- Chinese
    ("b3-zh-helm", "zh", [
        S([U("把 ingest 服务迁到 k8s 上，先写个 helm chart"),
           W("deploy/helm/ingest/values.yaml"), W("deploy/helm/ingest/templates/deployment.yaml"),
           B("helm lint deploy/helm/ingest", True, "1 chart(s) linted, 0 chart(s) failed"),
           A("chart 写好了，helm lint 通过，staging 上已经跑起来 2 个副本。现在镜像 tag 还是写死的 latest，"
             "每次发版都得手动改；另外目前只支持单机 Redis，哨兵模式没配。")],
          topic=["helm chart"], files=["deploy/helm/ingest/values.yaml"],
          todos=["镜像 tag 还是写死的", "目前只支持单机 Redis"]),
        S([U("加一下 HPA，CPU 到 70% 就扩容"),
           W("deploy/helm/ingest/templates/hpa.yaml"), E("deploy/helm/ingest/values.yaml"),
           B("helm lint deploy/helm/ingest", True, "1 chart(s) linted, 0 chart(s) failed"),
           A("HPA 加上了，最少 2 个最多 8 个副本。values.yaml 里多了 autoscaling 一段。")],
          traps=["镜像 tag 还是写死的"]),
        S([U("镜像版本改成 CI 传进来，用 commit 的短 sha"),
           E("deploy/helm/ingest/values.yaml"), E(".gitlab-ci.yml"),
           B("helm template deploy/helm/ingest --set image.tag=3f9c2ab | grep image:", True,
             "image: registry.local/ingest:3f9c2ab"),
           A("现在流水线里用 --set image.tag=$CI_COMMIT_SHORT_SHA 部署，发版不用再手动改 values 了。")],
          done=["镜像 tag 还是写死的"]),
        S([U("Redis 哨兵先不弄了，下个季度再说。今天看一下日志采集用什么方案"),
           A("好，哨兵先放着。日志采集建议用 fluent-bit 的 DaemonSet，每个节点一个，比 sidecar 省资源。")],
          traps=["目前只支持单机 Redis"], light=True),
        END,
    ]),
    ("b3-zh-etl", "zh", [
        S([U("每天凌晨把埋点数据从 Kafka 落到 Hive，写个 airflow 的 DAG"),
           W("dags/events_daily.py"), W("etl/transform.py"),
           B("python -m pytest tests/test_transform.py -q", True, "8 passed"),
           A("DAG 写好了，每天 02:00 跑，昨天的数据回灌了一遍，2300 万行。剩下几件：\n"
             "1. 去重逻辑还没加，客户端重复上报的事件会算两次\n"
             "2. 分区字段用的是服务器收到的时间，应该用事件时间\n"
             "3. 任务失败告警还没接飞书")],
          topic=["airflow"], files=["etl/transform.py"],
          todos=["去重逻辑还没加", "应该用事件时间", "告警还没接飞书"]),
        S([U("去重做了吗？"), A("还没有，transform 里现在还是直接 append。")],
          traps=["去重逻辑还没加"], light=True),
        S([U("按 event_id 去重，保留最早的一条"),
           E("etl/transform.py"),
           B("python -m pytest tests/test_transform.py -q", False, "1 failed, 8 passed\nFAILED test_late_events"),
           A("去重写了，但 test_late_events 挂了：迟到的事件被当成重复丢掉了，还得再看。")],
          traps=["去重逻辑还没加"]),
        S([U("继续"),
           E("etl/transform.py"), B("python -m pytest tests/test_transform.py -q", True, "10 passed"),
           A("改成按 event_id 加 event_time 判重，迟到事件不会再被误丢，重复上报的只留一条，测试全过。")],
          done=["去重逻辑还没加"]),
        S([U("分区那个我自己改了，用 event_ts 转成北京时间。飞书告警下周再接。今天先这样"),
           A("好的。")],
          done=["应该用事件时间"], traps=["告警还没接飞书"]),
        END,
    ]),
    ("b3-zh-miniapp", "zh", [
        S([U("小程序首页偶尔白屏，帮我查一下"),
           E("pages/index/index.js"), B("npm run build", True, "build done in 8.2s"),
           A("白屏是因为 onLoad 里 await 了一个登录态的 promise，token 过期时它永远不 resolve。已经加了超时和兜底。"
             "顺带发现两个问题：安卓上的下拉刷新还是有问题，松手以后不回弹；首页图片没有懒加载，"
             "首屏一次请求了 40 多张图。")],
          topic=["白屏"], files=["pages/index/index.js"],
          todos=["下拉刷新还是有问题", "图片没有懒加载"]),
        S([U("下次记得把分享卡片的标题改成动态的，带上商品名。今天先把登录页按钮的样式调一下"),
           E("pages/login/login.wxss"), B("npm run build", True, "build done in 7.9s"),
           A("登录按钮的圆角和主色调好了，和设计稿一致。")],
          todos=["分享卡片的标题改成动态的"]),
        S([U("首页那些图按需加载吧"),
           W("components/lazy-image/index.js"), E("pages/index/index.wxml"),
           B("npm run build", True, "build done in 8.4s"),
           A("做了个 lazy-image 组件，用 IntersectionObserver 进入视口才加载。首屏请求从 43 张降到 8 张，"
             "真机上首屏时间 3.1s → 1.4s。")],
          done=["图片没有懒加载"]),
        S([U("分享标题带商品名的那个已经上线了。下拉回弹还是不行，回头再说"),
           A("收到，下拉回弹先记着。")],
          done=["分享卡片的标题改成动态的"], traps=["下拉刷新还是有问题"]),
        END,
    ]),
    ("b3-zh-train", "zh", [
        S([U("ResNet50 训练一开 batch 256 显存就爆，帮我看看"),
           E("train/train.py"), B("python train/train.py --dry-run --batch-size 256", True, "step 20/20 ok, peak mem 21.3G"),
           A("开了混合精度，再加上梯度累积（accum=4），单卡 24G 能跑 batch 256 了，峰值 21.3G。"
             "不过目前只支持单卡训练，DDP 还没接；学习率 warmup 也是写死的 5 个 epoch，最好做成参数。")],
          topic=["显存"], files=["train/train.py"],
          todos=["目前只支持单卡训练", "warmup 也是写死的"]),
        S([U("有空把 train/checkpoint.py 改成每 N 步存一次，现在只在 epoch 结束存，挂了要重跑一整个 epoch。"
             "今天先看数据增强"),
           E("train/augment.py"), B("python -m pytest tests/test_augment.py -q", True, "6 passed"),
           A("加了 RandAugment 和 mixup，开关都在 config 里。")],
          todos=["改成每 N 步存一次"]),
        S([U("warmup 做成参数了吗"), A("还没，下次我把 warmup 和学习率一起挪到 config 里。")],
          traps=["warmup 也是写死的"], light=True),
        S([U("多卡那块合了，4 卡跑 ImageNet 一个 epoch 从 52 分钟降到 14 分钟。warmup 我也顺手做成 --warmup-epochs 了"),
           A("不错，那这两块都齐了。")],
          done=["目前只支持单卡训练", "warmup 也是写死的"]),
        S([U("继续"),
           E("train/checkpoint.py"), B("python -m pytest tests/test_checkpoint.py -q", True, "5 passed"),
           A("好了。")],
          done=["改成每 N 步存一次"]),
        END,
    ]),
    ("b3-zh-docs", "zh", [
        S([U("文档站从 GitBook 迁到 VitePress"),
           W("docs/.vitepress/config.ts"), B("npm run docs:build", True, "build complete in 41.2s. 128 pages"),
           A("迁完了，128 页都能构建，侧边栏按原来的目录生成。还有两点：搜索现在是本地搜索，中文分词不太行，"
             "搜“部署”能出来、搜“部署流程”就不行，可能得换 Algolia；旧链接没有做 301 跳转，外面引用的地址会 404。")],
          topic=["VitePress"], files=["docs/.vitepress/config.ts"],
          todos=["中文分词不太行", "没有做 301 跳转"]),
        S([U("把旧地址重定向配一下"),
           W("netlify.toml"), B("npm run docs:build", True, "build complete in 40.8s. 128 pages"),
           A("netlify.toml 里加了 /guide/* 的规则。/api/* 那批页面改过文件名，还没一一映射，先做了一半。")],
          traps=["没有做 301 跳转"]),
        S([U("代码块在深色模式下看不清，换个高亮主题"),
           E("docs/.vitepress/config.ts"), B("npm run docs:build", True, "build complete in 42.0s. 128 pages"),
           A("换成 github-dark 了，浅色模式还是 github-light。")],
          traps=["没有做 301 跳转"]),
        S([U("/api 那些老地址也映射一下，然后扫一遍外链"),
           E("netlify.toml"), B("lychee --offline 'dist/**/*.html' --remap-file old-links.txt", True,
                                "🔍 2,314 Total ✅ 2,314 OK 🚫 0 Errors"),
           A("/api/* 的 46 个老路径都映射上了，用 lychee 按旧链接表扫了一遍，2314 个全部能打开，0 个 404。")],
          done=["没有做 301 跳转"]),
        END,
    ]),
    ("b3-zh-firmware", "zh", [
        S([U("STM32 上的温湿度采集固件，I2C 读 SHT30 老是超时"),
           E("firmware/src/sht30.c"), B("make -C firmware", True, "arm-none-eabi-size: text 41236"),
           B("make -C firmware test", True, "11 Tests 0 Failures 0 Ignored"),
           A("超时是因为没处理时钟拉伸，读数前加了等待，连续跑了 2 小时没再超时。\n"
             "目前的情况：采样间隔是写死的 1 秒，功耗偏高；OTA 升级还没做；进低功耗模式后串口日志会丢字节。")],
          topic=["SHT30"], files=["firmware/src/sht30.c"],
          todos=["采样间隔是写死的", "OTA 升级还没做", "串口日志会丢字节"]),
        S([U("采样周期改成可以通过 Modbus 寄存器 0x10 设置，默认 10 秒"),
           E("firmware/src/config.c"), E("firmware/src/modbus.c"),
           B("make -C firmware test", True, "12 Tests 0 Failures 0 Ignored"),
           A("寄存器 0x10 写入秒数就生效，掉电保存在 flash，平均电流从 1.8mA 降到 0.4mA。")],
          done=["采样间隔是写死的"]),
        S([U("远程升级我打算下周用 MCUboot 做，flash 要怎么分区？"),
           A("MCUboot 需要两个 slot：bootloader 32K，slot0 和 slot1 各 224K，剩下的给配置区。")],
          traps=["OTA 升级还没做"], light=True),
        S([U("串口丢字节那个查一下"),
           E("firmware/src/uart.c"),
           B("make -C firmware test", False, "14 Tests 1 Failures 0 Ignored\ntest_uart_lowpower FAIL"),
           A("改成了 DMA 接收，但低功耗测试还是挂：唤醒后第一个字节依然会丢。")],
          traps=["串口日志会丢字节"]),
        S([U("继续"),
           E("firmware/src/uart.c"), B("make -C firmware test", True, "14 Tests 0 Failures 0 Ignored"),
           A("唤醒时先等 HSI 时钟稳定再开 UART，低功耗测试过了。")],
          done=["串口日志会丢字节"]),
        END,
    ]),
    # ---------------------------------------------------------------- English
    ("b3-en-totp", "en", [
        S([U("Add TOTP two-factor to the login flow"),
           W("auth/totp.py"), E("auth/views.py"), B("pytest tests/test_totp.py -q", True, "9 passed"),
           A("TOTP is wired into login: users enroll by scanning a QR code and must enter a 6-digit code after "
             "the password. A few things I left out: recovery codes aren't generated yet, so a lost phone means a "
             "support ticket. The code check is rate-limited per IP only; it'd be nice to make it per-account "
             "too. And the enrollment page has no tests.")],
          topic=["TOTP"], files=["auth/totp.py"],
          todos=["recovery codes aren't generated yet", "make it per-account too", "enrollment page has no tests"]),
        S([U("Generate ten backup codes when someone enrolls, hashed with argon2"),
           E("auth/totp.py"), W("auth/backup_codes.py"), B("pytest tests/ -q", True, "14 passed"),
           A("Each user now gets 10 one-time backup codes at enrollment, shown once and stored as argon2 hashes; "
             "using one logs you in and burns it.")],
          done=["recovery codes aren't generated yet"]),
        S([U("did you add the per-account throttle?"),
           A("Not yet — the limiter still keys on the client IP only.")],
          traps=["make it per-account too"], light=True),
        S([U("Write tests for the password reset page"),
           W("tests/test_reset_page.py"), B("pytest tests/test_reset_page.py -q", True, "7 passed"),
           A("7 tests for the reset page: token expiry, reuse, wrong email, and the happy path.")],
          traps=["enrollment page has no tests"]),
        S([U("the 2FA setup screen is covered now, I wrote six cases for it myself last night. Let's look at "
             "session expiry"),
           E("auth/session.py"), B("pytest tests/ -q", True, "33 passed"),
           A("Sessions now expire after 12 hours idle and 7 days absolute.")],
          done=["enrollment page has no tests"]),
        END,
    ]),
    ("b3-en-stripe", "en", [
        S([U("Stripe webhooks sometimes credit an invoice twice"),
           E("billing/webhooks.py"), B("pytest tests/test_webhooks.py -q", True, "18 passed"),
           A("Stripe redelivers events and we weren't checking for that. The handler now stores each event ID in "
             "a unique table and skips replays. Still open:\n"
             "- proration on mid-cycle plan changes is wrong (we charge the full month)\n"
             "- the webhook signing secret is hard-coded in settings.py\n"
             "- when our DB is down we return 200 anyway, so Stripe never retries")],
          topic=["webhooks"], files=["billing/webhooks.py"],
          todos=["proration on mid-cycle plan changes", "signing secret is hard-coded", "return 200 anyway"]),
        S([U("I'll do the retries next. Right now move the signing secret into the environment"),
           E("billing/settings.py"), E("billing/webhooks.py"), B("pytest tests/ -q", True, "27 passed"),
           A("STRIPE_WEBHOOK_SECRET is read from the environment now, and the app refuses to start without it.")],
          done=["signing secret is hard-coded"], traps=["return 200 anyway"]),
        S([U("continue"),
           E("billing/webhooks.py"),
           B("pytest tests/ -q", False, "1 failed, 27 passed\nFAILED tests/test_webhooks.py::test_db_down_returns_503"),
           A("The handler returns 503 when the transaction fails, but the test still sees 200: the middleware "
             "swallows the exception.")],
          traps=["return 200 anyway"]),
        S([U("ok fix the middleware"),
           E("billing/middleware.py"), B("pytest tests/ -q", True, "31 passed"),
           B("stripe trigger invoice.paid", True, "Trigger succeeded!"),
           A("The middleware re-raises now. With the database stopped the endpoint answers 503; I started it "
             "again and Stripe redelivered the event a minute later, applied exactly once.")],
          done=["return 200 anyway"]),
        S([U("where are we on billing?"),
           A("- duplicate credits: fixed (event IDs are deduplicated)\n"
             "- signing secret: from the environment\n"
             "- outage handling: 503 so Stripe retries\n"
             "- mid-cycle upgrades: still charged a full month, not started")],
          traps=["proration on mid-cycle plan changes"], light=True),
        END,
    ]),
    ("b3-en-dbsnap", "en", [
        S([U("Build a small CLI, dbsnap, that dumps a Postgres schema to YAML"),
           W("dbsnap/cli.py"), W("dbsnap/dump.py"), B("pytest -q", True, "15 passed"),
           A("`dbsnap dump --dsn ... --out schema/` writes one YAML file per table (columns, indexes, FKs). "
             "Caveats: it only works on macOS right now, because I call pg_dump from the Homebrew path; "
             "views and materialized views are skipped; and there's no --exclude option yet.")],
          topic=["dbsnap"], files=["dbsnap/cli.py"],
          todos=["only works on macOS", "views and materialized views are skipped", "no --exclude option yet"]),
        S([U("Look pg_dump up on PATH instead of hard-coding brew"),
           E("dbsnap/dump.py"), B("pytest -q", True, "16 passed"),
           B("docker run --rm -v $PWD:/src dbsnap-test dbsnap dump --dsn $TEST_DSN --out /tmp/s", True,
             "14 tables written"),
           A("It resolves pg_dump with shutil.which now. Ran it in an Ubuntu container: 14 tables written, so "
             "Linux is fine.")],
          done=["only works on macOS"]),
        S([U("add an exclude flag that takes glob patterns"),
           E("dbsnap/cli.py"), B("pytest -q", True, "22 passed"),
           A("That's in now: `--exclude 'audit_*' --exclude 'tmp_*'`, repeatable, matched with fnmatch.")],
          done=["no --exclude option yet"]),
        S([U("can it dump views too?"),
           E("dbsnap/dump.py"), B("pytest -q", True, "25 passed"),
           A("Plain views are dumped now, with their definition. Materialized views still aren't — their "
             "storage and refresh settings need a second catalog query.")],
          traps=["views and materialized views are skipped"]),
        END,
    ]),
    ("b3-en-platformer", "en", [
        S([U("The player falls through the floor on the ice level"),
           E("src/physics/collision.ts"), B("npm test", True, "Tests: 64 passed, 64 total"),
           A("At ice speeds the player moved more than a tile per frame and tunneled through. I switched the "
             "ground check to a swept AABB test. We should probably cap the frame delta as well: a long GC "
             "pause can still skip a tile. Also, the ice friction is hard-coded in level3.json instead of coming "
             "from the tileset.")],
          topic=["falls through the floor"], files=["src/physics/collision.ts"],
          todos=["cap the frame delta", "ice friction is hard-coded"]),
        S([U("After this, remind me to profile the particle system on the Switch build. Now fix the jump buffer, "
             "jumps pressed just before landing get eaten"),
           E("src/player/jump.ts"), B("npm test", True, "Tests: 67 passed, 67 total"),
           A("Jump presses are buffered for 120 ms now and fire on landing.")],
          todos=["profile the particle system"]),
        S([U("clamp dt to 1/30 s in the main loop"),
           E("src/loop.ts"), B("npm test", True, "Tests: 69 passed, 69 total"),
           A("The loop clamps the step to 33 ms; a 500 ms stall now plays as slow motion instead of a teleport.")],
          done=["cap the frame delta"]),
        S([U("Particles on the Switch dev kit: I profiled them this morning, 2.1 ms a frame, nothing to do. "
             "Moving friction into the tileset can wait, not today. Let's build the pause menu"),
           W("src/ui/pause.ts"), B("npm test", True, "Tests: 73 passed, 73 total"),
           A("Pause menu with resume, options and quit; the game loop stops stepping physics while it's open.")],
          done=["profile the particle system"], traps=["ice friction is hard-coded"]),
        END,
    ]),
    ("b3-en-rnci", "en", [
        S([U("Set up CI for the React Native app"),
           W(".github/workflows/mobile.yml"), B("act -j ios", True, "Job succeeded"),
           A("The iOS job builds and uploads to TestFlight on every tag. The Android build is still red: Gradle "
             "can't find the release keystore on the runner. Also, the Detox e2e tests only run on iOS simulators.")],
          topic=["React Native"], files=[".github/workflows/mobile.yml"],
          todos=["Android build is still red", "only run on iOS simulators"]),
        S([U("is the android job green yet?"),
           A("No — it still fails at the signing step; I haven't changed anything there since.")],
          traps=["Android build is still red"], light=True),
        S([U("Decode the keystore from a base64 secret in the workflow"),
           E(".github/workflows/mobile.yml"), B("act -j android", True, "BUILD SUCCESSFUL in 6m 12s\nJob succeeded"),
           A("The Android job passes: it writes ANDROID_KEYSTORE_B64 to a file before assembleRelease and signs "
             "the AAB with it.")],
          done=["Android build is still red"]),
        S([U("Bump the iOS deployment target to 15 and the Xcode version on the runner"),
           E(".github/workflows/mobile.yml"), E("ios/Podfile"), B("act -j ios", True, "Job succeeded"),
           A("Deployment target 15.0, Xcode 16.1 on macos-14.")],
          traps=["only run on iOS simulators"]),
        S([U("Add an Android emulator to the e2e matrix"),
           E(".github/workflows/mobile.yml"), E(".detoxrc.js"),
           B("act -j e2e", True, "android.emu.release: 18 passed\nios.sim.release: 18 passed"),
           A("Detox runs on a Pixel 6 API 33 emulator too, 18/18 on both platforms. Booting the emulator adds "
             "about 4 minutes per run, so caching the AVD snapshot would pay off at some point.")],
          done=["only run on iOS simulators"], todos=["caching the AVD snapshot"]),
        END,
    ]),
    ("b3-en-terraform", "en", [
        S([U("Move our S3 buckets and the CloudFront distribution into Terraform"),
           W("infra/storage.tf"), W("infra/cdn.tf"),
           B("terraform plan", True, "No changes. Your infrastructure matches the configuration."),
           A("All four buckets and the distribution are imported and the plan is clean. I did not set up remote "
             "state — terraform.tfstate is on your laptop, which bites as soon as a second person runs apply. "
             "The logs bucket also has no lifecycle rule, so access logs pile up forever.")],
          topic=["Terraform"], files=["infra/storage.tf"],
          todos=["did not set up remote state", "has no lifecycle rule"]),
        S([U("Put the state in S3 with a DynamoDB lock table"),
           W("infra/backend.tf"), B("terraform init -migrate-state -force-copy", True,
                                    'Successfully configured the backend "s3"!'),
           A("State lives in s3://acme-tfstate/prod now, with locking through the tf-locks table; I deleted the "
             "local copy after checking `terraform state list` shows all 9 resources.")],
          done=["did not set up remote state"]),
        S([U("Add a rule on the assets bucket that expires old object versions"),
           E("infra/storage.tf"), B("terraform plan", True, "Plan: 0 to add, 1 to change, 0 to destroy."),
           A("Noncurrent versions in the assets bucket expire after 30 days.")],
          traps=["has no lifecycle rule"]),
        S([U("The access-log expiry: I set it up in the console last week, 90 days to Glacier then delete. "
             "Just bring it into the config"),
           E("infra/storage.tf"), B("terraform plan", True, "No changes. Your infrastructure matches the configuration."),
           A("It's in storage.tf now and the plan shows no changes.")],
          done=["has no lifecycle rule"]),
        END,
    ]),
    # ---------------------------------------------------------------- mixed
    ("b3-mix-suggest", "mixed", [
        S([U("给商品搜索加个 autocomplete，用 Elasticsearch 的 completion suggester"),
           E("search/suggest.py"), B("python -m pytest tests/test_suggest.py -q", True, "9 passed"),
           A("autocomplete 接好了，/api/suggest?q= 返回前 10 条。拼音输入还不支持，输 shouji 出不来手机；"
             "另外 suggest 索引现在每次全量重建，要 20 分钟，最好改成增量。")],
          topic=["autocomplete"], files=["search/suggest.py"],
          todos=["拼音输入还不支持", "最好改成增量"]),
        S([U("Add pinyin support to the suggester with the analysis-pinyin plugin"),
           E("search/mapping.json"), E("search/suggest.py"), B("python -m pytest tests/test_suggest.py -q", True,
                                                               "12 passed"),
           A("Typing 'shouji' or just 'sj' now suggests 手机. I reindexed the 1.2M products with the new mapping.")],
          done=["拼音输入还不支持"]),
        S([U("incremental indexing: how would you do it? I'll pick it up after the sale weekend"),
           A("Stream product changes from the outbox table and upsert only those docs; keep the full rebuild "
             "for mapping changes.")],
          traps=["最好改成增量"], light=True),
        S([U("the suggest index updates incrementally now — I merged Wei's PR yesterday, full rebuilds only on "
             "mapping changes. Next: the search results page is slow on mobile"),
           E("web/search/results.tsx"), B("npm test -- results", True, "Tests: 12 passed"),
           A("The results page rendered all 200 hits at once; it paginates by 20 now.")],
          done=["最好改成增量"]),
        END,
    ]),
    ("b3-mix-triton", "mixed", [
        S([U("Serve the ranking model with Triton, dynamic batching up to 32"),
           W("serving/config.pbtxt"), W("serving/client.py"), B("python -m pytest tests/test_client.py -q", True,
                                                                 "6 passed"),
           A("Triton serves ranker_v3 with dynamic batching (max 32): p99 18 ms at 400 qps. Not done: the model "
             "repository is a hand-copied directory on the box; there is no canary, a new version takes 100% "
             "of traffic at once. At some point we could also export to FP16 for another ~30%.")],
          topic=["Triton"], files=["serving/config.pbtxt"],
          todos=["hand-copied directory", "there is no canary", "export to FP16"]),
        S([U("模型仓库改成启动时从 S3 同步"),
           E("serving/entrypoint.sh"), B("docker compose up -d triton && curl -s localhost:8000/v2/health/ready",
                                         True, "ready"),
           A("容器启动时把 s3://models/ranker 同步到 /models，再启动 tritonserver，不用再手动拷目录了。")],
          done=["hand-copied directory"]),
        S([U("试一下 FP16 导出"),
           E("serving/export.py"),
           B("python serving/export.py --fp16 --check", False, "NDCG@10 0.412 < threshold 0.440"),
           A("FP16 精度掉得太多，NDCG@10 从 0.447 掉到 0.412，过不了阈值，先保留 FP32。")],
          traps=["export to FP16"]),
        S([U("灰度发布做一下，新版本先给 5% 流量"),
           W("serving/router.py"), B("python -m pytest tests/test_router.py -q", True, "8 passed"),
           A("新版本先拿 5% 流量，错误率超过 1% 自动切回旧版本，半小时没问题再放到 100%。")],
          done=["there is no canary"]),
        END,
    ]),
]
