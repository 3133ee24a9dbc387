"""The ring walker on the fixtures and on small graphs."""
import json
import math

import pytest

from ctxopt.model import RING_BANDS, Tier
from ctxopt.task import parse_task
from ctxopt.lexical import query_terms
from ctxopt.seeds import WordMatches, built_from, files_named, in_repository
from ctxopt.walk import WalkConfig, _rank_files, find_seeds, walk_rings


@pytest.fixture
def py_index(fixture_repo, build_index):
    return build_index(fixture_repo("py_storage"))


def _by_symbol(items):
    best = {}
    for item in items:
        if item.symbol and item.symbol not in best:
            best[item.symbol] = item
    return best


def test_fix_storage_bug_finds_definition_methods_callers_and_tests(py_index) -> None:
    items = walk_rings(py_index, parse_task("fix Storage bug"))
    found = _by_symbol(items)
    assert found["Storage"].ring == 0 and found["Storage"].reason == "definition of Storage"
    for method in ("Storage.get", "Storage.put", "Storage.delete"):
        assert found[method].ring == 1 and found[method].reason == "member of Storage"
    assert found["CountingStorage"].ring == 1  # subclass
    assert found["make_service"].ring == 2 and found["make_service"].reason == "calls Storage"
    assert found["UserService.rename_user"].reason == "calls Storage.get"
    assert found["test_put_then_get"].ring == 2
    assert found["test_put_then_get"].reason.startswith("tests Storage")


def test_go_storage_methods_callers_and_tests(fixture_repo, build_index) -> None:
    index = build_index(fixture_repo("go_storage"))
    found = _by_symbol(walk_rings(index, parse_task("fix Storage bug")))
    assert found["Storage"].ring == 0
    assert found["Storage.Get"].ring == 1 and found["Storage.Put"].ring == 1
    assert found["Handler.ServeHTTP"].ring == 2
    assert found["TestGetMissing"].reason.startswith("tests ")


def test_score_bands_and_order(py_index) -> None:
    items = walk_rings(py_index, parse_task("fix Storage bug"), WalkConfig(max_ring=4))
    ring0_low = min(i.score for i in items if i.ring == 0)
    for item in items:
        band = RING_BANDS[item.ring]
        assert band.low <= item.score <= band.low + band.span
        assert Tier.of(item.score) is (Tier.TRUNCATE if item.ring == 0 else
                                       Tier.SIGNATURE if item.ring in (1, 2) else Tier.WHOLE)
        if item.ring > 0:
            assert item.score < ring0_low
    keys = [(-i.score, i.path, i.start_line, i.end_line) for i in items]
    assert keys == sorted(keys)


@pytest.mark.parametrize("max_ring", [0, 1, 2, 3, 4])
def test_max_ring_bounds_the_walk(py_index, max_ring: int) -> None:
    items = walk_rings(py_index, parse_task("fix Storage bug"), WalkConfig(max_ring=max_ring))
    assert items and max(i.ring for i in items) <= max_ring


def test_ring3_siblings_and_ring4_callers_of_callers(py_index) -> None:
    found = _by_symbol(walk_rings(py_index, parse_task("fix Storage bug"), WalkConfig(max_ring=4)))
    assert found["StorageError"].ring == 3
    assert found["StorageError"].reason == "in the same file as Storage"
    assert found["main"].ring == 4 and found["main"].path == "app/cli.py"


def test_no_tests_and_scope(py_index) -> None:
    no_tests = walk_rings(py_index, parse_task("fix Storage bug"), WalkConfig(include_tests=False))
    assert not any(i.path.startswith("tests/") for i in no_tests)
    scoped = walk_rings(py_index, parse_task("fix Storage bug"), WalkConfig(scope="app"))
    assert scoped and all(i.path.startswith("app/") for i in scoped)


def _named_seeds(index, text):
    return [index.definition(s.node).qualified_name for s in find_seeds(index, parse_task(text))
            if s.reason.startswith("definition of")]


def test_qualified_and_case_insensitive_seeds(py_index) -> None:
    assert _named_seeds(py_index, "fix Storage.delete") == ["Storage.delete"]
    assert _named_seeds(py_index, "what is `storageerror`") == ["StorageError"]


def test_plural_names_the_singular_definition(py_index) -> None:
    assert _named_seeds(py_index, "Make UserServices faster") == ["UserService"]


def test_word_matches_rank_below_named_symbols(py_index) -> None:
    seeds = find_seeds(py_index, parse_task("fix Storage.delete when the key is missing"))
    assert py_index.definition(seeds[0].node).qualified_name == "Storage.delete"
    assert all(s.quality < seeds[0].quality for s in seeds[1:])
    assert seeds[1:] and all(" matches " in s.reason for s in seeds[1:])


def test_keywords_seed_when_no_symbol_matches(py_index) -> None:
    # stemming: "renamed" meets `rename_user`
    seeds = find_seeds(py_index, parse_task("users cannot be renamed"))
    names = [py_index.definition(s.node).qualified_name for s in seeds
             if not py_index.is_file(s.node)]
    assert names[0] == "UserService.rename_user"
    assert all(s.quality < 1 for s in seeds)


def test_file_path_seed(py_index) -> None:
    items = walk_rings(py_index, parse_task("explain app/cli.py"))
    assert items[0].path == "app/cli.py" and items[0].ring == 0
    assert items[0].reason == "file app/cli.py named in the task"


def test_path_and_symbol_prefer_the_symbol_in_that_file(make_repo, build_index) -> None:
    root = make_repo({"db.py": "def load_rows():\n    pass\n",
                      "csv_io.py": "def load_rows():\n    pass\n"})
    index = build_index(root)
    seeds = find_seeds(index, parse_task("speed up load_rows in db.py"))
    assert [(index.path_of(s.node), s.reason) for s in seeds] == [
        ("db.py", "definition of load_rows in db.py"),
        ("csv_io.py", "definition of load_rows"),
    ]


def test_a_namespace_word_seeds_no_file(make_repo, build_index) -> None:
    # trial 12: `namespace Slim\Routing;` was a definition holding its whole file, so a word
    # of the namespace seeded every file declaring it and showed their `use` lists
    header = "<?php\nnamespace Vendor\\Kit;\n\nuse Psr\\Http\\Message;\n\n"
    root = make_repo({"src/Route.php": header + "class Route {\n  function run() {}\n}\n",
                      "src/Group.php": header + "class Group {\n  function add() {}\n}\n"})
    assert find_seeds(build_index(root), parse_task("Vendor Kit fails")) == []


def test_a_private_camel_case_name_seeds_its_definition(make_repo, build_index) -> None:
    # trial 37: "fix _outputSurrogates" was read as the words output and surrogates, whose
    # best match, _outputSurrogatePair, came first
    root = make_repo({"src/Gen.java": "class Gen {\n"
                      "  void _outputSurrogatePair(int c) { write(c); }\n"
                      "  void _outputSurrogates(int c) { write(c); }\n"
                      "  void write(int c) {}\n}\n"})
    seeds = find_seeds(build_index(root), parse_task("fix _outputSurrogates"))
    assert [s.reason for s in seeds[:1]] == ["definition of _outputSurrogates"]


def test_a_seed_classs_style_twin_is_ring_1(make_repo, build_index) -> None:
    # cfn-lint: the rule class FindInMap, seeded by its code E1011, runs the resolver
    # find_in_map through a table of names, which no edge of the graph follows
    root = make_repo({
        "rules/find_in_map_rule.py": "class FindInMap:\n    id = 'E1011'\n\n"
                                     "    def validate(self, value):\n        return value\n",
        "resolvers.py": "def find_in_map(validator, instance):\n    return instance\n\n\n"
                        "def select(validator, instance):\n    return instance\n",
        "table.py": "from resolvers import find_in_map, select\n\n"
                    "TABLE = {'Fn::FindInMap': find_in_map, 'Fn::Select': select}\n",
    })
    items = walk_rings(build_index(root), parse_task("E1011 false positive"))
    twin = next(i for i in items if i.symbol == "find_in_map")
    assert (twin.ring, twin.reason) == (1, "twin of FindInMap")


def test_a_twin_that_is_a_seed_is_not_offered_again(make_repo, build_index) -> None:
    # review 37: a named compound's twins are seeds; twin_ring offered them again in ring 1
    root = make_repo({
        "rules.py": "class FindInMap:\n    def validate(self, value):\n        return value\n",
        "resolvers.py": "def find_in_map(validator, instance):\n"
                        + "".join(f"    x{n} = instance\n" for n in range(200)) + "    return x0\n",
    })  # (long: a twin offered in ring 1 is shown by its header, another range than ring 0's)
    items = walk_rings(build_index(root), parse_task("fix FindInMap"))
    assert {i.ring for i in items if i.symbol == "find_in_map"} == {0}


def test_a_callee_no_task_word_points_at_ranks_below_inherited_members(make_repo, build_index) -> None:
    # session 37 (RingWeights.callee 0.05): a definition the seed uses that the task's
    # words do not point at (here its base class) tells less than what the seed inherits
    root = make_repo({"runner.py": "from base import Base\n\n\nclass Runner(Base):\n"
                                   "    limit = 3\n",
                      "base.py": "class Base:\n    def start(self):\n        return 1\n"})
    items = {i.symbol: i for i in walk_rings(build_index(root), parse_task("fix Runner"))}
    assert items["Base"].reason == "base class of Runner"
    assert items["Base.start"].reason == "inherited by Runner"
    assert items["Base.start"].score > items["Base"].score


def test_large_caller_contributes_a_window_not_its_whole_body(make_repo, build_index) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(100))
    root = make_repo({
        "lib.py": "def target():\n    return 1\n",
        "big.py": f"from lib import target\n\ndef big():\n{body}\n    target()\n{body}\n",
    })
    items = walk_rings(build_index(root), parse_task("fix `target`"), WalkConfig(max_keyword_seeds=0))
    caller = next(i for i in items if i.symbol == "big")
    call_line = 3 + 100 + 1
    assert caller.start_line <= call_line - 3 and caller.end_line >= call_line + 3
    assert caller.end_line - caller.start_line + 1 < 30


