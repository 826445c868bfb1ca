"""The LATE-CLOSE set (issue 20, round 9): TUNING data, written alongside the roll call — an upper bound.

Written on 2026-11-26 (branch ``rollcall9``, from 3e42f89) by the engineer who built todo-check's roll
call (hooks/todo_check.py ``roll_call``), to tune it, after reading only the blind writer's summary of
closing-heldout11 (never its scenarios). Every number on it is an upper bound: the roll call was
designed with these scenarios in view.

8 projects (3 Chinese, 3 English, 2 mixed), 4–5 sessions each, with the features the round-9 blind set
was said to stress:

- finishes that share no word with the to-do (a synonym, the other language, a number, a bare report of
  the result: "灰度" finished as "canary at 5%", "retries" as "重试三次");
- finishes 2–3 sessions after the to-do was stated, with other work in between;
- a finish as one line of a longer report about other work (a status list, a "while I was there" line);
- long sessions (8–10 turns) where the finish comes late, after completion-shaped turns that did other
  work — ``done_at`` gives the 0-based turn of the session that finishes a planted to-do (else any
  turn of the session counts, as in the older sets);
- traps: same-area work that does not finish it, "not yet" / "还没", a plan ("next I'll …"), a half-done
  report or a failing run.

Same shapes as ``handover_closing_heldout6.py`` (``S`` with ``traps``) plus ``done_at``.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

SCENARIOS = [
    ("lc-zh-gray", "zh", [
        S([U("订单服务要上新的定价引擎，代码在 pricing/engine.py，先把新旧两套计算结果对比一下"),
           W("pricing/engine.py"), W("pricing/compare.py"),
           B("python -m pytest tests/test_pricing.py -q", True, "14 passed"),
           A("新定价引擎写好了，14 个测试通过，和旧引擎在 3 万个历史订单上结果一致。还有几件事没做：\n"
             "1. 还没灰度，现在是全量开关；\n"
             "2. 优惠券叠加的边界情况还没覆盖；\n"
             "3. 监控大盘上还没有新引擎的耗时指标。")],
          topic=["定价引擎"], files=["pricing/engine.py"],
          todos=["还没灰度", "优惠券叠加的边界情况还没覆盖", "还没有新引擎的耗时指标"]),
        S([U("购物车页面的价格展示有个四舍五入的 bug，修一下 web/cart.vue"),
           E("web/cart.vue"),
           B("npm run test -- cart", True, "6 passed"),
           A("修好了：展示层改成用后端返回的分为单位的整数再格式化，不在前端做浮点运算。6 个测试通过。")]),
        S([U("发布平台那边配置好了吗？"),
           E("deploy/rollout.yaml"),
           B("kubectl apply -f deploy/rollout.yaml", True, "rollout.argoproj.io/pricing configured"),
           A("配置好了：pricing 现在先放 5% 的流量给新版本，观察 30 分钟没有报警再自动扩到 50%、100%。"
             "另外顺手把 engine.py 里一个没用的 import 删了。")],
          done=["还没灰度"], traps=["优惠券叠加的边界情况还没覆盖"]),
        S([U("优惠券那块先不管，看下 Grafana"),
           E("monitoring/pricing_dashboard.json"),
           B("python tools/push_dashboard.py monitoring/pricing_dashboard.json", True, "dashboard updated"),
           A("今天做了这些：\n- 修了日志里 trace_id 丢失的问题；\n- 大盘加了一个面板，p50/p99 的计算延迟按新旧引擎分开画；\n"
             "- 告警阈值从 500ms 调到 300ms。\n优惠券叠加那部分还是没动，下周再说。")],
          done=["还没有新引擎的耗时指标"], traps=["优惠券叠加的边界情况还没覆盖"]),
        END,
    ]),
    ("lc-zh-retry", "zh", [
        S([U("短信网关老是偶发失败，代码在 notify/sms_client.py，帮我看看"),
           R("notify/sms_client.py"), E("notify/sms_client.py"),
           B("python -m pytest tests/test_sms.py -q", True, "9 passed"),
           A("原因是网关偶尔返回 503，客户端直接抛异常了。我先把异常信息补全了，9 个测试通过。"
             "后面还需要：失败了要有重试，带退避；模板 ID 现在写死在代码里，应该挪到配置里。")],
          topic=["短信网关"], files=["notify/sms_client.py"],
          todos=["失败了要有重试", "模板 ID 现在写死在代码里"]),
        S([U("推送服务的 token 过期了，换一下"),
           E("notify/push_client.py"),
           B("python -m pytest tests/test_push.py -q", True, "4 passed"),
           A("换好了，token 改成启动时从 Vault 读，4 个测试通过。")]),
        S([U("短信那边再看一下，今天又报了"),
           E("notify/sms_client.py"),
           B("python -m pytest tests/test_sms.py -q", False, "1 failed, 9 passed: test_backoff_jitter"),
           A("我加了一半：503 的时候会再发，但抖动的测试还没过，明天接着弄。")],
          traps=["失败了要有重试"]),
        S([U("继续昨天的"),
           E("notify/sms_client.py"),
           B("python -m pytest tests/test_sms.py -q", True, "11 passed"),
           A("好了，503/超时现在最多再发 3 次，间隔 0.5s、1s、2s 加随机抖动，11 个测试都过。")],
          done=["失败了要有重试"], traps=["模板 ID 现在写死在代码里"]),
        S([U("把 settings.yaml 里的短信部分整理一下"),
           E("config/settings.yaml"), E("notify/sms_client.py"),
           B("python -m pytest tests/test_sms.py -q", True, "11 passed"),
           A("整理完了：签名、各场景的模板编号、网关地址都收进 settings.yaml 的 sms 段，代码里只按场景名取。")],
          done=["模板 ID 现在写死在代码里"]),
        END,
    ]),
    ("lc-zh-long", "zh", [
        S([U("数据看板的后端用 FastAPI 写的，在 dash/api.py。先加一个按天聚合的接口"),
           E("dash/api.py"),
           B("python -m pytest tests/test_api.py -q", True, "12 passed"),
           A("按天聚合的接口 /stats/daily 加好了，12 个测试通过。还有两件事：导出 CSV 还没做；"
             "大查询没有超时保护，慢 SQL 会把 worker 拖住。")],
          topic=["数据看板"], files=["dash/api.py"],
          todos=["导出 CSV 还没做", "大查询没有超时保护"]),
        S([U("先把 /stats/daily 的时区问题修一下，按北京时间算"),
           E("dash/api.py"),
           B("python -m pytest tests/test_api.py -q", True, "13 passed"),
           A("修好了，聚合按 Asia/Shanghai 切日，13 个测试通过。"),
           U("再加个按周的"),
           E("dash/api.py"),
           B("python -m pytest tests/test_api.py -q", True, "15 passed"),
           A("/stats/weekly 加好了，周一为一周开始，15 个测试通过。"),
           U("前端的日期选择器默认值改成最近 7 天"),
           E("web/src/DatePicker.tsx"),
           B("npm test -- DatePicker", True, "3 passed"),
           A("改好了，默认最近 7 天，3 个测试通过。"),
           U("导出那个现在做吗？"),
           A("可以，不过我建议先把慢查询的问题解决，不然导出大范围数据时更容易卡住。"),
           U("行，那先做慢查询"),
           E("dash/db.py"),
           B("python -m pytest tests/test_db.py -q", True, "7 passed"),
           A("数据库会话现在设置了 statement_timeout = 5s，超时返回 504 和提示，7 个测试通过。"),
           U("把 README 里的接口列表更新一下"),
           E("README.md"),
           A("更新了，加上了 daily 和 weekly 两个接口的说明。"),
           U("导出做一下吧"),
           E("dash/api.py"), W("dash/export.py"),
           B("python -m pytest tests/test_export.py -q", True, "5 passed"),
           A("/stats/export 现在能把选中时间段的数据下载成表格文件，流式输出，百万行也不会占满内存。5 个测试通过。"),
           U("好，提交吧"),
           B("git commit -am 'dash: weekly stats, timeouts, export'", True, "[main 4e1a2b3] dash: weekly stats"),
           A("提交好了。")],
          done=["导出 CSV 还没做", "大查询没有超时保护"],
          done_at={"大查询没有超时保护": 4, "导出 CSV 还没做": 6}),
        END,
    ]),
    ("lc-en-canary", "en", [
        S([U("We're moving the recommendations service to the new ranking model. Code is in reco/ranker.py"),
           W("reco/ranker.py"),
           B("pytest tests/test_ranker.py -q", True, "18 passed"),
           A("The new ranker is in and 18 tests pass; offline NDCG@10 went from 0.41 to 0.46. Still to do: "
             "the canary rollout hasn't happened — it is all-or-nothing behind one flag; and the feature "
             "store reads are not cached, so p99 latency is 180 ms.")],
          topic=["ranking model"], files=["reco/ranker.py"],
          todos=["canary rollout hasn't happened", "feature store reads are not cached"]),
        S([U("灰度那个弄一下，先放 5% 的用户"),
           E("deploy/reco-rollout.yaml"),
           B("kubectl apply -f deploy/reco-rollout.yaml", True, "rollout configured"),
           A("已经按用户 ID 哈希放了 5% 的流量到新模型，指标正常的话明天升到 25%。")],
          done=["canary rollout hasn't happened"], traps=["feature store reads are not cached"]),
        S([U("Fix the flaky test in tests/test_ranker.py"),
           E("tests/test_ranker.py"),
           B("pytest tests/test_ranker.py -q", True, "18 passed"),
           A("The flake was a random seed; it's pinned now and the test passed 50 runs in a row. The feature "
             "lookups are still going straight to the store, I didn't touch that.")],
          traps=["feature store reads are not cached"]),
        S([U("Latency work today. Put an LRU in front of the lookups in reco/features.py"),
           E("reco/features.py"),
           B("pytest tests/test_features.py -q && python bench/latency.py", True, "9 passed\np99 62ms"),
           A("Done: a 50k-entry LRU with a 60 s TTL sits in front of the feature lookups, hit rate 93%, p99 is "
             "down to 62 ms.")],
          done=["feature store reads are not cached"]),
        END,
    ]),
    ("lc-en-report", "en", [
        S([U("Set up the nightly export job for the analytics warehouse, in jobs/nightly_export.py"),
           W("jobs/nightly_export.py"),
           B("python jobs/nightly_export.py --dry-run", True, "would export 14 tables"),
           A("The job is written and the dry run lists 14 tables. Not done yet: it has no alerting when it "
             "fails; the S3 bucket name is hard-coded; and we should add a row-count check against the "
             "source after each table.")],
          topic=["nightly export"], files=["jobs/nightly_export.py"],
          todos=["no alerting when it fails", "S3 bucket name is hard-coded",
                 "row-count check against the source"]),
        S([U("Upgrade pandas to 2.2 across the repo"),
           E("requirements.txt"), E("jobs/transform.py"),
           B("pytest -q", True, "212 passed"),
           A("pandas is on 2.2. Summary of the session:\n- replaced two deprecated `.append` calls in "
             "jobs/transform.py;\n- fixed a dtype warning in the date parser;\n- the nightly export now pages "
             "#data-oncall through PagerDuty if it exits non-zero;\n- 212 tests pass.")],
          done=["no alerting when it fails"], traps=["S3 bucket name is hard-coded"]),
        S([U("Is the bucket configurable yet?"),
           A("Not yet — it is still the literal in jobs/nightly_export.py.")], light=True,
          traps=["S3 bucket name is hard-coded"]),
        S([U("Move the bucket to the environment and add the count comparison"),
           E("jobs/nightly_export.py"),
           B("pytest tests/test_export.py -q", True, "8 passed"),
           A("The destination now comes from EXPORT_BUCKET (required, the job refuses to start without it). "
             "I'll add the verification step tomorrow, it needs a read replica.")],
          done=["S3 bucket name is hard-coded"], traps=["row-count check against the source"]),
        S([U("Replica's up: analytics-ro. Finish it"),
           E("jobs/nightly_export.py"),
           B("python jobs/nightly_export.py --verify", True, "14/14 tables match the replica"),
           A("Each table's exported rows are now compared with SELECT COUNT(*) on analytics-ro; a mismatch "
             "fails the job. All 14 tables match.")],
          done=["row-count check against the source"]),
        END,
    ]),
    ("lc-en-long", "en", [
        S([U("The CLI in tool/cli.py needs a --json output mode"),
           E("tool/cli.py"),
           B("pytest tests/test_cli.py -q", True, "20 passed"),
           A("--json is in; 20 tests pass. Two things remain: shell completion is not written, and the "
             "error messages still print Python tracebacks to users.")],
          topic=["CLI"], files=["tool/cli.py"],
          todos=["shell completion is not written", "error messages still print Python tracebacks"]),
        S([U("Add a --quiet flag"),
           E("tool/cli.py"),
           B("pytest tests/test_cli.py -q", True, "22 passed"),
           A("--quiet suppresses progress output; 22 tests pass."),
           U("Make --json pretty-print when stdout is a terminal"),
           E("tool/cli.py"),
           B("pytest tests/test_cli.py -q", True, "23 passed"),
           A("Done, indented when stdout is a tty, compact otherwise; 23 tests pass."),
           U("Bump the version to 1.4.0"),
           E("pyproject.toml"),
           A("Version bumped to 1.4.0."),
           U("What's left before the release?"),
           A("The tab completion and the traceback cleanup from last time are still open."),
           U("Do the traceback thing"),
           E("tool/cli.py"), E("tool/errors.py"),
           B("pytest tests/test_cli.py -q", True, "27 passed"),
           A("Every failure now exits with a one-line message and a code; --debug shows the stack. 27 tests pass."),
           U("Update the changelog"),
           E("CHANGELOG.md"),
           A("Changelog updated for 1.4.0."),
           U("And the bash/zsh thing"),
           W("tool/completion.py"),
           B("pytest tests/test_completion.py -q", True, "6 passed"),
           A("`tool completion bash|zsh` prints a script to source; subcommands and flags complete. 6 tests pass."),
           U("Tag it"),
           B("git tag v1.4.0", True, ""),
           A("Tagged v1.4.0.")],
          done=["error messages still print Python tracebacks", "shell completion is not written"],
          done_at={"error messages still print Python tracebacks": 4, "shell completion is not written": 6}),
        END,
    ]),
    ("lc-mixed-gpu", "mixed", [
        S([U("训练脚本 train/run.py 要支持多卡，先用 DDP 改一下"),
           E("train/run.py"),
           B("torchrun --nproc_per_node=1 train/run.py --smoke", True, "smoke ok"),
           A("DDP 改好了，单卡冒烟跑通。剩下的：A100 上还没跑过完整训练；checkpoint 只在 rank 0 存但没有断点续训。")],
          topic=["DDP"], files=["train/run.py"],
          todos=["A100 上还没跑过完整训练", "没有断点续训"]),
        S([U("Add resume support: --resume path/to/ckpt"),
           E("train/run.py"),
           B("torchrun --nproc_per_node=1 train/run.py --smoke --resume runs/last.pt", True, "resumed at step 200"),
           A("--resume restores the model, optimizer, scheduler and step; the smoke run resumed at step 200.")],
          done=["没有断点续训"], traps=["A100 上还没跑过完整训练"]),
        S([U("日志改成用 wandb"),
           E("train/run.py"),
           B("torchrun --nproc_per_node=1 train/run.py --smoke", True, "smoke ok"),
           A("日志接上 wandb 了，只有 rank 0 上报。")],
          traps=["A100 上还没跑过完整训练"]),
        S([U("跑了一晚上的结果出来了"),
           B("cat runs/8xgpu/summary.txt", True, "8 GPUs, 40 epochs, 6h12m, val_acc 0.913"),
           A("8 张卡 40 个 epoch 跑完了，用时 6 小时 12 分，val_acc 0.913，和单卡的趋势一致。")],
          done=["A100 上还没跑过完整训练"]),
        END,
    ]),
    ("lc-mixed-i18n", "mixed", [
        S([U("Settings page 要做国际化，web/settings.tsx，先把文案抽出来"),
           E("web/settings.tsx"), W("web/locales/zh.json"),
           B("npm test -- settings", True, "11 passed"),
           A("文案都抽到 locales/zh.json 了，11 个测试通过。Still open: the English translations are missing; "
             "日期格式还是写死的 YYYY-MM-DD。")],
          topic=["国际化"], files=["web/settings.tsx"],
          todos=["English translations are missing", "日期格式还是写死的"]),
        S([U("日期那个先别管，把设置页的表单校验加上"),
           E("web/settings.tsx"),
           B("npm test -- settings", True, "14 passed"),
           A("表单校验加好了，邮箱和手机号格式不对会在输入框下方提示，14 个测试通过。英文文案下一步做。")],
          traps=["English translations are missing", "日期格式还是写死的"]),
        S([U("en.json 我找翻译同学写好了，接上"),
           W("web/locales/en.json"), E("web/i18n.ts"),
           B("npm test -- settings", True, "16 passed"),
           A("接上了，切到 English 后设置页全部是英文，16 个测试通过。")],
          done=["English translations are missing"], traps=["日期格式还是写死的"]),
        S([U("Use Intl.DateTimeFormat with the user's locale everywhere on that page"),
           E("web/settings.tsx"),
           B("npm test -- settings", True, "17 passed"),
           A("Dates on the settings page now follow the user's locale (2026/11/26 vs 11/26/2026); 17 tests pass.")],
          done=["日期格式还是写死的"]),
        END,
    ]),
]
