"""To-do CLOSING traps in the classes the wrong closes of the fifth round came from (issue 20):
TUNING data, written by the rule's engineer — an upper bound.

Written by the engineer of the rejecting guards (branch ``wrongs``, 2026-11-26) BEFORE changing any
rule, in his own words: the wrong closes and sprung traps of closing-heldout4/5 (tuning, formerly
blind) and of the lead's probe gave the classes, not the phrasings. Every number on it is an upper
bound: the guards are tuned against it.

10 projects (4 Chinese, 4 English, 2 mixed), 4 sessions each plus a last start. Each first session
leaves two open to-dos; the later sessions spring a trap of one class and, in a neighbouring
session, finish the same to-do in other words (so precision is not bought by never closing):

- the subject said to be left as it was — "the burst refill logic is untouched", "过期清理的逻辑保持
  原样", "缩略图那段原封不动" — while the to-do's own file is edited for other work;
- the to-do names a file, the session edits that file for other work the person asked for, and its
  report restates the to-do in other words ("Nothing executes its snippets yet");
- a to-do that is a scope limit ("only runs on Chromium so far", "目前只在 macOS 上测过") and a
  report of more work within the same scope ("the suite went from 95 s to 41 s on Chromium");
- a sibling named by the same head word with another modifier ("The iOS build is green" for "The
  Android build is still red"; 登录日志 for 操作日志);
- other work on the same object, in a project whose history does not make the object a place
  ("导出的 Excel 现在按金额排列" for "导出的 Excel 还没有表头"; "The CSV export now streams rows" for
  "The CSV export has no column headers").

20 open to-dos planted; 27 traps (``traps``: an open to-do the session must NOT close) and 20 right
closes (``done``). Same shapes as ``handover_tuning_set.py``; ``bench_handover_tuning.py --set
wrongs`` runs it.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

GO = "go test ./..."
PYTEST = "pytest -q"

SCENARIOS = [
    # ---------------------------------------------------------------- English
    ("w-en-limiter", "en", [
        S([U("Build a token-bucket rate limiter middleware for our Go API."),
           W("middleware/limiter.go"), B(GO, True, "ok  \tapi/middleware\t0.18s"),
           A("The limiter works per route with a token bucket. Tests pass. limiter.go has no tests for the burst "
             "refill path yet. The limits are hard-coded in limiter.go.")],
          topic=["token-bucket rate limiter"], files=["middleware/limiter.go"],
          todos=["no tests for the burst refill path", "limits are hard-coded"]),
        S([U("Add a Retry-After header to the 429 responses."),
           E("middleware/limiter.go"), B(GO, True, "ok  \tapi/middleware\t0.19s"),
           A("429 responses now carry Retry-After with the seconds until the next token. Tests pass. I only "
             "touched limiter.go for the header; the burst refill logic is untouched.")],
          traps=["no tests for the burst refill path", "limits are hard-coded"]),
        S([U("Write the tests for the refill after a burst."),
           W("middleware/limiter_test.go"), E("middleware/limiter.go"),
           B("go test ./middleware/ -run Refill -v", True, "--- PASS: TestRefillAfterBurst (0.02s)\nPASS"),
           A("TestRefillAfterBurst and TestRefillCapsAtBucketSize cover the burst refill path; both pass.")],
          done=["no tests for the burst refill path"], traps=["limits are hard-coded"]),
        S([U("Read the limits from config.yaml instead."),
           E("middleware/limiter.go"), W("config.yaml"), B(GO, True, "ok  \tapi/middleware\t0.20s"),
           A("Per-route limits now come from config.yaml, with a default of 100 requests a minute. Tests pass.")],
          done=["limits are hard-coded"]),
        END,
    ]),
    ("w-en-contrib", "en", [
        S([U("Set up a contributing guide and a docs site for the parser library."),
           W("docs/CONTRIBUTING.md"), W("docs/index.md"), W("mkdocs.yml"),
           B("mkdocs build --strict", True, "INFO - Documentation built in 1.42 seconds"),
           A("The docs site builds cleanly with --strict. The code samples in docs/CONTRIBUTING.md aren't run by "
             "CI, so they can drift. There's no page about the release process yet.")],
          topic=["contributing guide"], files=["docs/CONTRIBUTING.md"],
          todos=["code samples in docs/CONTRIBUTING.md aren't run by CI", "no page about the release process"]),
        S([U("Fix the typos people reported in the contributing guide and add a section on commit messages."),
           E("docs/CONTRIBUTING.md"), B("mkdocs build --strict", True, "INFO - Documentation built in 1.40 seconds"),
           A("Fixed the six typos and added a Commit messages section to docs/CONTRIBUTING.md; the strict build "
             "passes. Nothing executes its snippets yet.")],
          traps=["code samples in docs/CONTRIBUTING.md aren't run by CI", "no page about the release process"]),
        S([U("Make CI run the snippets of the contributing guide."),
           E(".github/workflows/docs.yml"), E("docs/CONTRIBUTING.md"),
           B("pytest --doctest-glob='*.md' docs", True, "12 passed in 0.61s"),
           A("The docs workflow now runs every snippet of the contributing guide with pytest's doctest-glob; "
             "12 pass.")],
          done=["code samples in docs/CONTRIBUTING.md aren't run by CI"], traps=["no page about the release process"]),
        S([U("Write the page on how we cut a release."),
           W("docs/releasing.md"), E("mkdocs.yml"), B("mkdocs build --strict", True, "INFO - Documentation built"),
           A("docs/releasing.md covers tagging, the changelog and publishing to PyPI; the build passes.")],
          done=["no page about the release process"]),
        END,
    ]),
    ("w-en-e2e", "en", [
        S([U("Add end-to-end tests for checkout with Playwright."),
           W("e2e/checkout.spec.ts"), W("playwright.config.ts"), B("npx playwright test", True, "6 passed (95s)"),
           A("Six checkout specs pass. The e2e suite only runs on Chromium so far. There's no test for an expired "
             "card yet.")],
          topic=["end-to-end tests for checkout"], files=["e2e/checkout.spec.ts"],
          todos=["only runs on Chromium so far", "no test for an expired card"]),
        S([U("The checkout specs are slow, speed them up."),
           E("e2e/checkout.spec.ts"), E("playwright.config.ts"), B("npx playwright test", True, "6 passed (41s)"),
           A("Reused the signed-in storage state across specs; the e2e suite went from 95 s to 41 s on Chromium. "
             "All 6 pass.")],
          traps=["only runs on Chromium so far", "no test for an expired card"]),
        S([U("Run them on Firefox and WebKit as well."),
           E("playwright.config.ts"), B("npx playwright test", True, "18 passed (2.1m)"),
           A("playwright.config.ts now has Firefox and WebKit projects next to Chromium; 18 passed.")],
          done=["only runs on Chromium so far"], traps=["no test for an expired card"]),
        S([U("Cover paying with a card that has expired."),
           E("e2e/checkout.spec.ts"), B("npx playwright test checkout", True, "21 passed"),
           A("A new spec pays with an expired card and checks the 'card expired' message on all three browsers; "
             "21 pass.")],
          done=["no test for an expired card"]),
        END,
    ]),
    ("w-en-mobileci", "en", [
        S([U("Set up CI for the React Native app."),
           W(".github/workflows/mobile.yml"), B("act -j build", True, "Job succeeded"),
           A("CI builds both apps on every push. The Android build is still red because the NDK version isn't "
             "pinned. Release builds aren't signed in CI yet.")],
          topic=["CI for the React Native app"], files=[".github/workflows/mobile.yml"],
          todos=["Android build is still red", "Release builds aren't signed in CI"]),
        S([U("The iOS build is flaky, fix that first."),
           E(".github/workflows/mobile.yml"), B("act -j ios", True, "Job succeeded"),
           A("The iOS build is green now after pinning Xcode 15.4 and caching the pods; three runs in a row "
             "passed.")],
          traps=["Android build is still red", "Release builds aren't signed in CI"]),
        S([U("Now the Android one."),
           E(".github/workflows/mobile.yml"), E("android/build.gradle"), B("act -j android", True, "Job succeeded"),
           A("Pinned NDK 26.1 in build.gradle and in the workflow; the Android job passes now, twice in a row.")],
          done=["Android build is still red"], traps=["Release builds aren't signed in CI"]),
        S([U("Sign the release builds in CI."),
           E(".github/workflows/mobile.yml"), B("act -j release", True, "Job succeeded"),
           A("Release builds are signed with the upload key from the repository secrets, for both stores; the "
             "workflow passes.")],
          done=["Release builds aren't signed in CI"]),
        END,
    ]),
    ("w-en-invoices", "en", [
        S([U("Add an admin page that lists invoices."),
           W("admin/invoices.py"), W("admin/templates/invoices.html"), B(PYTEST, True, "14 passed"),
           A("The invoices page lists 50 per page with status and date filters. Tests pass. The CSV export has no "
             "column headers yet, and invoice totals aren't rounded to cents.")],
          topic=["admin page that lists invoices"], files=["admin/invoices.py"],
          todos=["CSV export has no column headers", "totals aren't rounded to cents"]),
        S([U("Make the CSV export stream instead of loading everything into memory."),
           E("admin/export.py"), B(PYTEST, True, "15 passed"),
           A("The CSV export now streams rows from a generator, so a 200k-row export stays under 50 MB. Tests "
             "pass.")],
          traps=["CSV export has no column headers", "totals aren't rounded to cents"]),
        S([U("Put a header row on the export."),
           E("admin/export.py"), B(PYTEST, True, "16 passed"),
           A("The first row of the CSV export is now the column headers: number, customer, date, total. Tests "
             "pass.")],
          done=["CSV export has no column headers"], traps=["totals aren't rounded to cents"]),
        S([U("Round the invoice totals to cents."),
           E("admin/invoices.py"), B(PYTEST, True, "17 passed"),
           A("Invoice totals are rounded half-even to two decimals now; tests pass.")],
          done=["totals aren't rounded to cents"]),
        END,
    ]),
    # ---------------------------------------------------------------- Chinese
    ("w-zh-idem", "zh", [
        S([U("给订单服务加一个幂等键的中间件"),
           W("order/idempotency.py"), B(PYTEST, True, "9 passed"),
           A("幂等中间件写好了，同一个 Idempotency-Key 在 24 小时内只处理一次，测试通过。过期清理还没做，键会一直留在 "
             "Redis 里。并发下的重复请求也还没有测试。")],
          topic=["幂等键的中间件"], files=["order/idempotency.py"],
          todos=["过期清理还没做", "并发下的重复请求也还没有测试"]),
        S([U("日志里加上幂等键，方便排查"),
           E("order/idempotency.py"), B(PYTEST, True, "10 passed"),
           A("日志里现在会打印幂等键和是否命中，测试通过。过期清理的逻辑保持原样。")],
          traps=["过期清理还没做", "并发下的重复请求也还没有测试"]),
        S([U("把过期清理做了"),
           E("order/idempotency.py"), B(PYTEST, True, "11 passed"),
           A("键写入时带上 24 小时的 TTL，另外加了个每天凌晨跑的任务扫掉残留的键，测试通过。")],
          done=["过期清理还没做"], traps=["并发下的重复请求也还没有测试"]),
        S([U("补一下并发的测试"),
           W("tests/test_idempotency_concurrency.py"), B(PYTEST, True, "12 passed"),
           A("用 20 个线程同时发同一个幂等键，只有一个请求被处理，其余返回 409，测试通过。")],
          done=["并发下的重复请求也还没有测试"]),
        END,
    ]),
    ("w-zh-admin", "zh", [
        S([U("给后台管理接口加鉴权"),
           W("admin/auth.py"), B(PYTEST, True, "18 passed"),
           A("管理接口现在要求登录并校验角色，测试通过。操作日志还没记。密码强度也没有校验。")],
          topic=["后台管理接口加鉴权"], files=["admin/auth.py"],
          todos=["操作日志还没记", "密码强度也没有校验"]),
        S([U("把登录日志加上，记 IP 和时间"),
           E("admin/auth.py"), B(PYTEST, True, "19 passed"),
           A("登录日志现在会写进 audit_log 表，带 IP、UA 和时间，测试通过。")],
          traps=["操作日志还没记", "密码强度也没有校验"]),
        S([U("管理员改配置的时候也留个记录"),
           E("admin/auth.py"), W("admin/audit.py"), B(PYTEST, True, "21 passed"),
           A("管理员每次改配置都会在 audit_log 里留一条操作日志：谁、什么时候、改了哪个字段，测试通过。")],
          done=["操作日志还没记"], traps=["密码强度也没有校验"]),
        S([U("设置密码时检查一下长度和复杂度"),
           E("admin/auth.py"), B(PYTEST, True, "23 passed"),
           A("设置密码时要求至少 12 位、同时有数字和字母，弱密码直接拒绝，测试通过。")],
          done=["密码强度也没有校验"]),
        END,
    ]),
    ("w-zh-users", "zh", [
        S([U("帮我把用户列表页的分页做了"),
           W("web/users.tsx"), B("npm test -- users", True, "8 passed"),
           A("用户列表分页做好了，每页 20 条，测试通过。另外导出的 Excel 还没有表头，财务看不懂。"
             "列表的搜索框还不支持拼音。")],
          topic=["用户列表页的分页"], files=["web/users.tsx"],
          todos=["导出的 Excel 还没有表头", "搜索框还不支持拼音"]),
        S([U("导出的文件按金额从大到小排一下"),
           E("export/excel.py"), B(PYTEST, True, "6 passed"),
           A("导出的 Excel 现在按金额从大到小排列，测试通过。")],
          traps=["导出的 Excel 还没有表头", "搜索框还不支持拼音"]),
        S([U("导出的 Excel 第一行加上表头"),
           E("export/excel.py"), B(PYTEST, True, "7 passed"),
           A("导出的 Excel 第一行现在是中文表头：订单号、金额、日期，测试通过。")],
          done=["导出的 Excel 还没有表头"], traps=["搜索框还不支持拼音"]),
        S([U("搜索框支持一下拼音搜索"),
           E("web/users.tsx"), B("npm test -- users", True, "10 passed"),
           A("搜索框现在支持拼音和首字母，输入 zs 能搜到张三，测试通过。")],
          done=["搜索框还不支持拼音"]),
        END,
    ]),
    # ---------------------------------------------------------------- mixed
    ("w-mx-updater", "mixed", [
        S([U("把 Tauri 应用的自动更新接上"),
           W("src-tauri/src/updater.rs"), B("cargo test updater", True, "test result: ok. 5 passed"),
           A("自动更新接好了，启动时检查 latest.json。目前只在 macOS 上测过。更新包的签名公钥还是写死在代码里的。")],
          topic=["Tauri 应用的自动更新"], files=["src-tauri/src/updater.rs"],
          todos=["目前只在 macOS 上测过", "签名公钥还是写死在代码里"]),
        S([U("macOS 上再验证一下增量更新"),
           E("src-tauri/src/updater.rs"), B("cargo test updater", True, "test result: ok. 6 passed"),
           A("macOS 上的增量更新也验证过了，从 0.3.1 升到 0.3.2 只下了 4MB，测试通过。")],
          traps=["目前只在 macOS 上测过", "签名公钥还是写死在代码里"]),
        S([U("Windows 和 Linux 上也测一下更新"),
           E("src-tauri/src/updater.rs"), B("cargo test updater", True, "test result: ok. 6 passed"),
           A("Windows 11 和 Ubuntu 22.04 上也跑通了更新流程，NSIS 和 AppImage 两种包都能升级。")],
          done=["目前只在 macOS 上测过"], traps=["签名公钥还是写死在代码里"]),
        S([U("公钥改成从配置读"),
           E("src-tauri/src/updater.rs"), E("src-tauri/tauri.conf.json"),
           B("cargo test updater", True, "test result: ok. 7 passed"),
           A("签名公钥现在从 tauri.conf.json 读，代码里不再有硬编码的 key，测试通过。")],
          done=["签名公钥还是写死在代码里"]),
        END,
    ]),
    ("w-mx-upload", "mixed", [
        S([U("用 FastAPI 写一个图片上传接口"),
           W("api/upload.py"), B(PYTEST, True, "7 passed"),
           A("上传接口写好了，限制 10MB，测试通过。upload.py 里的缩略图生成还是同步的，大图会卡住请求。"
             "文件名也没有去重。")],
          topic=["图片上传接口"], files=["api/upload.py"],
          todos=["缩略图生成还是同步的", "文件名也没有去重"]),
        S([U("上传接口加一个 content-type 白名单"),
           E("api/upload.py"), B(PYTEST, True, "9 passed"),
           A("现在只接受 jpeg、png 和 webp，其它返回 415，测试通过。缩略图那段逻辑原封不动。")],
          traps=["缩略图生成还是同步的", "文件名也没有去重"]),
        S([U("缩略图改成后台任务生成"),
           E("api/upload.py"), W("api/tasks.py"), B(PYTEST, True, "10 passed"),
           A("缩略图交给 Celery 后台任务生成，上传接口 120ms 内就返回，测试通过。")],
          done=["缩略图生成还是同步的"], traps=["文件名也没有去重"]),
        S([U("文件用内容哈希命名存储"),
           E("api/upload.py"), B(PYTEST, True, "11 passed"),
           A("文件现在按 sha256 命名存储，同一张图上传两次只存一份，测试通过。")],
          done=["文件名也没有去重"]),
        END,
    ]),
]