def test_unknown_task_gives_nothing(py_index) -> None:
    assert walk_rings(py_index, parse_task("zzz qqq")) == []


def test_large_class_is_shown_by_its_header_and_the_members_the_task_points_at(make_repo, build_index) -> None:
    methods = "".join(f"    def method_{i}(self):\n" + "        x = 1\n" * 18 + "\n" for i in range(9))
    methods += "    def flush_buffer(self):\n        return self.buffer\n"
    root = make_repo({"big.py": "class Big:\n    '''Doc.'''\n\n" + methods})
    items = walk_rings(build_index(root), parse_task("fix Big flush buffer"))
    by_symbol = _by_symbol(items)
    assert (by_symbol["Big"].start_line, by_symbol["Big"].end_line) == (1, 3)  # the header
    # flush_buffer (the task's words) is shown; the other nine members are not all walked
    assert by_symbol["Big.flush_buffer"].ring in (0, 1)
    shown = {i.symbol for i in items if i.ring <= 1 and i.symbol and i.symbol.startswith("Big.")}
    assert len(shown) == WalkConfig().max_members_of_large


def test_a_large_class_header_is_not_cut_by_its_extensions_in_another_file(
        make_repo, build_index) -> None:
    # trial 17: moshi's `Moshi` header was its KDoc's first line, `/**`: the extension
    # functions of -MoshiKotlinExtensions.kt (lines 26-37 there) counted as its first members
    members = "".join(f"  fun method{i}(): Int {{\n" + "    val x = 1\n" * 18 + "    return x\n  }\n"
                      for i in range(8))
    big = "package app\n\n/**\n * Doc.\n */\nclass Big {\n  val size = 1\n" + members + "}\n"
    extensions = "package app\n\nfun Big.helper(): Int = size\n"
    root = make_repo({"Big.kt": big, "-BigExtensions.kt": extensions})  # (sorts first)
    items = walk_rings(build_index(root), parse_task("fix Big"))
    header = _by_symbol(items)["Big"]
    assert (header.start_line, header.end_line) == (3, 6)  # the KDoc and `class Big {`


def test_a_large_class_shows_its_methods_before_fields_that_quote_the_task(
        make_repo, build_index) -> None:
    fields = "".join(f'    tag_{i} = "getatt"\n' for i in range(8))
    methods = "".join(f"    def method_{i}(self):\n" + "        x = 1\n" * 40 + "\n"
                      for i in range(4))
    root = make_repo({"rule.py": 'class GetAtt:\n    """Doc."""\n' + fields + methods})
    items = walk_rings(build_index(root), parse_task("fix GetAtt"))
    members = {i.symbol for i in items if i.ring == 1 and i.reason == "member of GetAtt"}
    # the four methods (no task word) come before the eight fields holding "getatt"
    assert {f"GetAtt.method_{i}" for i in range(4)} <= members
    assert len(members) == WalkConfig().max_members_of_large


def test_callees_are_capped_and_ranked_by_the_task_words(make_repo, build_index) -> None:
    helpers = "".join(f"def helper_{i}():\n    return {i}\n\n" for i in range(10))
    helpers += "def parse_header():\n    return 0\n\n"
    calls = "".join(f"    helper_{i}()\n" for i in range(10))
    root = make_repo({"m.py": helpers + f"def run_all():\n{calls}    parse_header()\n"})
    items = walk_rings(build_index(root), parse_task("fix `run_all` header parsing"),
                       WalkConfig(max_keyword_seeds=0, max_ring=1))
    callees = [i.symbol for i in items if i.reason == "used by run_all"]
    assert len(callees) == WalkConfig().max_callees
    assert callees[0] == "parse_header"


def test_the_overloads_of_one_callee_take_one_place_among_the_callees(
        make_repo, build_index) -> None:
    # six signatures of `atom` that match the task's words come first; each used to take
    # a place of its own, and the helper `cached` was left out
    overloads = "".join(f"export function atom(read: T{i}): T{i}\n" for i in range(6))
    store = overloads + "export function atom(read: unknown) {\n  return read\n}\n"
    pick = ("import { atom } from './store'\n\n"
            "const cached = (make: () => number): number => make()\n\n"
            "export function pickAtom(value: number) {\n  return cached(() => atom(value))\n}\n")
    root = make_repo({"store.ts": store, "pick.ts": pick})
    items = walk_rings(build_index(root), parse_task("fix pickAtom"),
                       WalkConfig(max_keyword_seeds=0, max_ring=1))
    callees = [i.symbol for i in items if i.reason == "used by pickAtom"]
    assert callees.count("atom") == 7
    assert "cached" in callees


def test_tests_are_shown_as_signatures_and_far_helpers_can_be(py_index) -> None:
    from ctxopt.model import Fidelity
    found = _by_symbol(walk_rings(py_index, parse_task("fix Storage bug")))
    assert found["test_put_then_get"].fidelity is Fidelity.SIGNATURE
    assert found["make_service"].fidelity is Fidelity.FULL  # callers stay whole
    strict = _by_symbol(walk_rings(py_index, parse_task("fix Storage.get"),
                                   WalkConfig(full_detail_relevance=1.01)))
    assert strict["_check_key"].reason == "used by Storage.get"
    assert strict["_check_key"].fidelity is Fidelity.SIGNATURE


def test_bug_report_words_are_not_query_terms_but_named_symbols_keep_them() -> None:
    from ctxopt.lexical import query_terms
    terms = query_terms(parse_task("parse_rows fails with an error when the header is empty"))
    assert "fail" not in terms and "error" not in terms
    assert {"pars", "row", "header", "empti", "=parse_rows"} <= set(terms)
    assert "error" in query_terms(parse_task("ValueError raised by load_rows"))  # ValueError names code


def test_named_definitions_outrank_word_matches_even_when_the_name_is_common(make_repo, build_index) -> None:
    # regression (trial on sympy): `.symbol` properties ranked above `class Symbol`
    files = {f"m{i}.py": f"class Symbol:\n    pass\n\nclass Holder{i}:\n    @property\n"
                         f"    def symbol(self):\n        return self.symbol_subs_cache\n"
             for i in range(4)}
    index = build_index(make_repo(files))
    seeds = find_seeds(index, parse_task("fix Symbol subs bug"))
    kinds = [s.reason.startswith("definition of") for s in seeds]
    assert kinds[:4] == [True] * 4 and not any(kinds[4:]) and len(kinds) > 4


def test_ring_weights_set_the_scores_within_the_ring_band(py_index) -> None:
    # With every member weight at 0, members of the seed score the floor of ring 1's band;
    # with the default weights the methods score above it.
    from ctxopt.walk import RingWeights
    flat = RingWeights(callable_member=0.0, other_member=0.0, member_relevance=0.0)
    task = parse_task("fix Storage bug")
    members = [i for i in walk_rings(py_index, task, WalkConfig(weights=flat))
               if i.reason.startswith("member of")]
    assert members and {i.score for i in members} == {RING_BANDS[1].low}
    default = [i for i in walk_rings(py_index, task) if i.reason.startswith("member of")]
    assert min(i.score for i in default) > RING_BANDS[1].low


@pytest.mark.parametrize("task", [
    'File "/home/me/proj/storage/db.py", line 30, in get',
    "KeyError at storage/db.py:30:9",
    "see storage/db.py#L29-L31",
])
def test_a_place_the_task_points_at_seeds_the_definition_around_it(py_index, task) -> None:
    seeds = find_seeds(py_index, parse_task(task))
    assert seeds[0].quality == 1.0
    assert py_index.definition(seeds[0].node).qualified_name == "Storage.get"
    items = walk_rings(py_index, parse_task(task))
    assert items[0].symbol == "Storage.get" and items[0].ring == 0


def test_a_line_outside_definitions_seeds_a_window_of_its_file(py_index) -> None:
    seeds = find_seeds(py_index, parse_task("storage/db.py:3 imports the wrong module"))
    assert seeds[0].node == "storage/db.py" and seeds[0].lines == (1, 33)
    assert seeds[0].reason == "the task points at line 3"


def test_the_reason_of_a_place_the_task_points_at_names_the_line_not_the_file_again(
        py_index) -> None:
    # trial: "CodeWriter.lookupName holds src/main/java/.../CodeWriter.java:380 in
    # src/main/java/.../CodeWriter.java", under a header that already names the file
    seeds = find_seeds(py_index, parse_task("KeyError at storage/db.py:30:9"))
    assert seeds[0].reason == "Storage.get holds line 30"
    seeds = find_seeds(py_index, parse_task("see storage/db.py#L29-L31"))
    assert seeds[0].reason == "Storage.get holds lines 29-31"


@pytest.fixture
def short_names_index(make_repo, build_index):
    return build_index(make_repo({
        "db.py": "def db():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef js():\n    return 3\n",
        "store.py": "class Store:\n    def get(self, key):\n        return key\n\n\ndef make():\n    pass\n",
        "cache.py": "class Cache:\n    def get(self, key):\n        return None\n\n\ndef b():\n    return 4\n",
        "tests/test_db.py": "def db():\n    pass\n",
    }))


def _seed_names(index, task):
    return [index.definition(s.node).qualified_name for s in find_seeds(index, parse_task(task))
            if not index.is_file(s.node)]


def test_a_short_word_seeds_the_only_definition_of_that_name_outside_tests(short_names_index) -> None:
    assert _seed_names(short_names_index, "fix db") == ["db"]
    assert _seed_names(short_names_index, "the db is slow when many rows are written") == ["db"]


