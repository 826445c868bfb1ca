"""The thirteenth to-do CAPTURE and CLOSING HELD-OUT set (issue 20): written blind, NEVER tune to it.

Written blind on 2026-11-27 (branch ``blind14``, from f141258) by an engineer who did not read the
capture or closing rules (scripts/code_memory/summary/, scripts/code_memory/text/keywords.py,
scripts/code_memory/text/soft.py, scripts/code_memory/text/lexicon.py,
scripts/code_memory/hooks/todo_check.py, docs/summaries.md, docs/hooks.md, the Handover sections of
BENCHMARKS.md) nor the scenarios of the earlier sets beyond their docstrings and first scenario. It
judges the FINAL state of round 9's rules and Stop-hook to-do check afterwards, beside
``handover_closing_heldout7.py`` … ``handover_closing_heldout12.py``. Do not read its scenarios or its
misses to change a rule — when it has been read, write a new set instead.

14 projects, 3–5 sessions each plus a last start (68 sessions), written like real Claude Code
sessions (tool steps, a failing run then a passing one, terse prompts such as "continue", "继续",
"go on", "做吧"): 6 Chinese, 6 English, 2 mixed (a Chinese speaker with English code and terms,
switching language between sessions). Domains (from round 9's list): payroll tax withholding, a
mobile banking app's KYC onboarding, a DICOM medical imaging viewer, a compiler's error messages, a
smart-home hub (Zigbee pairing and OTA) and its Matter bridge, a podcast platform's RSS feeds, a
ticketing system's SLA timer and an event ticketing system's seat holds, an ERP material/vendor sync,
a satellite-telemetry deframer and its alert rules, a quiz app and its exam mode.

- 36 open to-dos planted (16 Chinese, 15 English, 5 mixed — 4 stated in Chinese, 1 in English),
  stated as a state (hard-coded, no tests, only works on some devices, only one hub, dropped
  silently, a cron too slow), as an indirect or hedged wish, in numbered and bulleted "remaining"
  lists, in the person's prompt ("remind me…", "下次记得…"), and as one sentence of a longer report.
- 31 finished later in other words — about half sharing no word with the to-do (a description of
  the effect, the other language in the mixed projects, a number), the rest sharing some; about a
  third 2–4 sessions after the to-do; some as one line of a report on other work; some by the
  person in the prompt ("I wrote it myself", "我上周自己接完了"); some by evidence alone after a
  bare "continue"/"继续"; a bulleted status line; 3 inside LONG sessions (8 user turns each, most
  turns unrelated work, the finish at turn 4, 5 or 6 — ``done_at`` — and another turn touching the
  to-do's area without finishing it).
- 33 traps that must NOT close a to-do: other work in the same file, page, cache or module finished
  in the same session, half-done work reported as progress, a failing run, a sibling in the same
  list finished, the to-do put "next" or off, "还没" answers, a question about it, the person saying
  they will do it themselves, and a restatement of a still-open to-do in new words (must stay ONE
  to-do).
- Most work sessions' final reports also hold 1–3 look-alike sentences that are not open work (how
  the code works now, intended limits, results, a pitfall already fixed, a request to the person
  that is not code work).

BASELINE (unchanged rules of main at f141258, run 2026-11-27 ~01:35 UTC, load 4.2 then 1.9):
``bench_handover_tuning.py --set closing-heldout13``: to-dos captured 29/36 (zh 14/16, en 11/15,
mixed 4/5), finished still shown 16/31, closes right 8 / missed 16 / wrong 0, traps held 27 / sprung
0 / untested 6, spurious_todos 7 of 86 open lines, topics 14/14, files 14/14, leaks 0, context p50
5991 chars, SessionStart p50 74.6 ms. ``bench_todo_check.py --set closing-heldout13 --checkout .``
(words-only trigger, model answer rate 1.0): ask recall of summarizer misses 23/24 (0.958), floor
1/31 finished still shown, traps asked 26/27, 45 questions over 76 turns (0.59 per turn, 0.83 per
work session), wrong closes 0.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

SCENARIOS = [
    # ---- zh: payroll ----
    ("h13-zh-payroll", "zh", [
        S([U("工资系统的个税累计预扣算错了，帮我看看 payroll/tax.py"),
           R("payroll/tax.py"),
           A("问题在累计预扣：年中入职的员工，累计减除费用是按 12 个月算的，应该按实际在职月份。我改成从入职月开始累计。"),
           U("好，改吧"),
           E("payroll/tax.py"), B("pytest tests/test_tax.py -q", True, "18 passed"),
           A("改好了，年中入职的员工现在按在职月份累计减除费用，tests/test_tax.py 18 个都过了。"
             "现在 12 月离职再入职的情况返回的是按新入职重新累计，这是政策要求的。"
             "不过专项附加扣除目前是写死的 1000 元，没从员工资料里读。"
             "另外年终奖单独计税那条路径还没有任何测试。")],
          topic=["累计预扣"], files=["payroll/tax.py"],
          todos=["专项附加扣除目前是写死的", "年终奖单独计税那条路径还没有任何测试"]),
        S([U("专项附加扣除先放一放。把年终奖那块补点测试"),
           R("payroll/bonus.py"), W("tests/test_bonus_tax.py"),
           B("pytest tests/test_bonus_tax.py -q", False, "2 failed, 5 passed"),
           A("补了 7 个用例，有 2 个挂了：36000 元临界点附近的速算扣除数查错了档。我先不动实现，你确认一下口径再修？"
             "累计预扣那边的用例都还是绿的。")],
          traps=["年终奖单独计税那条路径还没有任何测试", "专项附加扣除目前是写死的"],
          todos=["速算扣除数查错了档"]),
        S([U("口径确认了按税表来。修一下然后跑全量"),
           E("payroll/bonus.py"), B("pytest -q", True, "142 passed"),
           A("速算扣除数的档位改成按税表的左闭右开区间，bonus 测试 7 个全过，全量 142 passed。"
             "顺手把工资条 PDF 里的扣除明细列也对齐了，只是样式。工资条邮件还是明文附件发出去的，得加个密码。")],
          done=["年终奖单独计税那条路径还没有任何测试", "速算扣除数查错了档"], todos=["工资条邮件还是明文附件"],
          traps=["专项附加扣除目前是写死的"]),
        S([U("子女教育、房贷利息这些我已经让它从 HR 系统的员工档案里取了，你帮我看下 diff 有没有问题"),
           R("payroll/tax.py"), B("git diff --stat", True, " payroll/tax.py | 40 ++--"),
           A("看过了，读取员工档案的逻辑没问题，缺档案时回退到 0 而不是报错，这个是合理的默认。测试仍然全部通过。")],
          done=["专项附加扣除目前是写死的"]),
        END]),

    # ---- en: mobile banking onboarding ----
    ("h13-en-onboard", "en", [
        S([U("The KYC step in onboarding crashes on Android when the camera permission is denied. See app/onboarding/KycScreen.kt"),
           R("app/onboarding/KycScreen.kt"),
           A("The crash is an unchecked `null` from the camera provider after denial. I'll show the permission rationale and fall back to a file picker."),
           E("app/onboarding/KycScreen.kt"), B("./gradlew :app:testDebugUnitTest", True, "BUILD SUCCESSFUL"),
           A("Fixed: denying the camera now shows the rationale sheet and offers the file picker; unit tests pass. "
             "The selfie liveness check still only works on Pixel devices in my testing. "
             "It'd be nice to resume onboarding where the user left off instead of restarting at step 1. "
             "Please forward the new permission copy to legal — that's not a code change.")],
          topic=["KYC step"], files=["app/onboarding/KycScreen.kt"],
          todos=["still only works on Pixel devices", "resume onboarding where the user left off"]),
        S([U("Let's do the resume thing"),
           R("app/onboarding/OnboardingViewModel.kt"), E("app/onboarding/OnboardingViewModel.kt"),
           W("app/onboarding/OnboardingStore.kt"),
           B("./gradlew :app:testDebugUnitTest", True, "BUILD SUCCESSFUL"),
           A("Progress is now persisted in OnboardingStore after each step; relaunching the app jumps straight back to the last completed step. "
             "Tests pass. The store is encrypted with the same key as the session token, on purpose.")],
          done=["resume onboarding where the user left off"], traps=["still only works on Pixel devices"]),
        S([U("QA says the liveness check on Samsung still times out. Any idea?"),
           R("app/onboarding/Liveness.kt"),
           A("On Samsung the front camera reports a different preview size, so the face box never settles. "
             "I can normalise the frame size, but I'd want a Samsung device to confirm. Want me to try it blind?")],
          traps=["still only works on Pixel devices"], light=True),
        S([U("continue"),
           E("app/onboarding/Liveness.kt"), B("./gradlew connectedAndroidTest -Pdevices=samsung-s21,pixel7,xiaomi13", True, "3 devices: 24 tests passed"),
           A("Normalised the preview to 720p before face detection. Instrumented tests pass on the Samsung S21, Pixel 7 and Xiaomi 13 in the device farm.")],
          done=["still only works on Pixel devices"]),
        END]),

    # ---- zh: medical imaging viewer (LONG session) ----
    ("h13-zh-dicom", "zh", [
        S([U("DICOM 查看器打开 CT 序列要 9 秒，太慢了，看看 viewer/loader.ts"),
           R("viewer/loader.ts"),
           A("现在是把整个序列的切片串行解码。我改成并发解码，先出中间那张。"),
           E("viewer/loader.ts"), B("npm test -- loader", True, "12 passed"),
           A("并发解码上了，打开 512 张的 CT 序列从 9 秒降到 2.1 秒，中间切片先显示。"
             "窗宽窗位的预设现在只支持 CT，MR 序列打开后还是默认值。"
             "回头把测量工具的像素间距换成 DICOM 里的 PixelSpacing，现在是按 1mm 算的。"
             "解码 worker 最多开 4 个，这是故意的，防止低端机卡死。")],
          topic=["CT 序列"], files=["viewer/loader.ts"],
          todos=["MR 序列打开后还是默认值", "测量工具的像素间距换成 DICOM 里的 PixelSpacing"]),
        S([U("今天做几件杂事。先把工具栏的图标换成新的 svg"),
           E("viewer/Toolbar.tsx"), B("npm test -- toolbar", True, "5 passed"),
           A("工具栏图标换好了。"),
           U("序列缩略图加个加载中的骨架屏"),
           E("viewer/Thumbs.tsx"), B("npm test -- thumbs", True, "4 passed"),
           A("骨架屏加上了，缩略图解码完成前显示灰色占位。"),
           U("测量工具那边，先把长度测量的文字标签改成带单位的"),
           E("viewer/tools/measure.ts"), B("npm test -- measure", True, "9 passed"),
           A("长度标签现在显示成 “12.4 mm”，角度显示成 “32°”。数值本身的计算我没动，还是原来的逻辑。"),
           U("键盘快捷键：W 切窗宽，M 切测量"),
           E("viewer/shortcuts.ts"), B("npm test -- shortcuts", True, "6 passed"),
           A("快捷键加好了，测试通过。"),
           U("MR 的话，窗宽窗位从 DICOM 头里的 WindowCenter/WindowWidth 读，没有再按模态给个默认"),
           E("viewer/windowing.ts"), B("npm test -- windowing", True, "11 passed"),
           A("改好了：MR 序列优先读 WindowCenter/WindowWidth 标签，没有就用 T1/T2 的经验预设。11 个用例全过。"),
           U("暗色主题下滚动条太亮，调一下"),
           E("viewer/theme.css"),
           A("滚动条改成半透明的灰色了。"),
           U("导出 PNG 时把患者姓名打码"),
           E("viewer/export.ts"), B("npm test -- export", True, "7 passed"),
           A("导出 PNG 时姓名和出生日期都会打码，测试通过。"),
           U("好，今天就这些，跑一下全量"),
           B("npm test", True, "138 passed"),
           A("全量 138 个都过了。")],
          done=["MR 序列打开后还是默认值"], done_at={"MR 序列打开后还是默认值": 4},
          traps=["测量工具的像素间距换成 DICOM 里的 PixelSpacing"]),
        S([U("测量那个还没弄吧？"),
           A("还没，长度测量现在仍然按每像素 1mm 换算。要现在做吗？")],
          traps=["测量工具的像素间距换成 DICOM 里的 PixelSpacing"], light=True),
        S([U("做吧"),
           E("viewer/tools/measure.ts"), B("npm test -- measure", True, "12 passed"),
           A("测量现在按 (0028,0030) 标签给的行列间距换算成毫米，没有这个标签的老片子会提示“未校准”。12 个用例全过。")],
          done=["测量工具的像素间距换成 DICOM 里的 PixelSpacing"]),
        END]),

    # ---- en: compiler error messages ----
    ("h13-en-diag", "en", [
        S([U("Our compiler's type-mismatch errors point at the wrong column. Look at src/diag/render.rs"),
           R("src/diag/render.rs"),
           A("Columns are counted in bytes, so anything after a multi-byte character is off. I'll count in chars."),
           E("src/diag/render.rs"), B("cargo test diag", True, "test result: ok. 41 passed"),
           A("Columns are now counted in Unicode scalar values; the carets line up under CJK and emoji. 41 diag tests pass.\n\n"
             "Still open:\n"
             "1. tabs are rendered as a single space, so carets drift on tab-indented code\n"
             "2. no \"did you mean\" suggestions for misspelled identifiers\n"
             "3. the `--error-format=json` output has no snapshot tests\n\n"
             "Spans that cross lines are truncated to the first line — that's intended for now, rustc does the same.")],
          topic=["type-mismatch errors"], files=["src/diag/render.rs"],
          todos=["tabs are rendered as a single space", "no \"did you mean\" suggestions",
                 "has no snapshot tests"]),
        S([U("do the json snapshots"),
           W("tests/snapshots/json_errors.rs"), B("cargo insta test", True, "23 snapshots accepted"),
           A("Added 23 insta snapshots covering every error kind in JSON form; they're accepted and pass. "
             "While in there I noticed the JSON `level` field is lowercase, which matches LSP, so I left it.")],
          done=["has no snapshot tests"],
          traps=["tabs are rendered as a single space", "no \"did you mean\" suggestions"]),
        S([U("Now the tab problem"),
           E("src/diag/render.rs"), B("cargo test diag", False, "test diag::tabs_mixed ... FAILED\n1 failed, 44 passed"),
           A("I expand tabs to the next multiple of 4 now, which fixes pure-tab lines, but a mixed tab/space line still misplaces the caret by one. "
             "I'll finish the mixed case next session.")],
          traps=["tabs are rendered as a single space"]),
        S([U("I went ahead and wrote the Levenshtein-based suggestion pass myself last night, it's on main. Just review the mixed-indent caret thing"),
           E("src/diag/render.rs"), B("cargo test diag", True, "test result: ok. 47 passed"),
           A("Fixed the off-by-one: the expansion now tracks the visual column across mixed indentation. All 47 diag tests pass, including tabs_mixed.")],
          done=["no \"did you mean\" suggestions", "tabs are rendered as a single space"]),
        END]),

    # ---- zh: smart-home hub ----
    ("h13-zh-hub", "zh", [
        S([U("智能家居网关接 Zigbee 门锁，配对老是超时，看下 hub/zigbee/pairing.go"),
           R("hub/zigbee/pairing.go"),
           A("配对窗口只开了 30 秒，门锁入网要做安全密钥交换，经常超过。我改成 120 秒，并且入网期间不广播其它设备。"),
           E("hub/zigbee/pairing.go"), B("go test ./hub/zigbee/...", True, "ok  hub/zigbee 1.8s"),
           A("配对窗口改成 120 秒，门锁能配上了，测试通过。现在电池电量上报是 0–200 的原始值，App 上显示的百分比是错的。"
             "目前只支持单个网关，多网关组网还没考虑。"
             "配对期间 LED 会快闪，这是故意的，方便用户确认。")],
          topic=["Zigbee 门锁"], files=["hub/zigbee/pairing.go"],
          todos=["App 上显示的百分比是错的", "目前只支持单个网关"]),
        S([U("下次记得提醒我把固件 OTA 的签名校验补上。今天先弄电量"),
           E("hub/zigbee/battery.go"), B("go test ./hub/zigbee/...", True, "ok  hub/zigbee 1.9s"),
           A("电量现在除以 2 再上报，App 显示 0–100%。另外按你说的记一下：固件 OTA 还没做签名校验。")],
          done=["App 上显示的百分比是错的"], todos=["固件 OTA 的签名校验"],
          traps=["目前只支持单个网关"]),
        S([U("OTA 那块我看了下，先把下载断点续传做了吧，签名的事之后再说"),
           E("hub/ota/download.go"), B("go test ./hub/ota/...", True, "ok  hub/ota 2.4s"),
           A("OTA 下载支持断点续传了，用 Range 头续传，中途断电重启后从已下载的偏移继续。测试通过。"
             "签名校验按你说的还没动，下次再做。")],
          traps=["固件 OTA 的签名校验", "目前只支持单个网关"]),
        S([U("继续"),
           E("hub/ota/verify.go"), W("hub/ota/verify_test.go"), B("go test ./hub/ota/...", True, "ok  hub/ota 2.6s"),
           A("升级包现在用 ed25519 公钥验签，验不过直接丢弃并上报事件。新增的 6 个用例都过了。")],
          done=["固件 OTA 的签名校验"], traps=["目前只支持单个网关"]),
        END]),

    # ---- en: podcast platform (LONG session) ----
    ("h13-en-podcast", "en", [
        S([U("RSS feed generation for the podcast platform is slow for shows with 2k+ episodes. Look at feeds/rss.py"),
           R("feeds/rss.py"),
           A("Every request rebuilds the whole XML. I'll cache the rendered feed per show and invalidate on publish."),
           E("feeds/rss.py"), B("pytest tests/feeds -q", True, "22 passed"),
           A("Feeds are cached per show now and rebuilt on publish; a 2,400-episode feed went from 3.8 s to 40 ms warm. "
             "We should probably paginate with `<podcast:page>` for the huge shows at some point. "
             "Transcripts are uploaded but the feed doesn't emit `<podcast:transcript>` tags yet. "
             "The cache wasn't cleared on episode delete — fixed that too.")],
          topic=["RSS feed generation"], files=["feeds/rss.py"],
          todos=["paginate with `<podcast:page>`", "doesn't emit `<podcast:transcript>` tags yet"]),
        S([U("Bunch of small stuff today. First: the episode page's play count is off by one"),
           E("web/episode.tsx"), B("npm test -- episode", True, "8 passed"),
           A("Off-by-one fixed: the count was incremented before the first chunk was served."),
           U("Add chapter markers to the web player"),
           E("web/player/Chapters.tsx"), B("npm test -- chapters", True, "6 passed"),
           A("Chapter markers show on the scrub bar now."),
           U("The feed cache — add a metric for hit rate"),
           E("feeds/rss.py"), B("pytest tests/feeds -q", True, "23 passed"),
           A("Added `feed_cache_hits_total` and `feed_cache_misses_total`; hit rate is about 97% on staging."),
           U("Speaker names in the transcript viewer are overlapping on mobile"),
           E("web/transcript.css"),
           A("Fixed the overlap with a flex-wrap on the speaker row."),
           U("rename the 'Explicit' toggle to 'Mature content'"),
           E("web/settings/ShowForm.tsx"),
           A("Renamed."),
           U("ok, now hook the transcript files into the feed items"),
           E("feeds/rss.py"), B("pytest tests/feeds -q", True, "26 passed"),
           A("Each item with a transcript now carries a link to the .vtt with `type=\"text/vtt\"` and the language; Apple's validator accepts the feed. 26 feed tests pass."),
           U("The RSS validator warns about missing itunes:image on old episodes — fill them with the show art"),
           E("feeds/rss.py"), B("pytest tests/feeds -q", True, "27 passed"),
           A("Old episodes without art now fall back to the show image; the validator is clean. The feed is still one big document for the 2k-episode shows, I didn't touch that."),
           U("Last: bump the upload size limit to 500MB"),
           E("api/upload.py"), B("pytest tests/api -q", True, "31 passed"),
           A("Limit is 500MB now; tests pass.")],
          done=["doesn't emit `<podcast:transcript>` tags yet"],
          done_at={"doesn't emit `<podcast:transcript>` tags yet": 5},
          traps=["paginate with `<podcast:page>`"]),
        S([U("For the giant shows, split the feed"),
           E("feeds/rss.py"), W("feeds/paging.py"), B("pytest tests/feeds -q", True, "30 passed"),
           A("Feeds over 300 items are now served in pages of 300, each page linking first/next/last per the podcast namespace. 30 tests pass.")],
          done=["paginate with `<podcast:page>`"]),
        END]),

    # ---- mixed: ticketing system ----
    ("h13-mix-ticket", "mixed", [
        S([U("工单系统的 SLA timer 不对，客户回复后应该 pause，看下 tickets/sla.py"),
           R("tickets/sla.py"),
           A("SLA 计时器只在状态变成 pending 时暂停，客户回复走的是 comment 事件，没触发暂停。我在 comment handler 里加上。"),
           E("tickets/sla.py"), B("pytest tests/test_sla.py -q", True, "15 passed"),
           A("客户回复后 SLA timer 会暂停，agent 回复后恢复，15 个测试通过。"
             "节假日日历目前是写死在代码里的，没法按地区配置。"
             "有空的话把 escalation 的邮件换成 Slack 通知。"
             "SLA 按工作时间算，周末不计，这是合同约定的。")],
          topic=["SLA timer"], files=["tickets/sla.py"],
          todos=["节假日日历目前是写死在代码里的", "escalation 的邮件换成 Slack 通知"]),
        S([U("Let's make holidays configurable per region"),
           E("tickets/calendar.py"), W("config/holidays.yaml"), B("pytest tests/test_sla.py -q", True, "19 passed"),
           A("Holidays now come from config/holidays.yaml keyed by region (CN, US, DE to start); the SLA clock skips them. 19 tests pass. "
             "Escalations still go out as email.")],
          done=["节假日日历目前是写死在代码里的"], traps=["escalation 的邮件换成 Slack 通知"]),
        S([U("escalation 那块，先把收件人规则重构一下"),
           E("tickets/escalation.py"), B("pytest tests/test_escalation.py -q", True, "9 passed"),
           A("收件人规则拆成了 by_team / by_priority 两层，行为不变，9 个测试通过。通知渠道还是邮件，Slack 下一步再接。")],
          traps=["escalation 的邮件换成 Slack 通知"]),
        S([U("Slack 那个我上周自己接完了，webhook 已经上线，escalation 现在直接发到 #support-oncall。今天看下报表"),
           R("reports/weekly.py"),
           A("看了周报的 SQL，按团队分组没问题。")],
          done=["escalation 的邮件换成 Slack 通知"]),
        END]),

    # ---- zh: ERP integration ----
    ("h13-zh-erp", "zh", [
        S([U("和金蝶 ERP 的物料同步老是丢数据，看看 erp/sync_materials.py"),
           R("erp/sync_materials.py"),
           A("分页用的是 offset，同步期间有新物料插入就会跳过一条。改成按 modify_time + id 游标翻页。"),
           E("erp/sync_materials.py"), B("pytest tests/erp -q", True, "27 passed"),
           A("改成游标翻页了，昨天丢的 13 条物料补回来了，测试通过。剩下的：\n"
             "- 计量单位换算还没同步\n"
             "- 同步失败没有告警\n"
             "- 供应商主数据的同步还没开始\n"
             "同步每 15 分钟跑一次，是 ERP 那边限流要求的。")],
          topic=["物料同步"], files=["erp/sync_materials.py"],
          todos=["计量单位换算还没同步", "同步失败没有告警", "供应商主数据的同步还没开始"]),
        S([U("先做告警"),
           E("erp/alerts.py"), B("pytest tests/erp -q", True, "30 passed"),
           A("同步连续失败 3 次会发企业微信群消息，带最后一次的错误摘要。测试 30 个通过。")],
          done=["同步失败没有告警"],
          traps=["计量单位换算还没同步", "供应商主数据的同步还没开始"]),
        S([U("供应商那块做到哪了"),
           E("erp/sync_vendors.py"), B("pytest tests/erp/test_vendors.py -q", True, "4 passed"),
           A("供应商的基础字段（编码、名称、税号）能同步了，银行账户和联系人还没接。物料同步这边顺手把日志级别调低了。")],
          traps=["供应商主数据的同步还没开始", "计量单位换算还没同步"]),
        S([U("把供应商剩下的弄完，再把单位换算也搞了"),
           E("erp/sync_vendors.py"), E("erp/sync_units.py"), B("pytest tests/erp -q", True, "41 passed"),
           A("供应商的银行账户和联系人接上了；单位换算表（箱→个、千克→克等 58 条）也同步到本地了。41 个测试通过。")],
          done=["供应商主数据的同步还没开始", "计量单位换算还没同步"]),
        END]),

    # ---- en: satellite telemetry (LONG session) ----
    ("h13-en-telemetry", "en", [
        S([U("The satellite telemetry decoder drops frames when the CRC is fine but the sync marker is split across two reads. See ingest/deframer.py"),
           R("ingest/deframer.py"),
           A("The deframer searches each read buffer independently, so a marker straddling two reads is never seen. I'll keep a 3-byte tail between reads."),
           E("ingest/deframer.py"), B("pytest tests/ingest -q", True, "33 passed"),
           A("Carried a 3-byte tail across reads; frame loss on the replay pass went from 0.7% to 0. 33 tests pass. "
             "The Reed-Solomon decoder is still the pure-Python one, and it's the bottleneck at 2 Mbps. "
             "Housekeeping packets with APID 0x1F are dropped silently — nobody's decided what they mean. "
             "Timestamps are stored in TAI, not UTC; that's deliberate.")],
          topic=["telemetry decoder"], files=["ingest/deframer.py"],
          todos=["still the pure-Python one", "APID 0x1F are dropped silently"]),
        S([U("Small things first. The Grafana dashboard's link budget panel uses the old units"),
           E("dash/link_budget.json"),
           A("Switched the panel to dBW."),
           U("Add a CLI flag to replay a single pass by id"),
           E("ingest/cli.py"), B("pytest tests/ingest/test_cli.py -q", True, "7 passed"),
           A("`ingest replay --pass 4411` works now."),
           U("How fast is the RS decoding right now, ballpark?"),
           B("python bench/rs_decode.py", True, "pure-python: 0.9 Mbps"),
           A("About 0.9 Mbps on one core, so we can't keep up with a 2 Mbps downlink in real time."),
           U("Profile it and see if numpy helps"),
           E("ingest/rs.py"), B("python bench/rs_decode.py", True, "numpy-vectorised: 1.4 Mbps"),
           A("Vectorising the syndrome step with numpy gets it to 1.4 Mbps — better, but still under 2 Mbps. Berlekamp-Massey is still per-byte Python."),
           U("Fix the typo in the README's ground-station section"),
           E("README.md"),
           A("Fixed."),
           U("Rotate the S3 archive prefix to year/month/day"),
           E("ingest/archive.py"), B("pytest tests/ingest -q", True, "35 passed"),
           A("Archives now land under year/month/day."),
           U("OK, swap the RS decoding for the libcorrect binding"),
           E("ingest/rs.py"), B("python bench/rs_decode.py", True, "libcorrect: 38.5 Mbps"),
           B("pytest tests/ingest -q", True, "35 passed"),
           A("RS now goes through libcorrect via cffi: 38.5 Mbps on one core, bit-identical output on the replay corpus. Tests pass."),
           U("Good. That's it for today")],
          done=["still the pure-Python one"], done_at={"still the pure-Python one": 6},
          traps=["APID 0x1F are dropped silently"]),
        S([U("Ops says APID 31 is the battery heater status. Decode it into the housekeeping table"),
           E("ingest/housekeeping.py"), B("pytest tests/ingest -q", True, "38 passed"),
           A("APID 31 packets are decoded now (heater on/off, setpoint, current) and written to housekeeping.heaters. 38 tests pass.")],
          done=["APID 0x1F are dropped silently"]),
        END]),

    # ---- mixed: quiz app ----
    ("h13-mix-quiz", "mixed", [
        S([U("quiz app 的倒计时在后台切回来会跳，看下 src/quiz/Timer.tsx"),
           R("src/quiz/Timer.tsx"),
           A("用的是 setInterval 递减，后台时浏览器会节流。改成记录开始时间，每帧用 Date.now() 算剩余。"),
           E("src/quiz/Timer.tsx"), B("npm test -- Timer", True, "6 passed"),
           A("倒计时现在按开始时间算，切后台再回来不会跳了，测试通过。"
             "排行榜目前每次都全量查库，人一多肯定顶不住。"
             "回头加个题目的 i18n，现在题干只有中文。"
             "答错不扣分，这是产品定的。")],
          topic=["倒计时"], files=["src/quiz/Timer.tsx"],
          todos=["排行榜目前每次都全量查库", "回头加个题目的 i18n"]),
        S([U("Leaderboard: put it in Redis"),
           E("server/leaderboard.ts"), B("npm test -- leaderboard", True, "10 passed"),
           A("Scores now go into a Redis sorted set; the top-100 query is a ZREVRANGE and no longer touches Postgres. p95 went from 420 ms to 6 ms under the k6 load test. 10 tests pass.")],
          done=["排行榜目前每次都全量查库"], traps=["回头加个题目的 i18n"]),
        S([U("i18n 先搭了个架子？"),
           E("src/i18n/index.ts"), B("npm test -- i18n", True, "3 passed"),
           A("i18n 框架搭好了（i18next），按钮和菜单文案已经抽出来了，题库本身的翻译还没做。")],
          traps=["回头加个题目的 i18n"]),
        S([U("continue"),
           E("src/quiz/questions.ts"), W("locales/en/questions.json"), B("npm test", True, "88 passed"),
           A("Question bank now loads per locale: zh and en, 240 questions each, falling back to zh when a translation is missing. All 88 tests pass. The admin question editor still only has a zh field.")],
          done=["回头加个题目的 i18n"], todos=["admin question editor still only has a zh field"]),
        END]),
    # ---- zh: quiz app anti-cheating (exam mode) ----
    ("h13-zh-exam", "zh", [
        S([U("考试模式要防作弊：切出页面超过 3 次自动交卷。看下 exam/guard.ts"),
           R("exam/guard.ts"),
           A("用 visibilitychange 计数，第 3 次切出时弹确认后自动交卷。"),
           E("exam/guard.ts"), B("npm test -- guard", True, "8 passed"),
           A("切屏计数和自动交卷做好了，8 个测试通过。iOS 的 Safari 上锁屏也会触发 visibilitychange，会误判成切屏。"
             "我们最好也记一下每题的作答时长，方便事后查异常。"
             "计数存在 sessionStorage 里，刷新页面不会清零，这是有意的。")],
          topic=["防作弊"], files=["exam/guard.ts"],
          todos=["锁屏也会触发 visibilitychange", "记一下每题的作答时长"]),
        S([U("作答时长先做。iOS 那个我周末自己拿真机调"),
           E("exam/answerLog.ts"), B("npm test -- answerLog", True, "5 passed"),
           A("每道题的进入和离开时间都写进 answer_log 表了，后台能看到每题用时，5 个测试通过。")],
          done=["记一下每题的作答时长"], traps=["锁屏也会触发 visibilitychange"]),
        S([U("iOS 上我试了，用 pagehide 区分锁屏还是不行，你有别的思路吗"),
           A("可以结合 document.hasFocus() 和 blur 的时间差：锁屏时没有 blur 先于 hidden。要我写个实验版吗？")],
          traps=["锁屏也会触发 visibilitychange"], light=True),
        S([U("写吧"),
           E("exam/guard.ts"), B("npm test -- guard", True, "11 passed"),
           A("锁屏和切屏现在能分开了：只有先 blur 再 hidden 才计为切屏，iPhone 13 和 iPad 实机上锁屏都不再计数。11 个测试通过。")],
          done=["锁屏也会触发 visibilitychange"]),
        END]),

    # ---- en: smart-home hub Matter bridge ----
    ("h13-en-matter", "en", [
        S([U("Expose our Zigbee lights through the Matter bridge. Start in bridge/matter/endpoints.py"),
           R("bridge/matter/endpoints.py"),
           A("I'll map each Zigbee light to a Matter On/Off + Level Control endpoint, dynamic endpoints so new lights appear without a restart."),
           E("bridge/matter/endpoints.py"), B("pytest tests/bridge -q", True, "19 passed"),
           A("Lights show up in Apple Home and Google Home and on/off/dim works; 19 tests pass. "
             "Color temperature isn't mapped, so tunable-white bulbs only dim. "
             "After this, remind me to ask the certification lab about the test-harness version. "
             "Commissioning uses the fixed test passcode 20202021 — that's the SDK default for dev builds only.")],
          topic=["Matter bridge"], files=["bridge/matter/endpoints.py"],
          todos=["Color temperature isn't mapped", "ask the certification lab about the test-harness version"]),
        S([U("I emailed the lab, they want TH 2.10. Now the bulbs: brightness transitions are jerky"),
           E("bridge/matter/endpoints.py"), B("pytest tests/bridge -q", True, "21 passed"),
           A("Transitions now pass the Matter transition time through to the Zigbee move-to-level command, so dimming is smooth. 21 tests pass. "
             "Tunable-white is next on my list.")],
          done=["ask the certification lab about the test-harness version"],
          traps=["Color temperature isn't mapped"]),
        S([U("go on"),
           E("bridge/matter/endpoints.py"), E("bridge/matter/clusters.py"), B("pytest tests/bridge -q", True, "26 passed"),
           A("Done — mireds are converted both ways; Apple Home shows the warm/cool slider and it moves the bulbs. 26 tests pass. Zigbee scenes aren't bridged yet, so \"Good night\" can't be triggered from Apple Home.")],
          done=["Color temperature isn't mapped"], todos=["Zigbee scenes aren't bridged yet"]),
        END]),

    # ---- zh: satellite telemetry alert rules ----
    ("h13-zh-alerts", "zh", [
        S([U("遥测告警规则太吵了，电池电压一抖就报警。看看 alerts/rules.py"),
           R("alerts/rules.py"),
           A("阈值判断是单点的，加个持续时间：连续 5 个采样点越限才报。"),
           E("alerts/rules.py"), B("pytest tests/alerts -q", True, "16 passed"),
           A("加了持续时间窗口，昨天的回放里告警从 212 条降到 9 条，测试通过。还差两件：\n"
             "1. 告警规则只能改代码，运维没法自己配\n"
             "2. 过境结束后的告警没有自动恢复\n"
             "阈值用的是工程值不是原始码，这是对的。")],
          topic=["遥测告警"], files=["alerts/rules.py"],
          todos=["告警规则只能改代码", "过境结束后的告警没有自动恢复"]),
        S([U("先做自动恢复"),
           E("alerts/rules.py"), B("pytest tests/alerts -q", False, "1 failed, 18 passed"),
           A("恢复逻辑写了一半：过境结束时会关掉越限告警，但通信中断类的告警也被误关了，有一个用例挂着。")],
          traps=["过境结束后的告警没有自动恢复", "告警规则只能改代码"]),
        S([U("继续"),
           E("alerts/rules.py"), B("pytest tests/alerts -q", True, "19 passed"),
           A("过境结束时只恢复越限类告警，通信中断类保持打开。19 个测试都过了。\n"
             "- 自动恢复：完成\n- 规则配置化：没动")],
          done=["过境结束后的告警没有自动恢复"], traps=["告警规则只能改代码"]),
        S([U("规则配置化上线了吗"),
           A("还没有，规则还在 alerts/rules.py 里。")],
          traps=["告警规则只能改代码"], light=True),
        S([U("把规则挪到 YAML，运维改完热加载"),
           W("config/alert_rules.yaml"), E("alerts/loader.py"), B("pytest tests/alerts -q", True, "24 passed"),
           A("规则现在从 config/alert_rules.yaml 读，文件变了 2 秒内热加载，格式错误时保留旧规则并报错。24 个测试通过。")],
          done=["告警规则只能改代码"]),
        END]),

    # ---- en: event ticketing seat holds ----
    ("h13-en-seats", "en", [
        S([U("Two people can buy the same seat if they check out at the same moment. Look at tickets/holds.py"),
           R("tickets/holds.py"),
           A("The hold is a read-then-write without a lock. I'll make it a single conditional UPDATE ... WHERE held_by IS NULL."),
           E("tickets/holds.py"), B("pytest tests/test_holds.py -q", True, "12 passed"),
           A("Holds are atomic now; a 200-thread race test sells each seat once. 12 tests pass. "
             "Expired holds are only released by a cron every 10 minutes, so seats look taken for too long. "
             "The seat map doesn't refresh live when someone else grabs a seat. "
             "Holds last 8 minutes — that's what the box office asked for.")],
          topic=["same seat"], files=["tickets/holds.py"],
          todos=["only released by a cron every 10 minutes", "doesn't refresh live"]),
        S([U("Seat map first"),
           E("web/SeatMap.tsx"), E("tickets/events.py"), B("npm test -- SeatMap", True, "9 passed"),
           A("I wired a WebSocket channel per event; the seat map now greys out a seat within about a second of someone else holding it. "
             "I also restyled the legend on the seat map. Tests pass.")],
          done=["doesn't refresh live"], traps=["only released by a cron every 10 minutes"]),
        S([U("Tweak the hold cron to run every 5 minutes for now"),
           E("deploy/cron.yaml"),
           A("Cron runs every 5 minutes now. Releasing each hold exactly at expiry is still to do — I'll do it with Redis key expiry next.")],
          traps=["only released by a cron every 10 minutes"]),
        S([U("continue"),
           E("tickets/holds.py"), B("pytest tests/test_holds.py -q", True, "15 passed"),
           A("Each hold now gets a Redis key with an 8-minute TTL; the expiry event frees the seat the moment it lapses, and the cron is gone. 15 tests pass. One gap: a refunded order doesn't put its seats back on sale.")],
          done=["only released by a cron every 10 minutes"], todos=["doesn't put its seats back on sale"]),
        END]),
]
