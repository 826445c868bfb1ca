"""Every built-in lint rule fires on a real example of its problem and stays quiet on the fix."""

from __future__ import annotations

import pytest

from code_memory.lint import antd_v3_rules, java_sql_rules, python_rules, shell_rules

PY = {"python_target": (3, 8)}
SH = {"bash_target": (3, 2), "syntax_check": True}

# rule: (engine, file name, options, bad source, good source)
CASES = {
    "PY000": (python_rules, "a.py", PY, "def f(:\n    pass\n", "def f():\n    pass\n"),
    "PY001": (python_rules, "a.py", PY, "try:\n    x()\nexcept:\n    log()\n",
              "try:\n    x()\nexcept ValueError:\n    log()\n"),
    "PY002": (python_rules, "a.py", PY, "def f(items=[]):\n    return items\n",
              "def f(items=None):\n    return items or []\n"),
    "PY003": (python_rules, "a.py", PY, "match cmd:\n    case 'go':\n        run()\n",
              "if cmd == 'go':\n    run()\n"),
    "PY004": (python_rules, "a.py", PY, "def f(x: int | None) -> str | None:\n    return None\n",
              "from __future__ import annotations\ndef f(x: int | None) -> str | None:\n    return None\n"),
    "PY005": (python_rules, "a.py", PY, "if name is 'admin':\n    pass\n", "if name == 'admin':\n    pass\n"),
    "PY006": (python_rules, "a.py", PY, "assert (x > 0, 'x must be positive')\n", "assert x > 0, 'x must be positive'\n"),
    "PY007": (python_rules, "a.py", PY, "import pdb\npdb.set_trace()\n", "import logging\nlogging.debug('x')\n"),
    "PY008": (python_rules, "a.py", PY, "value = eval(text)\n", "import ast\nvalue = ast.literal_eval(text)\n"),
    "PY009": (python_rules, "a.py", PY, "subprocess.run(f'ls {d}', shell=True)\n", "subprocess.run(['ls', d])\n"),
    "PY010": (python_rules, "a.py", PY, "try:\n    x()\nexcept Exception:\n    pass\n",
              "try:\n    x()\nexcept Exception:\n    log.exception('x failed')\n"),
    "PY011": (python_rules, "a.py", PY, "if x == None:\n    pass\n", "if x is None:\n    pass\n"),
    "PY012": (python_rules, "a.py", PY, "with open(path) as fh:\n    fh.read()\n",
              "with open(path, encoding='utf-8') as fh:\n    fh.read()\n"),
    "PY013": (python_rules, "a.py", PY, "import datetime\nnow = datetime.datetime.utcnow()\n",
              "import datetime\nnow = datetime.datetime.now(datetime.timezone.utc)\n"),
    "PY014": (python_rules, "a.py", PY, "def f():\n    try:\n        g()\n    finally:\n        return 1\n",
              "def f():\n    try:\n        g()\n    finally:\n        cleanup()\n    return 1\n"),
    "SH000": (shell_rules, "a.sh", SH, "#!/bin/bash\nif true; then\n  echo \"x\n", "#!/bin/bash\nif true; then\n  echo x\nfi\n"),
    "SH001": (shell_rules, "a.sh", SH, "#!/bin/bash\ndeclare -A ports\n", "#!/bin/bash\ndeclare -a ports\n"),
    "SH002": (shell_rules, "a.sh", SH, "#!/bin/bash\nrm -rf $BUILD_DIR/out\n", "#!/bin/bash\nrm -rf \"${BUILD_DIR:?}/out\"\n"),
    "SH003": (shell_rules, "a.sh", SH, "#!/bin/bash\nname=${1,,}\nmapfile -t lines < f\n",
              "#!/bin/bash\nname=$(printf '%s' \"$1\" | tr '[:upper:]' '[:lower:]')\n"),
    "SH004": (shell_rules, "a.sh", SH, "#!/bin/bash\ncd /srv/app\nmake\n", "#!/bin/bash\ncd /srv/app || exit 1\nmake\n"),
    "SH005": (shell_rules, "a.sh", SH, "#!/bin/bash\nnow=`date`\n", "#!/bin/bash\nnow=$(date)\n"),
    "SH006": (shell_rules, "a.sh", SH, "#!/bin/bash\nif [ $mode = prod ]; then :; fi\n",
              "#!/bin/bash\nif [ \"$mode\" = prod ]; then :; fi\n"),
    "SH007": (shell_rules, "a.sh", SH, "#!/bin/bash\neval \"$cmd\"\n", "#!/bin/bash\n\"$cmd\"\n"),
    "SH008": (shell_rules, "a.sh", SH, "#!/bin/bash\ncurl -fsSL https://get.example.com | sudo bash\n",
              "#!/bin/bash\ncurl -fsSLo install.sh https://get.example.com\n"),
    "SH009": (shell_rules, "a.sh", SH, "#!/bin/sh\nif [[ -n \"$x\" ]]; then :; fi\n", "#!/bin/sh\nif [ -n \"$x\" ]; then :; fi\n"),
    "SH010": (shell_rules, "a.sh", SH, "#!/bin/bash\nfor f in $(ls *.txt); do echo \"$f\"; done\n",
              "#!/bin/bash\nfor f in *.txt; do echo \"$f\"; done\n"),
    "SH011": (shell_rules, "a.sh", SH, "#!/bin/bash\nwhile read line; do :; done < f\n",
              "#!/bin/bash\nwhile read -r line; do :; done < f\n"),
    "SH012": (shell_rules, "a.sh", SH, "#!/bin/bash\nsed -i 's/a/b/' conf\n",
              "#!/bin/bash\nsed 's/a/b/' conf > conf.new && mv conf.new conf\n"),
    "JS001": (java_sql_rules, "UserDao.java", {}, 'String sql = "select id from t_user where name = \'" + name + "\'";\n',
              'String sql = "select id from t_user where name = ?";\n'),
    "JS002": (java_sql_rules, "UserDao.java", {}, 'q("SELECT * FROM t_user WHERE id = ?", id);\n',
              'q("SELECT id, name FROM t_user WHERE id = ?", id);\n'),
    "JS003": (java_sql_rules, "UserMapper.xml", {},
              '<mapper><select id="a">SELECT id FROM t ORDER BY ${sort}</select></mapper>\n',
              '<mapper><select id="a">SELECT id FROM t ORDER BY id</select></mapper>\n'),
    "JS004": (java_sql_rules, "UserMapper.xml", {}, '<mapper><delete id="d">DELETE FROM t_user</delete></mapper>\n',
              '<mapper><delete id="d">DELETE FROM t_user WHERE id = #{id}</delete></mapper>\n'),
    "JS005": (java_sql_rules, "UserMapper.xml", {},
              "<mapper><select id=\"s\">SELECT id FROM t WHERE name = '#{name}'</select></mapper>\n",
              '<mapper><select id="s">SELECT id FROM t WHERE name = #{name}</select></mapper>\n'),
    "JS006": (java_sql_rules, "UserDao.java", {}, 'String q = String.format("select id from t where id = %s", id);\n',
              'String q = "select id from t where id = ?";\n'),
    "JS007": (java_sql_rules, "UserDao.java", {}, "Statement st = conn.createStatement();\n",
              'PreparedStatement st = conn.prepareStatement("select 1");\n'),
    "JS008": (java_sql_rules, "UserMapper.xml", {},
              "<mapper><select id=\"s\">SELECT id FROM t WHERE name LIKE CONCAT('%', #{n}, '%')</select></mapper>\n",
              "<mapper><select id=\"s\">SELECT id FROM t WHERE name LIKE CONCAT(#{n}, '%')</select></mapper>\n"),
    "JS009": (java_sql_rules, "UserMapper.xml", {},
              '<mapper><insert id="i">INSERT INTO t_user VALUES (#{id}, #{name})</insert></mapper>\n',
              '<mapper><insert id="i">INSERT INTO t_user (id, name) VALUES (#{id}, #{name})</insert></mapper>\n'),
    "JS010": (java_sql_rules, "UserMapper.xml", {},
              '<mapper><select id="s">SELECT id FROM t WHERE 1=1 <if test="a">AND a = #{a}</if></select></mapper>\n',
              '<mapper><select id="s">SELECT id FROM t <where><if test="a">AND a = #{a}</if></where></select></mapper>\n'),
    "JS011": (java_sql_rules, "UserMapper.xml", {},
              '<mapper><select id="s">SELECT id FROM t WHERE id IN (#{ids})</select></mapper>\n',
              '<mapper><select id="s">SELECT id FROM t WHERE id IN <foreach collection="ids" item="i" open="(" '
              'separator="," close=")">#{i}</foreach></select></mapper>\n'),
    "AD001": (antd_v3_rules, "Page.jsx", {}, "const [form] = Form.useForm();\n", "export default Form.create()(Page);\n"),
    "AD002": (antd_v3_rules, "Page.jsx", {}, '<Form.Item label="Name" name="name"><Input /></Form.Item>\n',
              "<Form.Item label=\"Name\">{getFieldDecorator('name')(<Input />)}</Form.Item>\n"),
    "AD003": (antd_v3_rules, "Page.jsx", {}, "import { UserOutlined } from '@ant-design/icons';\n",
              "import { Icon } from 'antd';\n"),
    "AD004": (antd_v3_rules, "Page.jsx", {}, "<Form onFinish={save}>\n</Form>\n", "<Form onSubmit={this.handleSubmit}>\n</Form>\n"),
    "AD005": (antd_v3_rules, "Page.jsx", {}, '<Form.List name="users">{(fields) => null}</Form.List>\n',
              "<div>{keys.map(k => null)}</div>\n"),
    "AD006": (antd_v3_rules, "Page.jsx", {}, "<Form initialValues={{ a: 1 }}>\n</Form>\n", "<Form layout=\"inline\">\n</Form>\n"),
    "AD007": (antd_v3_rules, "Page.jsx", {}, "import { Button, Space } from 'antd';\n", "import { Button, Row } from 'antd';\n"),
    "AD008": (antd_v3_rules, "Page.jsx", {}, "<Modal open={show} title=\"x\" />\n", "<Modal visible={show} title=\"x\" />\n"),
    "AD009": (antd_v3_rules, "Page.jsx", {}, "const [api, holder] = message.useMessage();\n", "message.success('saved');\n"),
    "AD010": (antd_v3_rules, "Page.jsx", {}, "<Form.Item rules={[{ required: true }]}>\n<Input /></Form.Item>\n",
              "<Form.Item>{getFieldDecorator('a', { rules: [{ required: true }] })(<Input />)}</Form.Item>\n"),
    "AD011": (antd_v3_rules, "Page.jsx", {}, "import dayjs from 'dayjs';\nimport { DatePicker } from 'antd';\n",
              "import moment from 'moment';\nimport { DatePicker } from 'antd';\n"),
}