def test_a_short_task_naming_a_plain_name_seeds_its_definitions(short_names_index) -> None:
    # "fix get": a verb and what to work on, though `get` is a stop word defined twice
    assert _seed_names(short_names_index, "fix get") == ["Cache.get", "Store.get"]
    assert _seed_names(short_names_index, "fix b") == ["b", "b"]
    assert _seed_names(short_names_index, "fix `get`") == ["Cache.get", "Store.get"]


def test_a_plain_name_defined_in_several_places_seeds_only_when_nothing_else_matches(
        short_names_index) -> None:
    assert _seed_names(short_names_index, "the b is lost after a restart") == ["b", "b"]
    # the store matches: b, defined twice, is as likely a word of the sentence
    assert "b" not in _seed_names(short_names_index, "the b of a key is lost in the store")
    assert _seed_names(short_names_index, "it does not get anything") == []  # a stop word


def test_a_stop_word_names_a_definition_only_in_a_short_task(short_names_index) -> None:
    assert _seed_names(short_names_index, "fix make") == ["make"]
    assert _seed_names(short_names_index, "we make rows slowly") == []


def test_fragments_of_a_path_or_literal_are_no_seeds(short_names_index) -> None:
    # the extension is a word (code that handles .js files says "js"), never a name
    seeds = find_seeds(short_names_index, parse_task("square.js renders wrong"))
    assert all(s.quality <= WalkConfig().lexical_seed_quality for s in seeds)
    assert _seed_names(short_names_index, 'a system id a"b.dtd breaks') == []


def test_a_capitalised_word_names_only_a_definition_spelled_the_same_way(make_repo, build_index) -> None:
    index = build_index(make_repo({
        "consts.py": "FALSE = 0\n\n\ndef running():\n    pass\n\n\nclass Blueprint:\n    pass\n",
    }))
    assert _seed_names(index, "False positive on a loop") == []
    # a word match, not a name the task spells
    assert [s.reason for s in find_seeds(index, parse_task("Running twice hangs"))] == [
        "running matches Running"]
    assert _seed_names(index, "Blueprints are slow") == ["Blueprint"]
    assert _seed_names(index, "what is `false`") == ["FALSE"]  # written as code


def test_a_capitalised_word_of_any_script_names_only_a_definition_spelled_so(
        make_repo, build_index) -> None:
    index = build_index(make_repo({"maße.py": "GRÖSSE = 0\n\n\nclass Straße:\n    pass\n"}))
    reasons = [s.reason for s in find_seeds(index, parse_task("Grösse is wrong, Straßes too"))]
    assert "definition of Straße (matches Straßes)" in reasons
    assert not [r for r in reasons if r.startswith("definition of GRÖSSE")]


_RUST_WITH_TESTS = """pub struct Store { n: u32 }

impl Store {
    pub fn get(&self) -> u32 { self.n }
}

#[test]
fn loose_test() { assert_eq!(Store { n: 1 }.get(), 1); }

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> Store { Store { n: 1 } }

    #[tokio::test]
    async fn store_get_returns_n() {
        assert_eq!(helper().get(), 1);
    }
}
"""


def test_tests_beside_the_code_are_tests(make_repo, build_index) -> None:
    index = build_index(make_repo({"src/lib.rs": _RUST_WITH_TESTS,
                                   "src/Store.java": "class Store {\n    @Test\n    void getWorks() {}\n"
                                                     "    int get() { return 1; }\n}\n"}))
    tests = {index.definition(f"{p}#{i}").qualified_name for p in index.files
             for i in range(len(index.file_definitions(p) or ())) if index.is_test(f"{p}#{i}")}
    assert tests == {"loose_test", "tests", "tests.helper", "tests.store_get_returns_n",
                     "Store.getWorks"}
    task = parse_task("store get returns the wrong n")
    kept = {i.symbol for i in walk_rings(index, task, WalkConfig(include_tests=False))}
    assert kept and not kept & tests
    assert {i.symbol for i in walk_rings(index, task)} & tests  # shown when tests are wanted


def test_php_tests_beside_the_code_are_tests(make_repo, build_index) -> None:
    # trial 19: league/csv keeps src/ReaderTest.php beside src/Reader.php; --no-tests
    # showed only its tests
    index = build_index(make_repo({
        "src/Reader.php": "<?php\nclass Reader {\n    public function stripBom() { return 1; }\n}\n",
        "src/ReaderTest.php": "<?php\nclass ReaderTest extends TestCase {\n"
                              "    public function testStripBom() { (new Reader())->stripBom(); }\n}\n",
        "src/ReaderTestCase.php": "<?php\nclass ReaderTestCase extends TestCase {\n"
                                  "    public function stripBomTwice() { (new Reader())->stripBom(); }\n}\n",
        "src/Checks.php": "<?php\nclass Checks {\n    #[Test]\n"
                          "    public function stripBomOnce() { (new Reader())->stripBom(); }\n"
                          "    public function bom() { return 2; }\n}\n"}))
    tests = {index.definition(f"{p}#{i}").qualified_name for p in index.files
             for i in range(len(index.file_definitions(p) or ())) if index.is_test(f"{p}#{i}")}
    assert tests == {"ReaderTest", "ReaderTest.testStripBom", "ReaderTestCase",
                     "ReaderTestCase.stripBomTwice", "Checks.stripBomOnce"}
    kept = {i.path for i in walk_rings(index, parse_task("strip bom"), WalkConfig(include_tests=False))}
    assert kept and not kept & {"src/ReaderTest.php", "src/ReaderTestCase.php"}


def test_a_php_docblock_annotation_marks_a_test(make_repo, build_index) -> None:
    # review 35: PHPUnit's `/** @test */`, as common as `#[Test]`, marked no test
    index = build_index(make_repo({"src/Checks.php": (
        "<?php\nclass Checks {\n    /** @test */\n"
        "    public function stripsOnce() { return 1; }\n\n"
        "    /**\n     * Strips twice.\n     *\n     * @test\n     */\n"
        "    public function stripsTwice() { return 2; }\n\n"
        "    /** @testdox strips the bom */\n"
        "    public function bom() { return 3; }\n}\n")}))
    definitions = index.file_definitions("src/Checks.php") or ()
    tests = {d.qualified_name for i, d in enumerate(definitions)
             if index.is_test(f"src/Checks.php#{i}")}
    assert tests == {"Checks.stripsOnce", "Checks.stripsTwice"}
    # the signature starts at the docblock that marks it, as at an attribute
    assert definitions[1].signature.startswith("    /** @test */\n    public function")


@pytest.mark.parametrize("task", ["fix src/lib.rs", "fix Store get"])
def test_a_whole_file_leaves_its_tests_out_without_tests(make_repo, build_index, task) -> None:
    # trial: --no-tests showed src/lib.rs whole, its #[cfg(test)] module with it, for a
    # file the task names and for the short file holding a seed (a file item had all lines)
    index = build_index(make_repo({"src/lib.rs": _RUST_WITH_TESTS}))
    items = walk_rings(index, parse_task(task), WalkConfig(include_tests=False))
    assert any(i.symbol is None for i in items)  # the file itself is an item
    assert max(i.end_line for i in items) == 6  # loose_test starts at line 7, its #[test]
    with_tests = walk_rings(index, parse_task(task))
    assert max(i.end_line for i in with_tests if i.symbol is None) == 20


def test_a_file_of_tests_only_is_a_test_file(make_repo, build_index) -> None:
    # trial: a file that holds only #[test] functions, named in the task, was shown whole
    # with --no-tests, as no test file is
    checks = "use crate::get;\n\n#[test]\nfn get_one() { assert_eq!(get(), 1); }\n"
    index = build_index(make_repo({"src/lib.rs": "pub fn get() -> u32 { 1 }\n",
                                   "src/checks.rs": checks}))
    task = parse_task("fix src/checks.rs")
    assert not [i for i in walk_rings(index, task, WalkConfig(include_tests=False))
                if i.path == "src/checks.rs"]
    assert [i for i in walk_rings(index, task) if i.path == "src/checks.rs"]


def test_word_matches_seed_tests_only_when_the_task_speaks_of_tests(make_repo, build_index) -> None:
    index = build_index(make_repo({
        "crypto.py": "def encrypt(key, data):\n    return data\n",
        "tests/test_crypto.py": "def test_encrypt_empty_key():\n    encrypt(b'', b'empty key')\n",
    }))
    def seeded(task):
        return [index.definition(s.node).qualified_name for s in find_seeds(index, parse_task(task))]
    assert seeded("encrypt fails with an empty key") == ["encrypt"]
    assert seeded("the test of encrypt with an empty key fails") == [
        "test_encrypt_empty_key", "encrypt"]


def test_a_stack_frame_naming_a_function_the_line_is_not_in_seeds_that_function(
        make_repo, build_index) -> None:
    # trial: "at com.squareup.javapoet.CodeBlock.of(CodeBlock.java:91)" from another
    # version showed CodeBlock.hashCode, which holds line 91 today, as the first block
    code = "def load(key):\n    return key\n\n\ndef save(key, value):\n    return (key, value)\n"
    index = build_index(make_repo({"store.py": code}))
    frame = 'File "/srv/app/store.py", line 2, in {}'
    (seed,) = [s for s in find_seeds(index, parse_task(frame.format("save"))) if s.quality == 1.0]
    assert index.definition(seed.node).qualified_name == "save"
    assert seed.reason == "save, which the stack frame names (line 2 is outside it: another version?)"
    for function in ("load", "<module>", "missing"):  # the line's own, none, or not in the file
        (seed,) = [s for s in find_seeds(index, parse_task(frame.format(function)))
                   if s.quality == 1.0]
        assert seed.reason == "load holds line 2"


