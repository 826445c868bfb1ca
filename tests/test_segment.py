import pytest

from code_memory.text import query as querytext
from code_memory.text.segment import BigramSegmenter, DictSegmenter, _cut_run, get_segmenter, has_cjk


@pytest.fixture(scope="module")
def dict_segmenter(tmp_path_factory):
    seg = get_segmenter("auto", bulk=True, cache_dir=str(tmp_path_factory.mktemp("segcache")))
    if not isinstance(seg, DictSegmenter):
        pytest.skip("jieba is not installed")
    return seg


SENTENCES = ["我们在北京工作并且研究自然语言处理", "范廷颂是越南罗马天主教枢机", "数据库连接池的最大连接数设为二十",
             "小明硕士毕业于中国科学院计算所", "他来到了网易杭研大厦", "不要在循环里面创建线程池"]


def test_cut_matches_jieba_without_hmm(dict_segmenter):
    jieba = pytest.importorskip("jieba")
    for sentence in SENTENCES:
        words, _ = _cut_run(sentence, dict_segmenter.lexicon)
        assert words == list(jieba.cut(sentence, HMM=False)), sentence


def test_search_tokens_include_words_grams_and_bigrams(dict_segmenter):
    tokens = dict_segmenter.run_tokens("中国科学院计算所")
    assert {"中国", "科学", "科学院", "中国科学院"} <= set(tokens)   # search-mode words and their grams
    assert "国科" in tokens                                          # character bigrams
    assert all(len(t) >= 2 for t in tokens)


def test_unknown_names_are_findable(dict_segmenter):
    q = querytext.query_terms("李小福在哪里", dict_segmenter)
    assert "李小" in q["terms"] and "小福" in q["terms"]
    assert "哪里" not in q["terms"]


def test_query_stopwords_and_their_bigrams_are_dropped(dict_segmenter):
    q = querytext.query_terms("截尾鹦嘴鱼主要吃什么？", dict_segmenter)
    assert "什么" not in q["terms"] and "吃什" not in q["terms"] and "么？" not in q["terms"]
    assert "鹦嘴" in q["terms"]


def test_sqlite_and_memory_lexicons_agree(dict_segmenter, tmp_path_factory):
    query_side = get_segmenter(dict_segmenter.name, cache_dir=str(tmp_path_factory.getbasetemp() / "segcache0"))
    for sentence in SENTENCES:
        assert query_side.run_tokens(sentence) == dict_segmenter.run_tokens(sentence)


def test_bigram_fallback_and_search_text():
    seg = BigramSegmenter()
    assert seg.run_tokens("光荣使命") == ["光荣", "荣使", "使命"]
    text = seg.search_text("use 光荣 here")
    assert "光荣" in text.split() and "use" in text
    assert not has_cjk("plain ascii") and has_cjk("中")


def test_single_character_query_becomes_prefix():
    q = querytext.query_terms("锁", BigramSegmenter())
    assert q["terms"] == [] and q["prefixes"] == ["锁"]
    assert querytext.match_expression(q["terms"], q["prefixes"]) == '"锁"*'


@pytest.mark.parametrize("query", [
    'AND OR NOT', 'a "quoted" phrase', 'unbalanced "quote', 'NEAR(a b)', 'col:value', '-negated *star',
    "what's the (weird) {syntax}?!", "^caret $dollar", "x" * 5000,
])
def test_match_expression_is_always_plain_terms(query):
    q = querytext.query_terms(query, BigramSegmenter())
    expr = querytext.match_expression(q["terms"], q["prefixes"])
    for part in expr.split(" OR ") if expr else []:
        assert part.startswith('"') and (part.endswith('"') or part.endswith('"*'))
