from collections import Counter
from dataclasses import replace
from itertools import chain

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ctxopt.lexical import (
    LexicalIndex,
    _compounds,
    _identifier_terms,
    _identifiers,
    abbreviation_terms,
    file_documents,
    joined_words,
    query_terms,
    terms_weight,
    text_terms,
)
from ctxopt.seeds import relevance
from ctxopt.task import parse_task


def _files(**texts: str) -> LexicalIndex:
    return LexicalIndex(file_documents(path, text, None) for path, text in texts.items())


def test_a_code_with_digits_is_one_term_in_code_and_in_the_task() -> None:
    assert text_terms('id = "E3057"')["=e3057"] == 1
    assert query_terms(parse_task("E3057 does not check the value"))["=e3057"] == 2
    index = _files(**{"rules/origin.py": 'class OriginId:\n    id = "E3057"\n',
                      "rules/other.py": 'class Other:\n    id = "E3058"\n'})
    scores = index.score_files(query_terms(parse_task("E3057 does not check the value")))
    assert list(scores) == ["rules/origin.py"]


def test_only_rule_like_codes_count_twice_in_the_task() -> None:
    terms = query_terms(parse_task("gcc for mingw w64 fails with W8001"))
    assert terms["=w8001"] == 2 and terms["=w64"] == 1


def test_short_codes_and_plain_words_get_no_whole_term() -> None:
    assert "=v1" not in text_terms("v1 = 2")
    assert not [t for t in text_terms("value = other") if t.startswith("=")]


def test_a_kebab_case_compound_is_one_term_beside_its_words() -> None:
    terms = text_terms('self.add_message("used-before-assignment", node=node)')
    assert terms["=used-before-assignment"] == 1
    assert terms["assign"] == 1  # the words still count on their own
    assert query_terms(parse_task("`used-before-assignment` FP in finally"))[
        "=used-before-assignment"] == 1


def test_subtraction_is_not_a_compound() -> None:
    assert not [t for t in text_terms("n = size-1 - offset\nx = a - b") if "-" in t]


def test_compounds_are_whole_dash_joined_words_only() -> None:
    text = ("no-cache x-1 a-b- -c-d e-f_g é-h i-j\nk-l.m-n foo-bar-baz 9x-y\n"
            "used-before-assignment")
    compounds = [t for t in text_terms(text) if "-" in t]
    assert compounds == ["=no-cache", "=é-h", "=i-j", "=k-l", "=m-n", "=foo-bar-baz",
                         "=used-before-assignment"]


def test_a_full_table_of_known_identifiers_gives_the_same_terms(monkeypatch) -> None:
    from ctxopt import lexical
    from ctxopt.parsing.parse import parse_file

    source = b"class TopLevel:\n    def some_method(self, x_1):\n        return other_name(x_1)\n"
    parsed = parse_file("pkg/mod.py", source)
    documents = file_documents("pkg/mod.py", parsed.text, parsed.tags)
    monkeypatch.setattr(lexical, "_known_terms", lexical._KnownTerms())
    monkeypatch.setattr(lexical, "_KNOWN_TERMS_MAX", 1)
    full = file_documents("pkg/mod.py", parsed.text, parsed.tags)
    assert len(lexical._known_terms) == 1
    assert [list(d.items()) for d in full.definitions] == [
        list(d.items()) for d in documents.definitions]
    assert list(full.file.items()) == list(documents.file.items())


def test_adjacent_task_words_meet_the_identifier_they_spell() -> None:
    assert "=profile_detect" in joined_words("run conan profile detect")
    assert "=documenttype" in joined_words("the document type is wrong")
    assert "=of_the" not in joined_words("the end of the line")  # stop words only
    index = _files(**{"cli/profile.py": "def profile_detect(args):\n    return args\n",
                      "cli/misc.py": "def detect(profile):\n    return profile\n"})
    scores = index.score_files(query_terms(parse_task("profile detect overwrites the file")))
    assert max(scores, key=scores.get) == "cli/profile.py"



def test_the_index_fingerprint_follows_the_version_of_the_stored_terms(monkeypatch) -> None:
    from ctxopt import lexical
    from ctxopt.files.safety import HygieneConfig
    from ctxopt.store.schema import fingerprint

    before = fingerprint(HygieneConfig())
    monkeypatch.setattr(lexical, "DOCUMENTS_VERSION", lexical.DOCUMENTS_VERSION + 1)
    assert fingerprint(HygieneConfig()) != before


