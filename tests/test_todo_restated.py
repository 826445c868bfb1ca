"""One open to-do, one line (issue 20): a later session that says a still-open to-do again in its own
words — put off, still so, not started, with more detail — carries it over in the words it had, while
two different pieces of work in the same place stay two lines; and the classes of phrasing that
capture missed, each beside a look-alike that is not open work. Phrasings are the test's own (not
taken from any bench set)."""

from __future__ import annotations

import time

import pytest

from code_memory.memory import todos as todo_index
from code_memory.summary.summarize import SummaryOptions, summarize_session
from code_memory.summary.todos import carried_over, from_message, restates, same_todo
from code_memory.timeutil import now_iso
from support.transcripts import TranscriptWriter


@pytest.mark.parametrize("later, earlier, where", [
    # a topic mark, then how it stands (more detail, put off)
    ("限流这块我看了一下，要动网关的插件配置，这周来不及，下次再弄", "限流还没加，压测时接口会被打挂", ()),
    ("灰度那个我研究了下，回头再做", "发布目前是全量的，没有灰度", ()),
    # the same opening words, still so / not started / put off
    ("签名校验还没开始写，密钥轮换的方案我记下了", "签名校验还没做，谁都能调回调接口", ()),
    ("The webhook signature is still unchecked", "the webhook signature isn't verified yet, so anyone can post to it", ()),
    ("The changelog I'll write myself later", "We should add a changelog before the first tag", ()),
    # mixed: Chinese sentence, English subject
    ("Sentry 这块下次再接", "Sentry 还没接，线上报错只能看日志", ()),
    # a place word in the opening words is allowed beside the to-do's own word
    ("导出的表头还没改，下次一起弄", "导出的 Excel 还没有表头", ("导出", "excel")),
    # the same work in other words (near-duplicate)
    ("the retry schedule is still hard-coded", "the retry schedule is hard-coded in the job", ()),
])
def test_a_line_that_says_an_open_todo_again_restates_it(later, earlier, where):
    assert restates(later, earlier, where=set(where))


# siblings: two pieces of work in the same place (the upload), in both languages and mixed
SIBLINGS = [
    ("add a progress bar to the upload", "add retries to the upload"),
    ("the upload has no progress bar yet", "the upload doesn't retry failed chunks yet"),
    ("Progress bar for the upload is not done yet", "Retries for the upload are not done yet"),
    ("上传还没有进度条", "上传还没有重试"),
    ("上传的进度条还没做", "上传的重试还没做"),
    ("上传还得加个进度条", "上传失败没有重试"),
    ("上传这块的进度条下次再加", "上传这块的重试下次再加"),
    ("上传的 progress bar 还没做", "upload 的 retry 还没加"),
    ("给上传加个进度条", "给上传加上失败重试"),
]


@pytest.mark.parametrize("one, other", SIBLINGS + [(b, a) for a, b in SIBLINGS])
def test_two_pieces_of_work_in_the_same_place_stay_two(one, other):
    assert not same_todo(one, other)
    assert not restates(one, other)


@pytest.mark.parametrize("later, earlier", [
    ("上传这块下次再说", "上传还没有重试"),              # the to-do is about 重试, not about 上传
    ("The upload still needs work", "the upload has no retries yet"),
    ("限流的告警还没配", "限流还没加"),                  # opens with words the to-do does not have
    ("We should add a changelog page", "the changelog isn't linked from the README yet"),   # asks for work
])
def test_a_line_about_other_work_or_only_the_place_is_not_a_restatement(later, earlier):
    assert not restates(later, earlier)


def test_carried_over_keeps_the_first_words_and_leaves_an_ambiguous_line_alone():
    open_todos = [("s1", "限流还没加，压测时接口会被打挂"), ("s1", "发布目前是全量的，没有灰度")]
    assert carried_over(["限流这块下次再弄", "日志还没接 Sentry"], open_todos) == \
        ["限流还没加，压测时接口会被打挂", "日志还没接 Sentry"]
    both = [("s1", "限流还没加"), ("s2", "限流的阈值还是写死的")]
    assert carried_over(["限流这块下次再弄"], both) == ["限流这块下次再弄"]