def test_ranked_files_are_the_best_first_ties_by_path() -> None:
    # a.py, b.py and c.py tie at 0.1; z.py leads by its file score: a heap keyed wrongly
    # (path descending, or unstable on ties) returns c.py or b.py before a.py
    relevance = {"b.py#f": 0.3, "c.py#h": 0.3, "a.py#g": 0.3, "z.py#k": 0.3}
    by_path = {node.partition("#")[0]: [node] for node in relevance}
    config = WalkConfig()
    assert _rank_files(by_path, relevance, {"z.py": 1.0}, config, 3) == ["z.py", "a.py", "b.py"]
    assert _rank_files(by_path, relevance, {"z.py": 1.0}, config, 9) == ["z.py", "a.py", "b.py", "c.py"]


def test_ranked_files_discount_benchmark_files_as_test_files() -> None:
    # review 38: the file ranking of ring 3's signatures discounted tests, not benchmarks
    relevance = {"bench/b.py#f": 0.3, "lib/b.py#f": 0.3}
    by_path = {node.partition("#")[0]: [node] for node in relevance}
    files = {"bench/b.py": 1.0, "lib/b.py": 0.8}
    assert _rank_files(by_path, relevance, files, WalkConfig(), 2) == ["lib/b.py", "bench/b.py"]
    assert _rank_files(by_path, relevance, files, WalkConfig(), 2, benchmarks_wanted=True) == [
        "bench/b.py", "lib/b.py"]


@pytest.fixture
def namesakes_index(make_repo, build_index):
    return build_index(make_repo({
        "pkg/pool.py": "class WorkerPool:\n    def Start(self):\n        self.spawn()\n\n"
                       "    def spawn(self):\n        pass\n",
        "pkg/service.py": "class Service:\n    def Start(self):\n        return 1\n",
        "pkg/routes.py": "".join(f"def filler_{i}():\n    return {i}\n\n" for i in range(300)),
        "sim/loader.rs": "pub struct Loader {}\nimpl Loader {\n    pub fn Apply(&self) {}\n}\n",
        "other/patch.rs": "pub struct Patch {}\nimpl Patch {\n    pub fn Apply(&self) {}\n}\n",
        "shop/http/responses.py": "class Redirect:\n    def render(self):\n        return 302\n",
        "shop/mail/responses.py": "class Redirect:\n    def forward(self):\n        return 1\n",
    }))


@pytest.mark.parametrize(("task", "named"), [
    ("fix WorkerPool.Start", [("pkg/pool.py", "WorkerPool.Start")]),
    ("fix sim::Loader::Apply", [("sim/loader.rs", "Loader.Apply")]),
    ("fix shop.mail.responses.Redirect", [("shop/mail/responses.py", "Redirect")]),
])
def test_a_qualified_name_seeds_its_definition_not_its_namesakes(namesakes_index, task, named) -> None:
    # the qualifier says which Start: Service.Start is no ring-0 word match
    seeds = find_seeds(namesakes_index, parse_task(task))
    assert [(namesakes_index.path_of(s.node), namesakes_index.definition(s.node).qualified_name)
            for s in seeds] == named


@pytest.mark.parametrize(("task", "named"), [
    # trial 21: `type Value = ...` of impl blocks under value/ were taken for the enum
    ("panic in serde_json::value::Value indexing", ["Value"]),
    # the qualifier's last part names the owner: its member is meant (and, by the path's
    # word `value`, the enum, a guess: the crate's name is no part of its path)
    ("panic in serde_json::value::de::KeyClassifier::Value", ["Value", "KeyClassifier.Value"]),
])
def test_a_module_path_points_to_its_module_s_definitions_not_members_under_it(
        make_repo, build_index, task, named) -> None:
    index = build_index(make_repo({
        "src/value/mod.rs": "pub enum Value {\n    Null,\n    Bool(bool),\n}\n",
        "src/value/de.rs": "struct KeyClassifier;\n\nimpl DeserializeSeed for KeyClassifier {\n"
                           "    type Value = KeyClass;\n}\n\nfn visit() {\n"
                           "    struct Visitor;\n    impl Seen for Visitor {\n"
                           "        type Value = Value;\n    }\n}\n",
    }))
    seeds = find_seeds(index, parse_task(task))
    assert sorted(index.definition(s.node).qualified_name for s in seeds
                  if s.reason.startswith("definition of")) == sorted(named)


def test_the_prose_around_a_qualified_name_still_searches(namesakes_index) -> None:
    # "start" written in the prose is a word of the task; the qualified name's own are not
    assert _seed_names(namesakes_index, "WorkerPool.Start should start once") == [
        "WorkerPool.Start", "Service.Start"]


def test_a_qualified_name_is_taken_out_of_the_parsed_task_not_parsed_again(
        namesakes_index, monkeypatch) -> None:
    # review: seeds._without_symbols parsed the task's text again
    from ctxopt import seeds

    def parse_again(text: str) -> None:
        raise AssertionError("the task was parsed again")

    monkeypatch.setattr(seeds, "parse_task", parse_again, raising=False)
    assert _seed_names(namesakes_index, "WorkerPool.Start should start once") == [
        "WorkerPool.Start", "Service.Start"]
    assert _seed_names(namesakes_index, "fix WorkerPool.Start") == ["WorkerPool.Start"]


@pytest.mark.parametrize("task", [
    'File "/srv/app/pkg/routes.py", line 619, in <module>',
    "TypeError at /srv/app/pkg/routes.py:619:15",
    "Traceback (most recent call last):\n  File \"/srv/app/pkg/routes.py\", line 619, in filler_206",
])
def test_the_directories_above_the_repository_in_a_frame_are_no_search_words(
        namesakes_index, task) -> None:
    # "srv" abbreviates Service and "app" Apply: neither is a word of the repository's path
    assert _seed_names(namesakes_index, task) == ["filler_206"]


def test_an_absolute_path_in_the_prose_gives_the_words_of_its_repository_part(namesakes_index) -> None:
    seeds = find_seeds(namesakes_index, parse_task("crash in /srv/app/pkg/routes.py"))
    assert [s.node for s in seeds] == ["pkg/routes.py"]


@pytest.fixture
def delegating_index(make_repo, build_index):
    return build_index(make_repo({
        "arr.py": "class DataArray:\n    def quantile(self, q):\n        return self._ds().quantile(q)\n\n"
                  "    def _ds(self):\n        return None\n",
        "ds.py": "class Dataset:\n    def quantile(self, q):\n        return q\n",
        "examples/unittest/case.py": "class Test:\n    def tearDown(self):\n        pass\n",
        "src/runner.py": "def run_teardown(case):\n    case.tearDown()\n",
    }))


def test_a_named_method_that_calls_its_own_name_keeps_its_namesakes(delegating_index) -> None:
    # DataArray.quantile passes the work on to a quantile the index cannot tell
    assert "Dataset.quantile" in _seed_names(delegating_index, "fix DataArray.quantile")


def test_a_named_method_that_calls_its_own_name_keeps_its_namesakes_not_its_qualifier_s(
        make_repo, build_index) -> None:
    # trial 21: Map::retain hands the work on to `self.map.retain(f)`, and with that the
    # qualifier's word seeded every variant and field named Map
    index = build_index(make_repo({
        "src/map.rs": "pub struct Map {\n    map: Inner,\n}\n\nimpl Map {\n"
                      "    pub fn retain(&mut self, keep: bool) {\n        self.map.retain(keep);\n"
                      "    }\n}\n",
        "src/inner.rs": "pub struct Inner {}\n\nimpl Inner {\n"
                        "    pub fn retain(&mut self, keep: bool) {}\n}\n",
        "src/key.rs": "pub enum KeyClass {\n    Map,\n    Number,\n}\n",
        "src/ser.rs": "pub enum Compound {\n    Map { count: usize },\n    Number,\n}\n",
    }))
    seeds = _seed_names(index, "Map::retain does not preserve insertion order")
    assert "Inner.retain" in seeds
    assert not {"KeyClass.Map", "Compound.Map"} & set(seeds)


def test_a_qualified_name_found_by_a_guess_still_searches(delegating_index) -> None:
    # no TestCase holds Test.tearDown: the qualified name's words still find the runner
    assert "run_teardown" in _seed_names(delegating_index, "unittest.TestCase.tearDown is slow")


@pytest.fixture
def code_and_tests_index(make_repo, build_index):
    return build_index(make_repo({
        "core.py": "class DataArray:\n    def merge(self, other):\n        return other\n",
        "tests/test_core.py": "def dataarray():\n    return 1\n\n\ndef test_merge():\n    pass\n",
        "tests/conftest.py": "def make_repo(tmp):\n    return tmp\n",
    }))


@pytest.mark.parametrize(("task", "named"), [
    # a fixture called dataarray matches "dataArray" too, but the name is the code's
    ("merging a dataArray fails", ["DataArray"]),
    ("the dataArray test fixture breaks", ["DataArray", "dataarray"]),
    ("fix make_repo", ["make_repo"]),  # defined in tests only: a name of the tests
])
def test_a_name_the_code_and_a_test_both_define_names_the_code(code_and_tests_index, task,
                                                               named) -> None:
    names = [n for n in _seed_names(code_and_tests_index, task) if n in ("DataArray", "dataarray",
                                                                         "make_repo")]
    assert names == named


def test_a_frame_of_a_file_outside_the_repository_gives_no_words(namesakes_index) -> None:
    from ctxopt.lexical import query_terms
    from ctxopt.seeds import in_repository
    task = parse_task('File "/usr/lib/python3/site-packages/sim/loader.py", line 9, in load\n'
                      'File "/srv/app/pkg/routes.py", line 619, in <module>')
    # (nor does a frame's file in it: its place is what it says, trial 12)
    assert in_repository(namesakes_index, task).symbols == ()
    terms = query_terms(in_repository(namesakes_index, task))
    assert "load" in terms and not {"usr", "packag", "sim", "loader", "routes"} & set(terms)