def test_a_huge_task_gives_a_bounded_query() -> None:
    from ctxopt.task import MAX_TASK_KEYWORDS, MAX_TASK_SYMBOLS, limit_task

    log = " ".join(f"word{i} value-v{i} other{i}" for i in range(3000))
    task, _ = limit_task(parse_task(log))  # as the pipeline cuts it
    assert len(query_terms(task)) <= 4 * (MAX_TASK_KEYWORDS + MAX_TASK_SYMBOLS)


def test_a_path_extension_and_one_letter_fragments_are_no_query_names() -> None:
    # `js` of square.js is the file's type and `b` of a"b.dtd a piece of a literal
    terms = query_terms(parse_task('square.js shows a"b.dtd wrong'))
    assert "=js" not in terms and terms["js"] == 1  # a word of code that handles .js files
    assert "=b" not in terms
    assert terms["=square"] and terms["=dtd"]
    assert query_terms(parse_task("fix `b`"))["=b"] == 1  # a name written as code stays
    # a path without an extension keeps its last part ("matched/copied" is two words)
    assert {"=matched", "=copied"} <= set(query_terms(parse_task("log files matched/copied")))


def test_the_extension_of_a_repository_file_named_by_its_path_is_no_word() -> None:
    # trial 21: "fix CrLf in weird/crlf.go" matched the `//go:build` line of every Go file
    # holding one, and their best definitions filled the budget as signatures
    task = parse_task("fix CrLf in weird/crlf.go")
    assert query_terms(task)["go"] == 1  # a path the repository may not hold: a word
    named = replace(task, addresses=("weird/crlf.go",))  # as ``seeds.in_repository`` finds it
    assert "go" not in query_terms(named) and query_terms(named)["crlf"]


def test_abbreviations_and_compounds_are_learned_from_the_repository_names() -> None:
    names = ["DocumentType", "load_config", "attribute_names", "get_repo", "Message", "parse_url"]
    assert abbreviation_terms(["doctype"], names) == {"=documenttype": 1}
    assert abbreviation_terms(["cfg", "msg"], names) == {"config": 1, "messag": 1}
    assert abbreviation_terms(["attr"], names) == {"attribut": 1}  # a prefix of a name's word
    assert abbreviation_terms(["repository"], names) == {"repo": 1}  # a name's word is its prefix
    # an inflection is no abbreviation, a compound of two words is no prefix, a skeleton
    # stands for a short word only, a word that fits many says nothing
    assert abbreviation_terms(["urls", "parseurl"], ["parse_url", "url"]) == {"=parse_url": 1}
    assert abbreviation_terms(["headline"], ["head", "line"]) == {}
    assert abbreviation_terms(["cfg"], ["conflicting"]) == {}
    assert abbreviation_terms(["con"], ["config", "connect", "console", "constant"]) == {}


def test_a_task_word_no_document_holds_meets_the_names_it_abbreviates(make_repo, build_index) -> None:
    index = build_index(make_repo({
        "settings.py": "def load_config(path):\n    return open(path).read()\n",
        "dom.py": "class DocumentType:\n    def writexml(self, writer):\n        writer.write(self.name)\n",
        "text.py": "def tokenize(text):\n    return text.split()\n",
    }))
    assert list(relevance(index, parse_task("the cfg is ignored"))) == ["settings.py#0"]
    best = max(relevance(index, parse_task("a doctype is written wrong")).items(), key=lambda r: r[1])
    assert index.definition(best[0]).name == "DocumentType"


def test_a_word_the_query_ignores_is_not_taken_for_an_abbreviation(make_repo, build_index) -> None:
    # `object` and `import` are code stop words: no term, so no document holds them
    index = build_index(make_repo({"a.py": "def obj_importer(objects):\n    return objects\n"}))
    assert relevance(index, parse_task("the object import breaks")) == {}


def test_identifiers_of_any_script_are_whole_terms() -> None:
    # trial: "grüße" was the terms "gr" and "e", "über-größe" no compound
    terms = text_terms("def grüße(name):\n    return größe_berechnen(über-größe)\n")
    assert {"grüße", "größe", "berechnen", "=größe_berechnen", "=über-größe"} <= set(terms)
    assert not {"gr", "e", "ber"} & set(terms)
    assert "=grüße_senden" in joined_words("fix grüße senden")