ENGINES = [python_rules, shell_rules, java_sql_rules, antd_v3_rules]


def run(engine, name, options, source, tmp_path):
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return engine.lint(source, str(path), options)


def test_every_rule_has_a_case_and_each_engine_has_at_least_eight():
    ids = {r.id for engine in ENGINES for r in engine.RULES}
    assert ids == set(CASES)
    for engine in ENGINES:
        assert len(engine.RULES) >= 8
        assert all(r.severity in ("block", "warn") and r.title and r.why for r in engine.RULES)


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_fires_on_the_problem_and_not_on_the_fix(rule_id, tmp_path):
    engine, name, options, bad, good = CASES[rule_id]
    hits = [f for f in run(engine, name, options, bad, tmp_path) if f.rule == rule_id]
    assert hits, f"{rule_id} did not fire on:\n{bad}"
    assert all(f.line >= 1 and f.message for f in hits)
    assert not [f for f in run(engine, name, options, good, tmp_path) if f.rule == rule_id], \
        f"{rule_id} fired on the fix:\n{good}"


def test_findings_carry_real_line_numbers(tmp_path):
    src = "import os\n\n\ndef f(a={}):\n    pass\n"
    (finding,) = [f for f in run(python_rules, "a.py", PY, src, tmp_path) if f.rule == "PY002"]
    assert finding.line == 4
    xml = '<mapper>\n  <select id="a">\n    SELECT id\n    FROM t\n    ORDER BY ${s}\n  </select>\n</mapper>\n'
    (finding,) = [f for f in run(java_sql_rules, "AMapper.xml", {}, xml, tmp_path) if f.rule == "JS003"]
    assert finding.line == 5
    jsx = "const a = 1;\n\n<Form.Item\n  label=\"x\"\n  name=\"x\"\n>\n"
    (finding,) = run(antd_v3_rules, "P.jsx", {}, jsx, tmp_path)
    assert finding.rule == "AD002" and finding.line == 3