def test_a_qualifier_that_names_nothing_leaves_only_the_most_relevant_few(make_repo,
                                                                          build_index) -> None:
    # `self` names no definition: the five classes' `name` are guesses, three of them seeds
    index = build_index(make_repo({f"m{i}.py": f"class C{i}:\n    def name(self):\n"
                                              f"        return {i}\n" for i in range(5)}))
    def named(task):  # above any word match
        return [index.definition(s.node).qualified_name for s in find_seeds(index, parse_task(task))
                if s.quality > WalkConfig().lexical_seed_quality]
    assert named("allow self.name in layouts") == ["C0.name", "C1.name", "C2.name"]
    assert len(named("allow `name` in layouts")) == 5  # the name alone: every one


# A short rule module: the task names a method; the fix is in a module-level helper that
# the method does not call and whose words the task does not use.
_RULE_MODULE = '''"""Checks a property's pattern."""
import re


def _compile_flags(text):
    return re.IGNORECASE if text.islower() else 0


class RegexRule:
    """The rule."""

    def check_value(self, value, pattern):
        return re.fullmatch(pattern, value) is not None

    def describe(self):
        return "regex"
'''


def test_a_seed_in_a_short_file_offers_the_file_whole_in_ring_2(make_repo, build_index) -> None:
    root = make_repo({"rules/pattern.py": _RULE_MODULE, "rules/other.py": "def other():\n    pass\n"})
    index = build_index(root)
    task = parse_task("fix check_value")
    whole = [i for i in walk_rings(index, task) if i.symbol is None and i.path == "rules/pattern.py"]
    assert [(i.ring, i.start_line, i.end_line, i.reason) for i in whole] == [
        (2, 1, _RULE_MODULE.count("\n"), "short file holding RegexRule.check_value")]
    # without it, nothing reaches the helper's lines
    off = walk_rings(index, task, WalkConfig(max_short_file_lines=0))
    assert not any(i.path == "rules/pattern.py" and i.start_line <= 6 <= i.end_line for i in off)


def test_a_long_file_or_a_test_file_is_not_offered_whole(make_repo, build_index) -> None:
    padding = "".join(f"def filler_{i}():\n    return {i}\n\n\n" for i in range(40))
    root = make_repo({"rules/pattern.py": _RULE_MODULE + padding,
                      "tests/test_pattern.py": "def test_validate():\n    assert True\n"})
    index = build_index(root)
    for task in ("fix check_value", "fix test_validate"):
        items = walk_rings(index, parse_task(task))
        assert not any(i.reason.startswith("short file") for i in items)


def test_only_the_best_seeds_files_are_offered_whole(make_repo, build_index) -> None:
    same = "def load(path):\n    return open(path).read()\n\n\ndef other():\n    return 1\n"
    root = make_repo({"a.py": same, "b.py": same, "c.py": same})
    items = walk_rings(build_index(root), parse_task("fix load"))
    seeds = [i.path for i in items if i.ring == 0]
    assert sorted(seeds) == ["a.py", "b.py", "c.py"]
    whole = [i.path for i in items if i.reason.startswith("short file")]
    assert whole == seeds[:WalkConfig().max_short_files] == ["a.py", "b.py"]


def test_a_ranker_sets_the_weights_of_its_rings_and_ring_0_keeps_the_hand_set_ones(py_index) -> None:
    # An intercept alone gives every item of rings 1-2 the band score of sigmoid(0) = 0.5;
    # ring 0 and rings 3-4 (no ranker) keep their hand-set weights.
    from ctxopt.walk import Ranker
    task = parse_task("fix Storage bug")
    hand = walk_rings(py_index, task, WalkConfig(max_ring=4, rankers=(None, None)))
    flat = walk_rings(py_index, task, WalkConfig(max_ring=4, rankers=(Ranker(intercept=0.0), None)))
    assert {i.score for i in flat if i.ring == 1} == {RING_BANDS[1].score(0.5)}
    assert {i.score for i in flat if i.ring == 2} == {RING_BANDS[2].score(0.5)}
    kept = {(i.path, i.start_line, i.ring, i.score) for i in hand if i.ring in (0, 3, 4)}
    assert kept == {(i.path, i.start_line, i.ring, i.score) for i in flat if i.ring in (0, 3, 4)}


def test_a_ranker_weighs_the_features_of_an_item(py_index) -> None:
    # seed_file: the members of the seed class lie in its file, its callers elsewhere; a
    # ranker that counts only that feature ranks them first. test: tests rank last.
    from ctxopt.walk import Ranker
    task = parse_task("fix Storage bug")
    ranker = Ranker(intercept=-2.0, seed_file=2.0, test=-2.0)
    items = walk_rings(py_index, task, WalkConfig(rankers=(ranker, None)))
    seed_path = next(i.path for i in items if i.ring == 0)
    near = [i for i in items if i.ring in (1, 2)]
    for item in near:
        in_seed_file = item.path == seed_path
        is_test = item.path.startswith("tests/")
        expected = -2.0 + 2.0 * in_seed_file - 2.0 * is_test
        assert item.score == RING_BANDS[item.ring].score(1 / (1 + math.exp(-expected)))
    assert {i.path == seed_path for i in near} == {True, False}
    assert any(i.path.startswith("tests/") for i in near)


def test_by_default_the_fitted_ranker_puts_the_seeds_siblings_above_far_files_signatures(
        py_index) -> None:
    # The hand-set weights rank the best match of another file (a signature, 0.95) above
    # the definitions beside the seed; the fitted ranker of rings 3-4 (``RANKERS``) ranks
    # it below them: a far file's signature shows no changed line.
    task = parse_task("fix Storage bug")

    def ring3(config: WalkConfig) -> list[str]:
        return [i.reason.split(" ")[0] for i in walk_rings(py_index, task, config) if i.ring == 3]
    assert ring3(WalkConfig(rankers=(None, None)))[0] == "best"
    fitted = ring3(WalkConfig())
    assert fitted[-1] == "best" and set(fitted[:-1]) == {"in"}


def test_ring_4_keeps_the_hand_set_weights_the_ring_3_ranker_was_not_fitted_on(py_index) -> None:
    # review: the ranker fitted on ring-3 items was applied to ring 4's too
    from ctxopt.walk import Ranker
    task = parse_task("fix Storage bug")
    hand = walk_rings(py_index, task, WalkConfig(max_ring=4, rankers=(None, None)))
    flat = walk_rings(py_index, task, WalkConfig(max_ring=4, rankers=(None, Ranker(intercept=0.0))))
    assert {i.score for i in flat if i.ring == 3} == {RING_BANDS[3].score(0.5)}
    ring4 = {(i.path, i.start_line, i.score) for i in hand if i.ring == 4}
    assert ring4 and ring4 == {(i.path, i.start_line, i.score) for i in flat if i.ring == 4}


@pytest.mark.parametrize("source", [
    # a test between two items: the merge of their blocks reached over it
    "pub fn alpha() -> u32 { 1 }\n#[test]\nfn check() { assert!(alpha() == 1); }\n"
    "pub fn beta() -> u32 { 2 }\n",
    # a test right above an item: the context lines above the item reached into it
    "#[test]\nfn check() { assert!(alpha() == 1); }\npub fn alpha() -> u32 { 1 }\n"
    "pub fn beta() -> u32 { 2 }\n",
])
def test_gather_without_tests_shows_no_line_of_a_test_between_or_above_items(
        runner, make_repo, source: str) -> None:
    # review: the walk clipped the tests out of its items, but the source reader's context
    # lines and merges brought a short test back
    from ctxopt.cli import main

    root = make_repo({"src/lib.rs": source})
    shown = runner.invoke(main, ["gather", "fix alpha and beta", "--root", str(root),
                                 "--no-tests", "--format", "json"], catch_exceptions=False)
    assert shown.exit_code == 0, shown.stderr
    content = "\n".join(b["content"] for b in json.loads(shown.stdout)["blocks"])
    assert "fn alpha" in content and "fn beta" in content
    assert "#[test]" not in content and "fn check" not in content
    with_tests = runner.invoke(main, ["gather", "fix alpha and beta", "--root", str(root),
                                      "--format", "json"], catch_exceptions=False)
    assert "#[test]" in "\n".join(b["content"] for b in json.loads(with_tests.stdout)["blocks"])


def test_a_word_match_names_the_words_of_the_task_its_text_holds(make_repo, build_index) -> None:
    # the words are in the docstring, not the name: the reason still says which, as written
    index = build_index(make_repo({
        "io.py": 'def load(path):\n    """Read the Manifest, skipping comments."""\n    return path\n',
    }))
    assert [s.reason for s in find_seeds(index, parse_task("Comments in a manifest are kept"))] == [
        "load matches Comments, manifest"]
    many = "Read parse skip load path manifest comments"
    assert WordMatches(index, parse_task(many)).of("io.py#0") == "Read, skip, load, path, ..."


def test_the_directories_of_a_named_file_are_no_words_of_the_task(make_repo, build_index) -> None:
    # trial 4: src/main/java/... made every `main` a match; the file named is the seed
    index = build_index(make_repo({
        "src/main/java/Writer.java": "class Writer {\n  void write(double v) {}\n}\n",
        "src/main/java/Bench.java": "class Bench {\n  static void main(String[] a) {}\n}\n",
    }))
    task = parse_task("src/main/java/Writer.java writes NaN")
    located = in_repository(index, task)
    assert located.addresses == ("src/main/java/Writer.java",)
    assert "main" not in located.keywords and "src" not in located.keywords
    assert "main" not in query_terms(located) and "writer" in query_terms(located)
    assert "Bench.main" not in [i.symbol for i in walk_rings(index, task)]
    # a directory's word that the text also says is a word still; a path the repository
    # does not hold keeps its words (where a new file would go)
    said = in_repository(index, parse_task("src/main/java/Writer.java breaks main"))
    assert "main" in said.keywords
    assert in_repository(index, parse_task("add src/main/kotlin/New.kt")).addresses == ()