@given(st.lists(st.sampled_from(["run", "the", "profile", "detect", "a-b", "x", "\n", " ", "é-ü"]),
                max_size=60).map(" ".join), st.integers(0, 12))
def test_the_first_joined_words_and_compounds_are_those_of_the_whole_text(text, limit) -> None:
    # a pasted log's task: the first 64 are taken, no longer after finding them all
    assert joined_words(text, limit=limit) == joined_words(text)[:limit]
    assert _compounds(text, limit) == _compounds(text)[:limit]


def test_numbers_and_hex_literals_give_the_terms_of_the_identifiers_they_hold() -> None:
    # `0x1F` holds the identifier x1F (a name with digits: one term), `2nd` holds nd,
    # `12` and `0_1` none (`_1` is one, but one that gives no term)
    assert text_terms("a = 0x1F + 12 + 0_1; 2nd_value(3)") == Counter(
        {"=x1f": 1, "nd": 1, "valu": 1, "=nd_value": 1})


@given(st.lists(st.sampled_from(["get_value", "0x1F", "12", "2nd", "_1", "a9", "HTTPAdapter",
                                 "x-ray", "grüße", "n-1", "9é", "é9", "(", ".", "\n", " ", "-",
                                 "'", "\t", "§"]), max_size=40).map("".join))
def test_text_terms_are_those_of_its_identifiers_then_its_compounds(text) -> None:
    # the definition of the terms, without the faster reading of ASCII text
    tokens = _identifiers(text) + _compounds(text)
    expected = Counter(chain.from_iterable(map(_identifier_terms, tokens)))
    assert list(text_terms(text).items()) == list(expected.items())


@pytest.mark.parametrize("text", ["session.send(request)  # send it again", "x = 1", "",
                                  "SendRequest send_request send-request"])
def test_terms_weight_is_the_sum_over_the_distinct_terms_of_the_text(text) -> None:
    # issue 14: salient_lines weighs each line of a block this way, without text_terms
    weights = {"send": 0.5, "request": 2.0, "again": 0.25}
    assert terms_weight(text, weights) == sum(weights.get(t, 0.0) for t in text_terms(text))


_POSTINGS_SOURCES = {
    # module-level lines first, nested definitions, a parent's words, a path word
    "pkg/store_get.py": "import os\nVALUE = get_value(os)\n\n"
                        "class Store:\n    '''Store values.'''\n    limit = 3\n\n"
                        "    def get(self, key):\n        def inner(store_key):\n"
                        "            return store_key\n        return inner(key) or self.limit\n\n"
                        "def get_get(get):\n    return get\n",
    # a definition first (its counts are the file's first), a name only its definition holds
    "a.py": "def alpha(beta):\n    return beta\nalpha(1)\n",
    # counts past 256 (ints that are not shared objects), and a one-line class
    "big/many.py": "def loop():\n" + "    total = total + total_value\n" * 300
                   + "class K: pass\n" + "x = total\n" * 270,
    "uni/grüße.py": "def grüße(größe):\n    return größe + größe_2\n",
}


@pytest.mark.parametrize("path", sorted(_POSTINGS_SOURCES))
def test_file_postings_are_the_postings_of_the_file_documents(path) -> None:
    """The indexer's one-pass postings (``file_postings``) store what ``postings_of`` the
    documents did, in any order (compared unpacked: marshal's bytes for one value depend
    on whether other references to it are alive, review 35)."""
    import marshal
    from ctxopt.lexical import file_postings
    from ctxopt.parsing.parse import parse_file
    from ctxopt.store.lexical import postings_of

    parsed = parse_file(path, _POSTINGS_SOURCES[path].encode())
    assert parsed.tags.definitions
    expected = postings_of(file_documents(path, parsed.text, parsed.tags))
    found = file_postings(path, parsed.text, parsed.tags)
    assert found[:3] == expected[:3]

    def unpacked(rows):
        return sorted((term, marshal.loads(data)) for term, data in rows)
    assert unpacked(found[3]) == unpacked(expected[3])
    empty = file_postings(path, "", None)
    assert empty[:3] == postings_of(file_documents(path, "", None))[:3]
    assert unpacked(empty[3]) == unpacked(postings_of(file_documents(path, "", None))[3])