@pytest.mark.parametrize("message, key", [
    # a lead that counts open work after a time word, its items one each
    ("接口都通了。目前还有三件事没弄：\n1. 导出按钮没做权限控制\n2. 金额字段用的是 float\n3. 旧数据没迁", "金额字段用的是 float"),
    ("现在有两个地方还没收尾：日志级别是写死的；配置文件路径用的是绝对路径", "配置文件路径用的是绝对路径"),
    # an English lead: open points / tasks
    ("The sync runs. Open tasks:\n- the export is CSV-only\n- deleted rows are never purged", "export is CSV-only"),
    # left out for the time being
    ("PDF scans are skipped for now since OCR isn't wired in.", "PDF scans are skipped"),
    # a switch that is off
    ("The strict-mode option is off, so type errors only warn.", "strict-mode option is off"),
    # a reference to what is gone
    ("Two links on the FAQ page point to anchors that were removed in the redesign.", "FAQ page"),
    # a wish said through what it would do
    ("Builds take 9 minutes; a dependency cache in CI would speed up every run.", "dependency cache"),
    # a need, then the state that makes it (not a need met)
    ("We should cap the upload size, it accepts any file size right now.", "cap the upload size"),
])
def test_open_work_in_the_classes_capture_missed(message, key):
    todos = from_message(message)
    assert any(key in todo for todo in todos), todos


@pytest.mark.parametrize("message", [
    "目前有两件事已经做完了：日志级别改成读配置；路径改成相对路径。",        # a counting lead of work done
    "Key points:\n- the export streams rows\n- deleted rows are purged nightly",  # a lead that is not open
    "Hidden files are skipped, which is intended.",                          # intended, not for now
    "The debug option is off by default.",                                   # a default
    "The old links used to point to pages that were removed; they redirect now.",   # the past, fixed
    "A second replica would make failover slower, so we kept one.",          # no wish: not a benefit verb
    "We should cap the upload size, and now it's capped at 20 MB.",          # a need met in the sentence
    "鉴权中间件在启动时加载一次，这个目前没问题。",                             # good news, not "not yet"
    "失败的消息留在队列里等下次。",                                            # how it works
    "队列没有设上限，一天最多几十条，用不着。",                                 # not needed
    "It retries jobs that fail later in the day.",                           # "later" of when things happen
    "Rows are kept, so nothing is lost if the customer comes back later.",
    "Not finished.",                                                         # names no work
    "I haven't changed anything yet.",
])
def test_look_alikes_are_no_todo(message):
    assert from_message(message) == []


class NoLLM:
    name = "none"


def _session(paths, tmp_path, cwd, sid, steps, hours_ago):
    path = str(tmp_path / f"{sid}.jsonl")
    with TranscriptWriter(path, session_id=sid, cwd=cwd) as t:
        for kind, text in steps:
            if kind == "user":
                t.user(text)
            elif kind == "say":
                t.say(text)
            elif kind == "edit":
                t.tool("Edit", {"file_path": f"{cwd}/{text}", "old_string": "a", "new_string": "b"})
            else:
                t.tool("Bash", {"command": text}, "ok")
    summarize_session(paths, path, backend=NoLLM(), options=SummaryOptions(),
                      ended_at=now_iso(time.time() - hours_ago * 3600))