def test_a_named_files_path_becomes_its_name_only_where_written_whole(make_repo, build_index) -> None:
    # `lib/db.py` also ends `extra/lib/db.py`: replaced inside it, the longer path lost
    # its `lib` and was never read as the other file
    index = build_index(make_repo({"lib/db.py": "def load():\n    pass\n",
                                   "extra/lib/db.py": "def load():\n    pass\n",
                                   ".config/app/db.py": "def load():\n    pass\n"}))
    for text, raw in (("lib/db.py and extra/lib/db.py differ", "db.py and db.py differ"),
                      ("see ./lib/db.py", "see db.py"),
                      ("see ./.config/app/db.py", "see db.py"),  # (review 32: its dot)
                      # two ways to write one file: each is its name
                      ("/srv/app/extra/lib/db.py and extra/lib/db.py", "db.py and db.py")):
        located = in_repository(index, parse_task(text))
        assert located.raw == raw


_RULES = {
    "rules/quote.py": "class QuoteRule:\n    id = 'E3640'\n    shortdesc = 'quotes'\n\n"
                      "    def __init__(self):\n        self.seen = []\n\n"
                      "    def validate(self, value):\n        return value.count('\"') % 2 == 0\n",
    "rules/space.py": "class SpaceRule:\n    id = 'E3641'\n\n    def validate(self, value):\n"
                      "        return ' ' not in value\n",
}


def test_the_short_class_around_a_named_field_is_shown_whole(make_repo, build_index) -> None:
    # issue 11: a task quoting a rule's code (E3640) seeds its one-line `id` field; what
    # the rule does is in the methods of its class, which came only by its header line
    index = build_index(make_repo(_RULES))
    items = walk_rings(index, parse_task("E3640 false positive on quoted values"))
    around = {i.reason: (i.start_line, i.end_line) for i in items
              if i.symbol == "QuoteRule" and i.ring == 1}
    assert around["contains QuoteRule.id"] == (1, 9)


def test_a_record_of_fields_around_a_named_field_is_shown_by_its_header(
        make_repo, build_index) -> None:
    # its fields say no more whole (a TypedDict's came whole and pushed a file out)
    index = build_index(make_repo({"stats.py": "class BadNames(TypedDict):\n"
                                   "    argument: int\n    attr: int\n    klass: int\n"}))
    items = walk_rings(index, parse_task("argument count wrong"), WalkConfig(max_keyword_seeds=1))
    around = {i.reason: (i.start_line, i.end_line) for i in items
              if i.symbol == "BadNames" and i.ring == 1}
    assert around["contains BadNames.argument"] == (1, 1)


def test_the_class_around_a_named_method_is_shown_by_its_header(make_repo, build_index) -> None:
    index = build_index(make_repo(_RULES))
    items = walk_rings(index, parse_task("QuoteRule.validate misses escaped quotes"),
                       WalkConfig(max_keyword_seeds=0))  # (else its words seed the class)
    around = {i.reason: (i.start_line, i.end_line) for i in items
              if i.symbol == "QuoteRule" and i.ring == 1}
    assert around["contains QuoteRule.validate"] == (1, 1)


def test_a_compound_name_seeds_its_twin_in_another_style(make_repo, build_index) -> None:
    # issue 11: "FindInMap" named the rule class, and the resolver `find_in_map` the fix
    # changed shared only the words find and map (Live cfn-lint, six tasks)
    index = build_index(make_repo({
        "rules/find_in_map_rule.py": "class FindInMap:\n    def validate(self, value):\n"
                                     "        return value\n",
        "resolvers.py": "def find_in_map(mapping, key):\n    return mapping.get(key)\n\n\n"
                        "def find_in(mapping):\n    return mapping\n",
        "other.py": "def findinmap():\n    return 1\n\n\ndef Find():\n    return 2\n",
    }))
    seeds = {s.node: s for s in find_seeds(index, parse_task("FindInMap fails on nested keys"))}
    named = {index.definition(n).name: s.reason for n, s in seeds.items()
             if not index.is_file(n) and s.quality > 0.5}
    assert named["find_in_map"] == "definition of find_in_map (the words of FindInMap)"
    assert "findinmap" not in named and "find_in" not in named  # other words, or one


_BUILDER = {
    "src/main/java/g/GsonBuilder.java": "public final class GsonBuilder {\n    GsonBuilder() {}\n}\n",
    "src/test/java/g/SecurityTest.java": "public class SecurityTest {\n"
                                         "    private GsonBuilder gsonBuilder;\n"
                                         "    static GsonBuilder gsonBuilder() {\n"
                                         "        return null;\n    }\n}\n",
}
_BUILDER_USES = {
    "src/main/java/g/Json.java": "public final class Json {\n    static GsonBuilder gsonBuilder() {\n"
                                 "        return new GsonBuilder();\n    }\n}\n",
    "src/main/java/g/Gson.java": "public final class Gson {\n"
                                 "    private final GsonBuilder gsonBuilder = null;\n}\n",
}


@pytest.mark.parametrize(("files", "task", "twins"), [
    # trial 21: the test fields `gsonBuilder` were ring 0 as twins of GsonBuilder
    (_BUILDER, "Add a GsonBuilder option for durations", []),
    (_BUILDER, "test a GsonBuilder option for durations", ["SecurityTest.gsonBuilder"]),
    ({**_BUILDER, **_BUILDER_USES}, "Add a GsonBuilder option for durations", ["Json.gsonBuilder"]),
])
def test_a_twin_is_a_type_or_function_of_the_code_not_a_field_nor_a_test_s(
        make_repo, build_index, files, task, twins) -> None:
    # a twin is what the code names in the same words, a class and the function that does
    # what it names; a field or variable so named holds one (a use of the type), and a
    # name the code defines is the code's unless the task speaks of tests
    index = build_index(make_repo(files))
    seeds = find_seeds(index, parse_task(task))
    assert sorted(index.definition(s.node).qualified_name for s in seeds
                  if s.reason.endswith("(the words of GsonBuilder)")) == twins


def test_a_one_word_name_seeds_no_twin_in_another_case(make_repo, build_index) -> None:
    index = build_index(make_repo({"a.py": "class Store:\n    pass\n\n\ndef store():\n    return 1\n"}))
    seeds = find_seeds(index, parse_task("Store loses keys"))
    assert [index.definition(s.node).name for s in seeds if not index.is_file(s.node)
            and s.quality > 0.5] == ["Store"]


def test_a_traces_frames_seed_nearest_the_failure_first_and_their_names_no_more(
        make_repo, build_index) -> None:
    # trial 8: every frame of a Java trace scored 150, its outermost frames' names seeded
    # every overload, and a frame of the caller's own code (App.main) every `main`
    files = {
        "src/a/Inner.java": "class Inner {\n    int fail(int x) {\n        return x / 0;\n    }\n}\n",
        "src/a/Outer.java": ("class Outer {\n    int run(int x) {\n        return new Inner().fail(x);\n"
                             "    }\n    int run(String s) {\n        return 0;\n    }\n}\n"),
        "src/a/Tool.java": "class Tool {\n    void main(String[] args) {\n    }\n}\n",
    }
    index = build_index(make_repo(files))
    trace = ("java.lang.ArithmeticException: / by zero\n"
             "\tat a.Inner.fail(Inner.java:3)\n\tat a.Outer.run(Outer.java:3)\n"
             "\tat com.example.App.main(App.java:12)\n")
    seeds = [s for s in find_seeds(index, parse_task(trace))
             if s.quality > WalkConfig().lexical_seed_quality]  # not mere word matches
    named = [(index.definition(s.node).qualified_name, s.node) for s in seeds]
    assert [name for name, _ in named] == ["Inner.fail", "Outer.run"]
    assert named[1][1] == "src/a/Outer.java#1"  # the frame's overload, not the other one
    assert seeds[0].quality > seeds[1].quality
    # places written otherwise (pytest's "path:line: in name" lists the outermost first)
    # are no frames of a known order: each keeps the top quality
    places = find_seeds(index, parse_task("src/a/Outer.java:3: in run\nsrc/a/Inner.java:3: in fail"))
    assert sorted(s.quality for s in places[:2]) == [1.0, 1.0]


def test_an_installed_packages_frame_is_the_repositorys_file_of_the_same_package(
        make_repo, build_index) -> None:
    # trial 17: a traceback through site-packages/click/core.py named no file of click's
    # src/click/core.py, and its frames' function names seeded every namesake (types.py's
    # ParamType.__call__ for core.py's __call__)
    code = "class Command:\n    def __call__(self):\n        return self.main()\n"
    index = build_index(make_repo({"src/click/core.py": code, "docs/core.py": code,
                                   "src/click/types.py": code.replace("Command", "ParamType")}))
    trace = ('Traceback (most recent call last):\n'
             '  File "/home/me/.venv/lib/python3.12/site-packages/click/core.py", line 2, '
             'in __call__\n    return self.main()\nTypeError: boom\n')
    seeds = find_seeds(index, parse_task(trace))
    assert seeds[0].node == "src/click/core.py#1" and "holds line 2" in seeds[0].reason
    assert not any(s.reason.startswith("definition of __call__") for s in seeds)  # by name
    # a file that shares only its name, or two that share as much, are no answer
    assert files_named(index, "/opt/lib/other/core.py") == []
    twins = build_index(make_repo({"src/a/x.py": "x = 1\n", "lib/a/x.py": "x = 2\n"}, "twins"))
    assert files_named(twins, "site-packages/a/x.py") == []