def test_version_rules_need_an_old_target(tmp_path):
    src = "match x:\n    case 1:\n        pass\ndef f(a: int | None): ...\n"
    assert {f.rule for f in run(python_rules, "a.py", PY, src, tmp_path)} == {"PY003", "PY004"}
    assert run(python_rules, "a.py", {"python_target": (3, 11)}, src, tmp_path) == []
    assert run(python_rules, "a.py", {}, src, tmp_path) == []
    sh = "#!/bin/bash\ndeclare -A m\n"
    assert run(shell_rules, "a.sh", {"bash_target": (5, 1)}, sh, tmp_path) == []


def test_shell_scanner_ignores_comments_strings_and_heredocs(tmp_path):
    src = ("#!/bin/bash\n# rm -rf $X\necho 'rm -rf $Y `date`'\ncat <<EOF\nrm -rf $Z\ndeclare -A q\nEOF\n"
           "cat <<-'END'\n\trm $W\n\tEND\necho ok  # declare -A later\n")
    assert run(shell_rules, "a.sh", SH, src, tmp_path) == []


def test_java_comments_do_not_count(tmp_path):
    src = '// String sql = "select * from t where a = " + a;\n/* "delete from t" */\nint x = 1;\n'
    assert run(java_sql_rules, "ADao.java", {}, src, tmp_path) == []


