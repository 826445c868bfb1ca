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

14 projects, 3–4 sessions each plus a last start: 6 Chinese, 6 English, 2 mixed (a Chinese speaker
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
- 32 of them finished later in other words (14 Chinese, 14 English, 4 mixed, 3 of them in the other
  language): a synonym, a report with numbers, the person saying they did it (also in a short
  session), a request and work that passes, evidence alone (a bare "continue" / "继续" then the work
  and a passing run), a bulleted status list.
- 23 traps (``traps`` on a session: an open to-do that session must NOT close; 10 Chinese, 9
  English, 4 mixed): other work in the to-do's own area (the same file, worker, page or stack) with
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

BASELINE — BASELINE_PLACEHOLDER
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, U, W
from handover_tuning_set import S as _S


def S(steps, *, traps=(), **planted):
    """A session of ``handover_tuning_set.S`` plus ``traps``: earlier open to-dos (phrases) that this
    session touches, asks about, reports as half done, puts next or off, but does NOT finish — so it
    must not close them."""
    session = _S(steps, **planted)
    session["traps"] = list(traps)
    return session


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
]