def test_a_built_javascript_frame_is_the_typescript_source_of_the_same_directories(
        make_repo, build_index) -> None:
    # trial 19: a Node trace through ky's built distribution/utils/timeout.js named no
    # file, and source/utils/timeout.ts, whose timeout() throws, was not shown
    code = "export function timeout() {\n  return 1;\n}\n\nexport function other() {\n  return 2;\n}\n"
    index = build_index(make_repo({"source/utils/timeout.ts": code, "source/timeout.ts": code,
                                   "source/core/Ky.ts": code.replace("timeout", "retry")}))
    assert files_named(index, "node_modules/ky/distribution/utils/timeout.js") == [
        "source/utils/timeout.ts"]
    trace = ("TimeoutError: boom\n    at Timeout._onTimeout (file:///app/node_modules/ky/"
             "distribution/utils/timeout.js:5:11)\n    at retry (file:///app/node_modules/ky/"
             "distribution/core/Ky.mjs:6:3)\n")
    seeds = find_seeds(index, parse_task(trace))
    # the file, not the definition at the built file's line 5, and the frame's function
    assert [s.node for s in seeds[:2]] == ["source/utils/timeout.ts", "source/core/Ky.ts#0"]
    # a stem alone, or two sources sharing as much, are no answer
    assert files_named(index, "dist/timeout.js") == []
    twins = build_index(make_repo({"src/a/x.ts": "x = 1\n", "lib/a/x.tsx": "x = 2\n"}, "twins"))
    assert files_named(twins, "dist/a/x.js") == []


def test_a_built_javascript_extension_is_read_in_any_case(make_repo, build_index) -> None:
    # review 35: `.JS`, `.MJS` were no built JavaScript (nor `.TS` a source), though
    # ``language_for_path`` reads any case
    code = "export function timeout() {\n  return 1;\n}\n"
    index = build_index(make_repo({"source/utils/timeout.ts": code, "src/a/Util.TS": code}))
    assert files_named(index, "node_modules/ky/distribution/utils/timeout.MJS") == [
        "source/utils/timeout.ts"]
    assert files_named(index, "dist/a/Util.JS") == ["src/a/Util.TS"]
    assert built_from("dist/utils/timeout.Js", "source/utils/timeout.ts")
    assert built_from("dist/a/Util.cjs", "src/a/Util.TS")


def test_a_built_javascript_frame_names_no_interface_member(make_repo, build_index) -> None:
    # review 35: a V8 frame's name is the property a function was assigned to; trial 14's
    # `inst._zod.parse` seeded the interface member `ZodTypeInternals.parse`
    code = ("export interface ZodTypeInternals {\n  parse(payload: unknown): unknown;\n}\n\n"
            "export function make(inst: any) {\n  inst._zod.parse = (payload: unknown) => payload;\n"
            "  return inst;\n}\n")
    index = build_index(make_repo({"packages/zod/src/v4/core/schemas.ts": code}))
    trace = ("Error: expected number\n    at inst._zod.parse (file:///app/node_modules/zod/v4/"
             "core/schemas.js:17:13)\n")
    seeds = find_seeds(index, parse_task(trace))
    assert seeds[0].node == "packages/zod/src/v4/core/schemas.ts"


def test_a_python_tracebacks_frames_come_innermost_first() -> None:
    trace = ('Traceback (most recent call last):\n  File "app/cli.py", line 9, in main\n'
             '    run()\n  File "app/core.py", line 4, in run\n    fail()\n'
             '  File "app/errors.py", line 2, in fail\nValueError: boom\n')
    assert [r.path for r in parse_task(trace).references] == [
        "app/errors.py", "app/core.py", "app/cli.py"]
    java = "at a.B.f(B.java:3)\nat a.C.g(C.java:4)\n"  # written innermost first already
    assert [r.path for r in parse_task(java).references] == ["B.java", "C.java"]


def test_a_name_the_project_and_its_examples_define_names_the_projects(make_repo, build_index) -> None:
    # trial 8: every zustand demo's `const useStore = create(...)` was ring 0 beside the
    # library's own useStore
    index = build_index(make_repo({
        "src/react.ts": "export function useStore(api: object) {\n  return api\n}\n",
        "examples/demo/src/App.ts": "const useStore = create(() => ({}))\nexport default useStore\n",
        "examples/demo/src/only.ts": "export function onlyInDemo() {\n  return 1\n}\n",
        # (Go keeps `_examples/` out of its build: trial 39, chi's)
        "_examples/todos/users.ts": "function useStore() {\n  return 2\n}\n",
    }))
    def seeded(task):
        return [index.path_of(s.node) for s in find_seeds(index, parse_task(task))
                if s.reason.startswith("definition of")]
    assert seeded("useStore rerenders") == ["src/react.ts"]
    assert seeded("onlyInDemo fails") == ["examples/demo/src/only.ts"]  # all there is


@pytest.mark.parametrize(("line", "start"), [(30, 1), (49, 1), (61, 1), (62, 32), (80, 50)])
def test_a_window_around_a_line_a_few_lines_below_its_definitions_header_holds_it(
        make_repo, build_index, line, start) -> None:
    # trial 10: jsoup's QueryParser.java:232 seeded lines 202-262 of parsePseudoSelector
    # (198-265), leaving out its header 4 lines above the window; trial 12: hiredis's
    # read.c:503 seeded 473-525 of processBulkItem (455-525), leaving out 18 lines
    body = "".join(f"    v{n} = compute({n})\n" for n in range(120))
    index = build_index(make_repo({"calc.py": "def run():\n" + body}))
    (seed,) = find_seeds(index, parse_task(f"ValueError at calc.py:{line}"))
    assert seed.lines == (start, line + 30)  # caller_max_lines 60: 30 lines each side


def test_a_frames_bare_function_name_seeds_no_namesake_when_its_place_is_known(
        make_repo, build_index) -> None:
    # trial 11 (Go): `(*Mux).ServeHTTP` of a frame in mux.go seeded every middleware's
    # ServeHTTP beside the definition at the frame's line
    index = build_index(make_repo({
        "mux.go": "package chi\n\ntype Mux struct{}\n\nfunc (mx *Mux) ServeHTTP(w int) {\n"
                  "\t_ = w\n}\n",
        "logger.go": "package chi\n\ntype Logger struct{}\n\nfunc (l *Logger) ServeHTTP(w int) {}\n"}))
    trace = "goroutine 1 [running]:\nchi.(*Mux).ServeHTTP(0x0)\n\t/srv/chi/mux.go:6 +0x1d\n"
    seeds = find_seeds(index, parse_task(trace))
    assert seeds[0].reason == "Mux.ServeHTTP holds line 6"
    # (Logger's is at most a word match of the trace's words, not a definition it names)
    assert not any(seed.reason.startswith("definition of") for seed in seeds)


def test_a_rust_callers_frame_in_a_long_function_seeds_a_window_around_its_line(
        make_repo, build_index) -> None:
    # trial 11: `walkdir::IntoIter::handle_entry` (a long function calling the failing
    # `pop`) was seeded whole by its name, and its frame's line left the cut at 2,000
    body = "".join(f"        let v{n} = {n};\n" for n in range(70))
    index = build_index(make_repo({"lib.rs": (
        "pub struct IntoIter { n: usize }\n\nimpl IntoIter {\n    fn pop(&mut self) -> usize {\n"
        "        self.n\n    }\n\n    fn handle_entry(&mut self) -> usize {\n" + body
        + "        self.pop()\n    }\n}\n")}))
    trace = ("stack backtrace:\n   0: walkdir::IntoIter::pop\n             at ./lib.rs:5:9\n"
             "   1: walkdir::IntoIter::handle_entry\n             at ./lib.rs:79:9\n")
    seeds = find_seeds(index, parse_task(trace))
    assert [(seed.reason, seed.lines) for seed in seeds[:2]] == [
        ("IntoIter.pop holds line 5", None), ("IntoIter.handle_entry holds line 79", (49, 80))]


def test_a_v8_frame_seeds_the_definition_holding_its_line_whatever_name_it_gives(
        make_repo, build_index) -> None:
    # trial 14: zod's `at inst._zod.parse (core/schemas.ts:2080:24)`, a frame of an arrow
    # function assigned inside a constructor, seeded an interface's `parse` member
    # elsewhere in the file under "another version?"; the line's own definition was not shown
    code = ("interface Internals {\n  parse(x: unknown): unknown;\n}\n\n"
            "function build(inst: any) {\n  inst.parse = (x: unknown) => {\n    return x;\n  };\n}\n")
    index = build_index(make_repo({"src/schemas.ts": code}))
    for frame in ("    at inst.parse (/home/dev/app/src/schemas.ts:7:5)\n",
                  "    at async inst.parse (/home/dev/app/src/schemas.ts:7:5)\n",
                  "    at /home/dev/app/src/schemas.ts:7:5\n"):
        (seed, *_) = find_seeds(index, parse_task("Error: boom\n" + frame))
        assert seed.reason == "build holds line 7", frame


def test_a_frames_file_among_namesakes_is_the_one_whose_definition_holds_its_line(
        make_repo, build_index) -> None:
    # trial 12: okio's JVM frame `RealBufferedSource.kt:110` went to the first of its
    # Kotlin Multiplatform namesakes (commonMain's, 70 lines), and the header said the
    # trace was of another version
    short = "package okio\n\nclass RealBufferedSource {\n  fun peek() = 1\n}\n"
    long_ = ("package okio\n\nclass RealBufferedSource {\n" + "  val pad = 0\n" * 8
             + "  fun readUtf8LineStrict(limit: Long): String {\n    return \"\"\n  }\n}\n")
    index = build_index(make_repo({"src/commonMain/okio/RealBufferedSource.kt": short,
                                   "src/jvmMain/okio/RealBufferedSource.kt": long_}))
    trace = ("java.io.EOFException: not found\n"
             "\tat okio.RealBufferedSource.readUtf8LineStrict(RealBufferedSource.kt:13)\n")
    task = parse_task(trace)
    (seed, *_) = find_seeds(index, task)
    assert seed.reason == "RealBufferedSource.readUtf8LineStrict holds line 13"
    assert index.path_of(seed.node) == "src/jvmMain/okio/RealBufferedSource.kt"
    from ctxopt.pipeline import lines_past_the_end
    assert lines_past_the_end(index, task) == []