def test_a_working_session_that_restates_an_open_todo_leaves_one_line_in_its_first_words(
        initialized_root, project, tmp_path):
    paths = initialized_root
    first = "回调接口的签名校验还没做，谁都能伪造支付结果"
    _session(paths, tmp_path, project, "r1", [
        ("user", "接一下支付回调"), ("edit", "pay/callback.py"), ("bash", "pytest -q"),
        ("say", f"支付回调接好了，测试通过。{first}。")], 3)
    _session(paths, tmp_path, project, "r2", [
        ("user", "回调里的金额单位统一成分"), ("edit", "pay/callback.py"), ("bash", "pytest -q"),
        ("say", "金额单位统一成分了，测试通过。签名校验这块我看了下，要接商户的公钥证书，下次再弄。")], 2)
    listed = todo_index.list_todos(paths, statuses=("open", "carried", "done"))
    live = [t for t in listed if t["status"] == "open"]
    assert [t["text"] for t in live] == [first] and live[0]["session"] == "r2"
    assert [t["status"] for t in listed if t["session"] == "r1"] == ["carried"]


def test_a_not_yet_answer_about_an_open_todo_is_that_todo_unless_it_turns_to_other_work():
    from code_memory.summary.todos import capture, restated
    open_todos = [("s1", "有空把导出的进度提示也加上"), ("s1", "导出还不支持断点续传")]
    answer = "还没，现在导出时只有一个转圈的图标。"
    assert restated(capture(answer, ["进度提示加了吗"], worked=False), ["进度提示加了吗"], open_todos, same_todo,
                    answer) == ["有空把导出的进度提示也加上"]
    other = "还没，不过我发现登录接口没有鉴权。"
    assert restated(capture(other, ["进度提示加了吗"], worked=False), ["进度提示加了吗"], open_todos, same_todo,
                    other) == ["不过我发现登录接口没有鉴权"]


def test_what_is_left_of_asked_work_done_in_part_is_the_asked_todo_still_open():
    from code_memory.summary.todos import half_done
    open_todos = [("s1", "Webhook retries aren't implemented yet, a failed delivery is dropped"),
                  ("s1", "there's no audit page for admins")]
    report = ("Started on the retries: the backoff table is in, but the worker doesn't pick anything up yet. "
              "Also the admin menu has no search box.")
    todos = from_message(report)
    kept = half_done(todos, report, ["add retries for webhooks"], open_todos)
    assert kept == [open_todos[0][1] + " — the worker doesn't pick anything up yet", "the admin menu has no search box"]
    assert same_todo(kept[0], open_todos[0][1])       # the index marks the earlier copy carried over
    # the person asked for the other to-do: the partial work is not it — it is the to-do the report
    # names as begun ("Started on the retries")
    assert half_done(todos, report, ["build the audit page"], open_todos) == kept
    zh = [("s1", "导出的文件名还是乱码"), ("s1", "导出还不支持分页")]
    partial = "分页写了一半：接口加了 page 参数，但前端还没接上，明天继续。"
    assert half_done(from_message(partial), partial, ["今天把分页做一下"], zh) == ["导出还不支持分页，前端还没接上，明天继续"]


@pytest.mark.parametrize("message, todo", [
    ("按用户重新切分了数据，两边没有重叠的用户。", None),             # trouble said absent: good news
    ("换了字体以后标题不会乱码了。", None),
    ("小屏上按钮和标题重叠。", "按钮和标题重叠"),                        # the trouble itself: open
])
def test_a_trouble_state_said_absent_is_no_todo(message, todo):
    todos = from_message(message)
    assert (any(todo in t for t in todos) if todo else todos == []), todos


def test_after_a_failing_run_what_stays_open_of_the_asked_work_is_the_asked_todo():
    from code_memory.summary.todos import half_done
    open_todos = [("s1", "还没有操作日志，谁删了数据查不到")]
    report = "操作日志的写入加上了，但删除那个用例还挂着：事务回滚时日志没撤掉，还没修好。"
    asked = ["操作日志今天能加上吗？"]
    assert half_done(from_message(report), report, asked, open_todos, failed=True)[0].startswith(open_todos[0][1] + "，")
    # the person asked for other work: what the report leaves open stays its own line
    assert half_done(from_message(report), report, ["把导出按钮加上"], open_todos, failed=True) == from_message(report)