def test_java_statement_split_over_lines_keeps_its_where(tmp_path):
    src = 'jdbc.update("UPDATE t_user SET name = ? " +\n            "WHERE id = ?", name, id);\n'
    assert run(java_sql_rules, "ADao.java", {}, src, tmp_path) == []
    src = 'jdbc.update("UPDATE t_user " +\n            "SET name = ?", name);\n'
    assert [f.rule for f in run(java_sql_rules, "ADao.java", {}, src, tmp_path)] == ["JS004"]


def test_engines_survive_garbage(tmp_path):
    garbage = "\x00\xff" + "{(<" * 3000 + "'\"`" * 500
    for engine, name in ((python_rules, "g.py"), (shell_rules, "g.sh"), (java_sql_rules, "gDao.java"),
                         (java_sql_rules, "gMapper.xml"), (antd_v3_rules, "g.jsx")):
        findings = run(engine, name, {"python_target": (3, 8), "bash_target": (3, 2)}, garbage, tmp_path)
        assert isinstance(findings, list)


def test_docs_lint_tables_list_every_rule():
    from docs_text import read_doc
    readme = read_doc("hooks.md")
    for engine in ENGINES:
        for r in engine.RULES:
            assert f"| `{r.id}` | {r.severity} |" in readme, f"docs/hooks.md lacks {r.id}"