def test_a_php_frame_seeds_its_line_and_a_callees_method_name_no_namesakes(make_repo,
                                                                           build_index) -> None:
    # trial 12: `App\Action\ProfileAction->__invoke` seeded every `__invoke` of Slim
    index = build_index(make_repo({
        "Slim/Routing/RouteParser.php": "<?php\nclass RouteParser {\n    public function relativeUrlFor($n) {\n"
                                         "        return $this->c->getNamedRoute($n);\n    }\n}\n",
        "Slim/Handlers/ErrorHandler.php": "<?php\nclass ErrorHandler {\n    public function __invoke($e) {\n"
                                          "        return $e;\n    }\n}\n"}))
    seeds = find_seeds(index, parse_task(
        "#0 /var/www/Slim/Routing/RouteParser.php(4): Slim\\Routing\\RouteCollector->getNamedRoute('a')\n"
        "#1 /var/www/src/Action/ProfileAction.php(9): Slim\\Routing\\RouteParser->relativeUrlFor('a')\n"
        "#2 /var/www/Slim/RequestResponse.php(38): App\\Action\\ProfileAction->__invoke(Array)\n"
        "#3 {main}\n"))
    assert seeds[0].reason == "RouteParser.relativeUrlFor holds line 4"
    # (the word "invoke" may still match it, as any word of the task does)
    assert not [s.reason for s in seeds if s.reason.startswith("definition of")]


def test_an_absolute_path_names_a_file_by_its_directories_not_its_name_alone(make_repo,
                                                                             build_index) -> None:
    # trial 12: C:\src\MyApp\Program.cs:line 22 (the user's own app) seeded the repository's
    # test/AotTestApp/Program.cs; a bare Program.cs:22 still names it
    index = build_index(make_repo({"test/AotTestApp/Program.cs":
                                   "class Program {\n" + "    int a;\n" * 30 + "}\n"}))
    for task in ("   at MyApp.Program.Main(String[] args) in C:\\src\\MyApp\\Program.cs:line 22",
                 "crash in C:\\src\\MyApp\\Program.cs, line 22", "crash at /home/u/MyApp/Program.cs:22"):
        assert not [s for s in find_seeds(index, parse_task(task))
                    if index.path_of(s.node) == "test/AotTestApp/Program.cs"], task
    seeds = find_seeds(index, parse_task("crash at Program.cs:22"))
    assert index.path_of(seeds[0].node) == "test/AotTestApp/Program.cs"
    assert seeds[0].reason.endswith("holds line 22")


def test_a_frames_file_is_a_place_and_gives_no_words(make_repo, build_index) -> None:
    # trial 12: `read` of hiredis's read.c:503 in an ASan frame matched every `read` field
    index = build_index(make_repo({"read.c": "int processBulkItem(int r) {\n    return r;\n}\n",
                                   "qt.h": "struct Adapter {\n    int read;\n};\n"}))
    task = parse_task("crash in processBulkItem\n"
                      "    #2 0x55d0c8a2b7c2 in processBulkItem /home/dev/hiredis/read.c:2\n")
    assert "read" not in query_terms(in_repository(index, task))
    assert [index.definition(s.node).name for s in find_seeds(index, task)] == ["processBulkItem"]


def test_a_frames_file_is_taken_from_the_text_only_where_written_whole(make_repo, build_index) -> None:
    # review 31: the place `test.c` made the prose's `parse_latest.c` "parse_la" and
    # `mytest.cpp` "my pp"; a Windows frame's place stayed in the text
    index = build_index(make_repo({"test.c": "int main(void) {\n    return 0;\n}\n"}))
    task = parse_task("the loader in mytest.cpp fails after parse_latest.c\n"
                      "#1  0x4005 in main () at test.c:2\n"
                      "   at App.Main() in C:\\src\\App\\Program.cs:line 2\n")
    raw = in_repository(index, task).raw
    assert "mytest.cpp" in raw and "parse_latest.c" in raw
    assert "test.c:" not in raw and "Program.cs" not in raw


def test_a_place_of_a_file_name_alone_names_none_of_its_namesakes_but_a_frames(
        make_repo, build_index) -> None:
    # trial 13: a compiler's `main.cpp:5:8: note:` named the repository's 8 `main.cpp`
    # (examples, tests), each shown whole
    index = build_index(make_repo({"tests/a/main.cpp": "int main() {\n    return 1;\n}\n",
                                   "tests/b/main.cpp": "int run() {\n    return 2;\n}\n",
                                   "src/point.hpp": "struct Point {\n    int x;\n};\n"}))
    note = "main.cpp:2:8: note: 'Point::Point()' is implicitly deleted\n"
    assert not [s for s in find_seeds(index, parse_task(note))
                if index.path_of(s.node).endswith("main.cpp")]
    frame = parse_task("#0  0x4005 in run () at main.cpp:2\n")
    assert [index.path_of(s.node) for s in find_seeds(index, frame)] == ["tests/b/main.cpp"]
    alone = build_index(make_repo({"tests/a/main.cpp": "int main() {\n    return 1;\n}\n"}, "alone"))
    assert [alone.path_of(s.node) for s in find_seeds(alone, parse_task(note))][:1] == [
        "tests/a/main.cpp"]


def test_a_title_word_names_only_a_definition_in_a_file_named_after_it(make_repo, build_index) -> None:
    root = make_repo({"tests/functional/base_case.py": "class Base:\n    pass\n",
                      "rules/outputs/Value.py": "class Value:\n    def match(self):\n        pass\n",
                      "rules/other.py": "class Output:\n    pass\n"})
    index = build_index(root)
    config = WalkConfig(max_keyword_seeds=0)
    assert find_seeds(index, parse_task("XDG Base Directory Specification compliant"), config) == []
    seeds = find_seeds(index, parse_task("ImportValue in Output Value check is bugged"), config)
    assert [(s.node, s.reason) for s in seeds] == [("rules/outputs/Value.py#0",
                                                  "definition of Value")]


def test_a_word_matched_table_of_literals_seeds_below_code(make_repo, build_index) -> None:
    # session 38: word-matched variables and constants (tables of messages, option lists)
    # held a fifth of the changed lines per token of word-matched functions and classes
    root = make_repo({"checker.py": 'MESSAGES = {\n    "unused-import": "Unused import %s",\n'
                                    '    "unused-variable": "Unused variable %s",\n}\n\n\n'
                                    'def visit_import(node):\n    if node.unused:\n'
                                    '        report("unused-import", node)\n'})
    index = build_index(root)
    task = parse_task("false positive unused-import")

    def qualities(config):
        return {index.definition(s.node).name: s.quality for s in find_seeds(index, task, config)}

    plain = qualities(WalkConfig(data_seed_share=1.0))
    assert plain["MESSAGES"] >= plain["visit_import"]  # the table matches as well, or better
    shared = qualities(WalkConfig())
    assert shared["MESSAGES"] == pytest.approx(WalkConfig().data_seed_share * plain["MESSAGES"],
                                               abs=1e-4)
    assert shared["visit_import"] == plain["visit_import"]
    assert shared["MESSAGES"] < shared["visit_import"]


def test_benchmark_code_ranks_below_the_code_unless_the_task_speaks_of_benchmarks(
        make_repo, build_index) -> None:
    # trial 38: zod's packages/bench took 3,500 of 8,000 tokens through the word "objects"
    from ctxopt.graph.rules import is_benchmark_path
    from ctxopt.seeds import relevance

    body = "def partial_objects(shape):\n    return {key: None for key in shape}\n"
    root = make_repo({"lib/shape.py": body, "packages/bench/shape.py": body})
    index = build_index(root)
    assert all(map(is_benchmark_path, ("packages/bench/shape.py", "asv_bench/x.py",
                                       "benches/parse.rs", "Benchmark/Run.cs")))
    assert not is_benchmark_path("lib/shape.py") and not is_benchmark_path("benchmarking.py")

    def bench_share(task, config=WalkConfig()):
        found = {index.path_of(node): score
                 for node, score in relevance(index, parse_task(task), config).items()}
        return found["packages/bench/shape.py"] / found["lib/shape.py"]

    undiscounted = bench_share("partial objects are wrong", WalkConfig(benchmark_discount=1.0))
    assert undiscounted > 0.9  # (the path's words change its score a little)
    assert bench_share("partial objects are wrong") == pytest.approx(
        WalkConfig().benchmark_discount * undiscounted)
    assert bench_share("the partial objects benchmark is slow") > 0.9


def test_a_subclass_in_no_definition_is_the_lines_around_it_not_its_whole_file(
        make_repo, build_index) -> None:
    # trial 39: ripgrep's `impl<P: Builder> Builder for &mut P` lies in no definition, so
    # the file was the subclass: all 2,607 lines of walk.rs were one ring-1 item
    filler = "".join(f"fn f{n}() -> u32 {{\n    {n}\n}}\n\n" for n in range(60))
    index = build_index(make_repo({"src/walk.rs": (
        "pub trait Builder {\n    fn build(&mut self) -> u32;\n}\n\n"
        "impl<'a, P: Builder> Builder for &'a mut P {\n"
        "    fn build(&mut self) -> u32 {\n        (**self).build()\n    }\n}\n\n" + filler)}))
    items = walk_rings(index, parse_task("fix Builder"))
    subclasses = [i for i in items if i.reason == "subclass of Builder"]
    assert subclasses and all(i.end_line - i.start_line < 40 for i in subclasses)
    assert any(i.start_line <= 5 <= i.end_line for i in subclasses)
