"""Name resolution: a use links to the definition the code means (fixtures/resolution)."""
from __future__ import annotations

from pathlib import Path

import pytest
from indexes import KINDS, edge_data, edges, every_node

from ctxopt.graph.bindings import import_bindings, import_specifiers
from ctxopt.graph.imports import ImportResolver
from ctxopt.graph.names import dotted_names
from ctxopt.graph.resolve import compatible

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RESOLUTION = FIXTURES / "resolution"


@pytest.fixture
def shop(build_index):
    return build_index(RESOLUTION / "python_shop")


def test_a_python_reexport_chain_leads_to_the_class_not_to_its_namesake(shop) -> None:
    # views.py: `from shop import Redirect`; shop/__init__.py: `from .http import Redirect`;
    # shop/http/__init__.py: `from .responses import Redirect`. shop/legacy has another one.
    references = edge_data(shop, "references")
    used = references[("shop/views.py:checkout", "shop/http/responses.py:Redirect")]
    assert used["via"] == "call" and used["resolved"] == "imported name"
    assert not {edge for edge in references if edge[1].startswith("shop/legacy/")}
    (legacy,) = [n for n in shop.definitions_named("Redirect") if n.startswith("shop/legacy/")]
    assert shop.edges_in(legacy, ("references", "inherits", "tests")) == []


def test_an_import_alias_is_followed(shop) -> None:
    # `from .billing import charge as make_charge`, then `make_charge(cart)`
    references = edge_data(shop, "references")
    assert references[("shop/views.py:checkout", "shop/billing.py:charge")]["resolved"] == "imported name"
    assert ("shop/views.py:checkout", "shop/legacy/redirect.py:charge") not in references
    (charge,) = [n for n in shop.definitions_named("charge") if n.startswith("shop/billing.py")]
    callers = {source for source, kind, _ in shop.edges_in(charge, ("references",))}
    assert "shop/views.py#0" in callers


def test_rust_uses_never_resolve_into_python_and_follow_pub_use(build_index) -> None:
    index = build_index(RESOLUTION / "rust_store")
    references = edge_data(index, "references")
    # `Result` is the standard library's: the Python class of that name is not it
    assert not [edge for edge in references if edge[1].startswith("bench/")]
    # app.rs: `use crate::Store;` and lib.rs: `pub use store::Store;` name this crate's trait
    assert references[("src/app.rs:run", "src/store.rs:Store")]["resolved"] == "imported name"
    assert ("src/app.rs:run", "crates/other/src/lib.rs:Store") not in references


def test_a_rust_impl_makes_its_type_the_subclass_not_the_file(build_index) -> None:
    index = build_index(RESOLUTION / "rust_store")
    inherits = edges(index, "inherits")
    assert ("src/store.rs:Mem", "src/store.rs:Store") in inherits
    assert not [edge for edge in inherits if edge[0] in ("src/store.rs", "src/store.rs:inner")]


def test_a_rust_impl_belongs_to_the_struct_of_its_own_file(make_repo, build_index) -> None:
    # trial 7: xsv's `impl Args` in src/cmd/stats.rs was the member of every command
    # module's `struct Args` of the directory (20 unrelated "contains" blocks)
    root = make_repo({
        "src/cmd/mod.rs": "pub mod alpha;\npub mod beta;\n",
        "src/cmd/alpha.rs": "struct Args { flag_a: bool }\n\nimpl Args {\n"
                            "    fn describe(&self) -> bool { self.flag_a }\n}\n",
        "src/cmd/beta.rs": "struct Args { flag_b: u32 }\n",
    })
    contains = edges(build_index(root), "contains")
    assert ("src/cmd/alpha.rs:Args", "src/cmd/alpha.rs:Args.describe") in contains
    assert ("src/cmd/beta.rs:Args", "src/cmd/alpha.rs:Args.describe") not in contains


def test_cpp_out_of_line_method_belongs_to_the_class_of_its_header(build_index) -> None:
    index = build_index(RESOLUTION / "cpp_sim")
    assert ("include/storage.hpp:Storage", "src/storage.cpp:Storage.get") in edges(index, "contains")
    (method,) = [n for n in index.definitions_named("get") if n.startswith("src/")]
    assert ("include/storage.hpp#0", "contains", {}) in index.edges_in(method, ("contains",))


def test_cpp_unqualified_type_in_a_namespace_is_not_another_class_nested_type(build_index) -> None:
    index = build_index(RESOLUTION / "cpp_sim")
    references = edge_data(index, "references")
    assert references[("rules/check.cpp:rules.check", "rules/input.hpp:rules.Input")]["resolved"] \
        == "same namespace"
    assert ("rules/check.cpp:rules.check", "include/loader.hpp:sim.Loader.Input") not in references
    # inside the class, the nested type is its own
    assert ("include/loader.hpp:sim.Loader.read", "include/loader.hpp:sim.Loader.Input") in references


def test_typescript_export_from_and_import_alias(build_index) -> None:
    index = build_index(RESOLUTION / "web_shop")
    references = edge_data(index, "references")
    assert references[("src/cart.ts:total", "src/money/format.ts:formatPrice")]["resolved"] \
        == "imported name"
    assert ("src/cart.ts:total", "src/legacy/format.js:formatPrice") not in references


def test_an_ambiguous_use_prefers_its_package_and_says_why(make_repo, build_index) -> None:
    root = make_repo({"pkg/a.py": "def helper():\n    return 1\n",
                      "other/b.py": "def helper():\n    return 2\n",
                      "pkg/c.py": "def run():\n    return helper()\n",
                      "top.py": "def main():\n    return helper()\n"})
    references = edge_data(build_index(root), "references")
    assert references[("pkg/c.py:run", "pkg/a.py:helper")]["resolved"] == "same package"
    assert ("pkg/c.py:run", "other/b.py:helper") not in references
    assert references[("top.py:main", "pkg/a.py:helper")]["resolved"] == "one of 2 definitions"
    assert references[("top.py:main", "other/b.py:helper")]["resolved"] == "one of 2 definitions"


def test_code_does_not_use_a_test_file_s_definitions_unless_it_imports_them(
        make_repo, build_index) -> None:
    # tests/data/sample.py is test input (code for a checker to read), not a library
    root = make_repo({"app/core.py": "def run():\n    return helper()\n",
                      "lib/tools.py": "def helper():\n    return 1\n",
                      "tests/data/sample.py": "def helper():\n    return 2\n\ndef lone():\n    return 3\n",
                      "app/lone.py": "def go():\n    return lone()\n",
                      "app/uses_test.py": "from tests.data.sample import lone\n\ndef go():\n    return lone()\n",
                      "tests/test_core.py": "def test_run():\n    assert helper() == 1\n"})
    index = build_index(root)
    references = edge_data(index, "references")
    assert references[("app/core.py:run", "lib/tools.py:helper")]["resolved"] == "one of 1 definitions"
    assert ("app/core.py:run", "tests/data/sample.py:helper") not in references
    assert not [edge for edge in references if edge[0] == "app/lone.py:go"]
    # an import is followed wherever it leads, and tests still see every candidate
    assert references[("app/uses_test.py:go", "tests/data/sample.py:lone")]["resolved"] == "imported name"
    assert {target for source, target in references if source == "tests/test_core.py:test_run"} == {
        "lib/tools.py:helper", "tests/data/sample.py:helper"}


def test_a_reexport_cycle_ends(make_repo, build_index) -> None:
    root = make_repo({"a/__init__.py": "from b import thing\n", "b/__init__.py": "from a import thing\n",
                      "use.py": "from a import thing\n\ndef run():\n    return thing()\n",
                      "lib/thing.py": "def thing():\n    return 1\n"})
    references = edge_data(build_index(root), "references")
    # the chain leads nowhere: the use falls back to the only definition of that name
    assert references[("use.py:run", "lib/thing.py:thing")]["resolved"] == "one of 1 definitions"


def _all_fixture_roots() -> list[Path]:
    roots = [p for p in sorted(FIXTURES.iterdir()) if p.is_dir() and p.name not in ("resolution", "images")]
    return roots + sorted(p for p in RESOLUTION.iterdir() if p.is_dir())


@pytest.mark.parametrize("root", _all_fixture_roots(), ids=lambda p: p.name)
def test_edges_out_and_edges_in_agree(build_index, root: Path) -> None:
    index = build_index(root)
    out, into = set(), set()
    for node in every_node(index):
        out |= {(node, target, kind, tuple(sorted(data.items())))
                for target, kind, data in index.edges_out(node, KINDS)}
        into |= {(source, node, kind, tuple(sorted(data.items())))
                 for source, kind, data in index.edges_in(node, KINDS)}
    assert out == into


def test_language_families() -> None:
    assert compatible("c", "cpp") and compatible("typescript", "javascript")
    assert compatible("kotlin", "java")
    assert not compatible("rust", "python") and not compatible("go", "c")


def test_python_bindings_pair_members_with_their_statement() -> None:
    uses = [("Redirect", "import_member", 1, None), ("shop", "import", 1, None),
            (".billing", "import", 2, None), ("charge", "import_member", 3, None),
            ("x", "import", 5, None)]
    lines = ["from shop import Redirect", "from .billing import (", "    charge as make_charge)",
             "", "from x import *"]
    assert import_bindings("python", uses, lines) == [
        ("shop", "Redirect", "Redirect"), (".billing", "charge", "make_charge"), ("x", "*", "*")]
    # `from pkg import mod` may name a submodule: the member joins its own statement's module
    assert import_specifiers(uses) == ["shop.Redirect", "shop", ".billing", ".billing.charge", "x"]


@pytest.mark.parametrize(("line", "name"), [
    ("from a import b as c", "b"), ("import x.y as z", "x.y"), ("import x.y as z", "y"),
    ("from m import (ab as c, b as d)", "b"), ("from m import grüße as ß", "grüße"),
    ("from m import x.b as c", "b"), ("from m import a:b as c", "b"), ("b  as\tc", "b"),
    ("from m import b as 1x", "b"), ("from m import bb as c, b as d", "b"),
    ("from m import b, c as d", "b"), ("from m import b as c as d", "b"), ("b as c", ""),
])
def test_python_alias_finds_what_a_pattern_of_the_name_finds(line: str, name: str) -> None:
    # `_alias` looks for the name without compiling a pattern of it (one per name made a
    # cold index's workers compile hundreds): the pattern it stands for is the oracle
    import re

    from ctxopt.graph.bindings import _IDENTIFIER, _alias

    found = re.search(r"(?<![\w.:])" + re.escape(name) + r"\s+as\s+(" + _IDENTIFIER + ")", line)
    assert _alias(line, name) == (found.group(1) if found else None)


def test_rust_and_javascript_bindings() -> None:
    uses = [("crate::Store", "import", 1, None), ("store::Store", "import", 2, None),
            ("a::b", "import", 3, None)]
    lines = ["use crate::Store;", "pub use store::Store as S;", "use a::b::{C, d::E as F, self,", "*};"]
    assert import_bindings("rust", uses, lines) == [
        ("crate::Store", "Store", "Store"), ("store::Store", "Store", "S"), ("a::b::C", "C", "C"),
        ("a::b::d::E", "E", "F"), ("a::b", "*", "*")]
    text = ['import { formatPrice as price, type Money } from "./index";', 'export * from "./x";',
            "export { a } from './y';"]
    assert import_bindings("typescript", [], text) == [
        ("./index", "formatPrice", "price"), ("./index", "Money", "Money"), ("./x", "*", "*"),
        ("./y", "a", "a")]


def test_rust_use_lists_after_one_segment_bind_their_items() -> None:
    # trial 8: mini-redis's `use crate::{Connection, Db, Frame};` and lib.rs's
    # `pub use clients::{BlockingClient, Client};` bound nothing
    uses = [("crate", "import", 1, None), ("a", "import", 2, None), ("clients", "import", 3, None),
            ("serde", "import", 4, None), ("foo", "import", 5, None)]
    lines = ["use crate::{Connection, Db};", "pub(crate) use a::{B as C};",
             "pub use clients::{Client};", "use serde;", "use foo::*;"]
    assert import_bindings("rust", uses, lines) == [
        ("crate::Connection", "Connection", "Connection"), ("crate::Db", "Db", "Db"),
        ("a::B", "B", "C"), ("clients::Client", "Client", "Client"), ("foo", "*", "*")]


def test_rust_use_paths_resolve_to_the_module_that_binds_the_name() -> None:
    resolver = ImportResolver(["Cargo.toml", "src/lib.rs", "src/store.rs", "src/app.rs"])
    assert resolver.resolve("rust", "src/app.rs", "crate::Store") == ["src/lib.rs"]
    assert resolver.resolve("rust", "src/app.rs", "super::Store") == ["src/lib.rs"]
    assert resolver.resolve("rust", "src/lib.rs", "store::Store") == ["src/store.rs"]
    assert resolver.resolve("rust", "src/lib.rs", "serde::Deserialize") == []


def test_a_dotted_name_names_the_definition_of_that_module() -> None:
    responses = "shop/http/responses.py"
    assert dotted_names(responses, "Redirect.location", "shop.http.responses.Redirect.location")
    assert dotted_names("shop/http/responses.py", "Redirect.location", "responses.Redirect.location")
    assert dotted_names("include/kv.hpp", "kv.Storage.get", "Storage.get")
    assert dotted_names("shop/http/__init__.py", "Redirect", "shop.http.Redirect")
    assert not dotted_names("shop/legacy/redirect.py", "Redirect.location",
                            "shop.http.responses.Redirect.location")
    assert not dotted_names("shop/http/responses.py", "Redirect.location", "other.Redirect.location")


def test_a_jvm_or_rust_qualified_name_names_the_definition_of_that_package() -> None:
    codec = "src/main/java/com/acme/Codec.java"
    assert dotted_names(codec, "Codec.decode", "com.acme.Codec.decode")
    assert dotted_names(codec, "Codec.Builder.add", "acme.Codec.Builder.add")
    assert not dotted_names(codec, "Codec.decode", "com.other.Codec.decode")
    assert not dotted_names("src/main/java/com/acme/Other.java", "Other.decode",
                            "com.acme.Codec.decode")
    assert dotted_names("shop/Redirect.py", "Redirect.location", "shop.Redirect.Redirect.location")
    assert dotted_names("src/db.rs", "Db.set", "crate.db.Db.set")
    assert not dotted_names("src/db.rs", "Db.set", "crate.cache.Db.set")


def test_a_java_stack_frame_seeds_the_method_of_its_class_not_its_namesakes(make_repo,
                                                                            build_index) -> None:
    from ctxopt.seeds import find_seeds
    from ctxopt.task import parse_task
    files = {f"src/com/acme/{name}.java": f"package com.acme;\nclass {name} {{\n"
             f"  static {name} of(String s) {{ return null; }}\n}}\n"
             for name in ("Codec", "Token", "Frame")}
    index = build_index(make_repo(files))
    seeds = find_seeds(index, parse_task("at com.acme.Codec.of(Codec.java)"))
    assert [index.path_of(s.node) for s in seeds if s.reason.startswith("definition of")] == [
        "src/com/acme/Codec.java"]


def test_a_task_naming_a_module_path_seeds_only_that_definition(build_index) -> None:
    from ctxopt.task import parse_task
    from ctxopt.seeds import find_seeds
    index = build_index(RESOLUTION / "python_shop")
    seeds = find_seeds(index, parse_task("fix shop.http.responses.Redirect.location"))
    named = [index.path_of(s.node) for s in seeds if s.reason.startswith("definition of shop.")]
    assert named and set(named) == {"shop/http/responses.py"}


def test_a_method_call_is_not_linked_to_the_methods_of_its_package(make_repo, build_index) -> None:
    # `env.get(...)` names no function of the package: six classes there with a `get`
    # method are not what it calls
    files = {f"pkg/m{i}.py": f"class C{i}:\n    def get(self):\n        return {i}\n" for i in range(6)}
    files["pkg/config.py"] = "def load(env):\n    return env.get('X')\n"
    references = edge_data(build_index(make_repo(files)), "references")
    assert not [edge for edge in references if edge[0] == "pkg/config.py:load"]


def test_a_go_type_use_never_resolves_to_a_method_of_that_name(make_repo, build_index) -> None:
    # trial 9: the built-in `string` of `func Gruesse() string` was "used by" the method
    # `ShellCompDirective.string` of the same package (and of its own file)
    root = make_repo({"go.mod": "module example.com/m\n",
                      "a.go": "package m\n\ntype D int\n\n"
                              "func (d D) string() string { return \"\" }\n",
                      "b.go": "package m\n\nfunc Gruesse() string { return \"hi\" }\n"})
    references = edge_data(build_index(root), "references")
    assert not [edge for edge in references if edge[1] == "a.go:D.string"]


@pytest.mark.parametrize("files, use, namesake", [
    # a Python annotation and base class name no function or method
    ({"a.py": "def Item():\n    return 1\n",
      "b.py": "class Box:\n    def Item(self):\n        return 2\n\n"
              "def take(x: Item) -> None:\n    return None\n"}, "b.py:take", "b.py:Box.Item"),
    # a Java type names no method
    ({"A.java": "class A {\n  int Config() { return 1; }\n  Config load() { return null; }\n}\n"},
     "A.java:A.load", "A.java:A.Config"),
    # a Rust field type names no function
    ({"src/lib.rs": "fn Store() {}\n\nstruct Holder {\n    store: Store,\n}\n"},
     "src/lib.rs:Holder.store", "src/lib.rs:Store"),
])
def test_a_type_use_never_resolves_to_a_function_method_or_field(
        make_repo, build_index, files, use, namesake) -> None:
    references = edge_data(build_index(make_repo(files)), "references")
    assert (use, namesake) not in references


def test_a_type_use_still_resolves_to_a_type_or_a_python_alias(make_repo, build_index) -> None:
    root = make_repo({"a.py": "Base = object\n\nclass Model(Base):\n    pass\n\n"
                              "def make(x: Model) -> None:\n    return None\n"})
    index = build_index(root)
    assert ("a.py:make", "a.py:Model") in edge_data(index, "references")
    assert ("a.py:Model", "a.py:Base") in edges(index, "inherits")


@pytest.mark.parametrize("task", ["fix Ky.#retryDelay", "fix Ky#retryDelay", "fix retryDelay",
                                  "fix #retryDelay"])
def test_a_task_naming_a_private_member_seeds_its_definition(make_repo, build_index,
                                                             task: str) -> None:
    # trial 9: ky's `#calculateRetryDelay` was only a word match of "fix calculateRetryDelay"
    from ctxopt.seeds import find_seeds
    from ctxopt.task import parse_task
    root = make_repo({"src/ky.ts": "class Ky {\n  #retryDelay() { return 1; }\n"
                                   "  retry() { return this.#retryDelay(); }\n}\n"})
    index = build_index(root)
    seeds = find_seeds(index, parse_task(task))
    assert [index.definition(s.node).qualified_name for s in seeds
            if s.reason.startswith("definition of")] == ["Ky.#retryDelay"]


def test_a_private_method_s_call_links_to_it(make_repo, build_index) -> None:
    root = make_repo({"a.js": "class A {\n  #go() { return 1; }\n"
                              "  run() { return this.#go(); }\n}\n"})
    assert ("a.js:A.run", "a.js:A.#go") in edges(build_index(root), "references")


@pytest.mark.parametrize("files, task, wanted", [
    ({"store.py": "class Store:\n    def _flush(self):\n        return 1\n\n"
                  "    def __mangled(self):\n        return 2\n"},
     "fix Store._flush", "Store._flush"),
    ({"store.py": "class Store:\n    def __mangled(self):\n        return 2\n"},
     "fix Store.__mangled", "Store.__mangled"),
    ({"Cart.php": "<?php\nclass Cart {\n  public function total() { return $this->sum; }\n}\n"},
     "fix $cart->total()", "Cart.total"),
])
def test_private_looking_names_of_other_languages_still_seed(make_repo, build_index,
                                                              files, task, wanted) -> None:
    from ctxopt.seeds import find_seeds
    from ctxopt.task import parse_task
    index = build_index(make_repo(files))
    seeds = find_seeds(index, parse_task(task))
    assert wanted in [index.definition(s.node).qualified_name for s in seeds
                      if s.reason.startswith("definition of")]


@pytest.mark.parametrize("path, source", [
    ("pkg/mod.py", "import os\nfrom .a import (b as c,\n    d)\nfrom e import *\n"
                   "def f(x):\n    from g import h as i\n    return c(x) + os.sep + i\n"),
    ("src/lib.rs", "use crate::{Db, frame::Frame as F};\nuse std::io::*;\n"
                   "impl Store for Db { fn get(&self) -> F { F::new() } }\n"),
    ("web/app.ts", "import { a as b, type C } from './m';\nexport * from './n';\n"
                   "export function f(x: C) { return b(x); }\n"),
])
def test_the_indexer_binds_from_the_import_uses_alone(tmp_path, path, source) -> None:
    """``scan`` hands ``import_bindings`` the import uses (its ``import_specs`` rows), not
    every use: the same bindings as from every use."""
    from ctxopt.parsing.parse import parse_file
    from ctxopt.store.scan import scan_one

    parsed = parse_file(path, source.encode(), reference_tuples=True)
    expected = import_bindings(parsed.language, list(parsed.tags.references),
                               parsed.text.split("\n"))
    assert expected  # (each source binds something)
    (tmp_path / path).parent.mkdir(parents=True)
    (tmp_path / path).write_text(source)
    scanned = scan_one(str(tmp_path), path, None)
    assert scanned.bindings == tuple((i, *binding) for i, binding in enumerate(expected))


# Trial 39: calls on standard-library objects linked to the project's methods of the same
# name (graph.resolve, steps 7 and 8).
_JAVA_CHECKS = {
    "src/main/java/a/Util.java": "package a;\npublic class Util {\n"
                                 "    public static Object requireNonNull(Object x) { return x; }\n}\n",
    "src/main/java/b/Ser.java": "package b;\npublic class Ser {\n"
                                "    public static Object requireNonNull(Object x, String m) { return x; }\n}\n",
    "src/main/java/c/Meth.java": "package c;\npublic class Meth {\n    private static Object"
                                 " requireNonNull(Object x, String a, String b, String c) { return x; }\n}\n",
}


def test_a_java_call_on_a_library_class_links_to_no_method_of_a_type_the_file_never_names(
        make_repo, build_index) -> None:
    # commons-lang's CharRange.contains: `Objects.requireNonNull(range, "range")` was
    # SerializationUtils.requireNonNull and the private MethodUtils.requireNonNull
    index = build_index(make_repo({**_JAVA_CHECKS, "src/main/java/a/Range.java":
                                   "package a;\nimport java.util.Objects;\nclass Range {\n"
                                   "    boolean contains(Range r) {\n"
                                   "        Objects.requireNonNull(r);\n        return true;\n    }\n}\n"}))
    callees = {target for source, target in edges(index, "references")
               if source == "src/main/java/a/Range.java:Range.contains"}
    assert not {callee for callee in callees if callee.endswith("requireNonNull")}


def test_a_java_call_qualified_by_a_project_class_links_to_its_static_method(
        make_repo, build_index) -> None:
    index = build_index(make_repo({**_JAVA_CHECKS, "src/main/java/a/Range.java":
                                   "package a;\nimport java.util.Objects;\nclass Range {\n"
                                   "    boolean contains(Range r) {\n"
                                   "        Util.requireNonNull(r);\n"
                                   "        Objects.requireNonNull(r);\n        return true;\n    }\n}\n"}))
    references = edge_data(index, "references")
    callees = {target for source, target in references
               if source == "src/main/java/a/Range.java:Range.contains"}
    assert {callee for callee in callees if callee.endswith("requireNonNull")} == \
        {"src/main/java/a/Util.java:Util.requireNonNull"}
    # the line qualified by Objects is not a call of Util's static method
    edge = references[("src/main/java/a/Range.java:Range.contains",
                       "src/main/java/a/Util.java:Util.requireNonNull")]
    assert edge["lines"] == (5,)


def test_a_static_calls_reason_counts_only_the_namesakes_its_line_may_mean(
        make_repo, build_index) -> None:
    # review 39: the file names Ser too, so both static methods were guesses until the
    # line's qualifier ruled Ser's out, but the reason still said "one of 2 definitions"
    index = build_index(make_repo({**_JAVA_CHECKS, "src/main/java/a/Range.java":
                                   "package a;\nclass Range {\n"
                                   "    b.Ser ser;\n    void check(Range r) {\n"
                                   "        Util.requireNonNull(r);\n    }\n}\n"}))
    edge = edge_data(index, "references")[("src/main/java/a/Range.java:Range.check",
                                           "src/main/java/a/Util.java:Util.requireNonNull")]
    assert edge["resolved"] == "one of 1 definitions"


def test_a_java_static_method_is_reached_from_a_subclass_and_through_a_static_import(
        make_repo, build_index) -> None:
    index = build_index(make_repo({
        **_JAVA_CHECKS,
        "src/main/java/a/Sub.java": "package a;\nclass Sub extends Util {\n"
                                    "    Object f(Object x) { return requireNonNull(x); }\n}\n",
        "src/main/java/d/Imp.java": "package d;\nimport static b.Ser.requireNonNull;\nclass Imp {\n"
                                    "    Object f(Object x) { return requireNonNull(x, \"x\"); }\n}\n"}))
    references = edges(index, "references")
    assert ("src/main/java/a/Sub.java:Sub.f", "src/main/java/a/Util.java:Util.requireNonNull") \
        in references
    assert ("src/main/java/d/Imp.java:Imp.f", "src/main/java/b/Ser.java:Ser.requireNonNull") \
        in references
    assert ("src/main/java/d/Imp.java:Imp.f", "src/main/java/c/Meth.java:Meth.requireNonNull") \
        not in references


def test_a_php_function_call_is_no_static_method_of_an_imported_class(make_repo, build_index) -> None:
    # monolog's LineFormatter: PHP's own `substr(...)` was Monolog\Utils::substr, which
    # the file imports for `Utils::jsonEncode`; TelegramBotHandler's `Utils::substr` is it
    utils = ("<?php\nnamespace App;\nclass Utils {\n"
             "    public static function substr(string $s, int $a): string { return $s; }\n"
             "    public static function jsonEncode($x): string { return ''; }\n}\n")
    index = build_index(make_repo({
        "src/Utils.php": utils,
        "src/Line.php": "<?php\nnamespace App\\Fmt;\nuse App\\Utils;\nclass Line {\n"
                        "    public function format(string $s): string {\n"
                        "        $a = substr($s, 0, 1);\n"
                        "        return Utils::jsonEncode($a);\n    }\n}\n",
        "src/Tel.php": "<?php\nnamespace App\\Out;\nuse App\\Utils;\nclass Tel {\n"
                       "    public function cut(string $s): string {\n"
                       "        return Utils::substr($s, 0);\n    }\n}\n"}))
    references = edges(index, "references")
    assert ("src/Line.php:App.Fmt.Line.format", "src/Utils.php:App.Utils.jsonEncode") in references
    assert ("src/Line.php:App.Fmt.Line.format", "src/Utils.php:App.Utils.substr") not in references
    assert ("src/Tel.php:App.Out.Tel.cut", "src/Utils.php:App.Utils.substr") in references


def test_a_static_method_called_through_an_alias_of_its_class_is_reached(
        make_repo, build_index) -> None:
    # review 39: `use App\Utils as U; U::substr()` named Utils by its alias only, and the
    # rule that a static method is called through its type's name dropped the link
    utils = ("<?php\nnamespace App;\nclass Utils {\n"
             "    public static function substr(string $s, int $a): string { return $s; }\n}\n")
    index = build_index(make_repo({
        "src/Utils.php": utils,
        "src/Tel.php": "<?php\nnamespace App\\Out;\nuse App\\Utils as U;\nclass Tel {\n"
                       "    public function cut(string $s): string {\n"
                       "        return U::substr($s, 0);\n    }\n"
                       "    public function raw(string $s): string {\n"
                       "        return substr($s, 0, 1);\n    }\n}\n"}))
    references = edges(index, "references")
    assert ("src/Tel.php:App.Out.Tel.cut", "src/Utils.php:App.Utils.substr") in references
    assert ("src/Tel.php:App.Out.Tel.raw", "src/Utils.php:App.Utils.substr") not in references
    csharp = build_index(make_repo({
        "Util.cs": "namespace App {\n    public class Util {\n"
                   "        public static int Req(int x) { return x; }\n    }\n}\n",
        "Svc.cs": "using U = App.Util;\nnamespace Other {\n    public class Svc {\n"
                  "        public int Run(int x) { return U.Req(x); }\n    }\n}\n"}))
    assert ("Svc.cs:Other.Svc.Run", "Util.cs:App.Util.Req") in edges(csharp, "references")


def test_a_go_call_on_a_library_value_links_to_no_method_of_an_unnamed_type(
        make_repo, build_index) -> None:
    # chi: middleware's `r.Header.Get(...)` was _examples/todos-resource's usersResource.Get;
    # a Mux method's `mx.handle(...)` in another file of the package stays linked
    index = build_index(make_repo({
        "go.mod": "module example.com/m\n\ngo 1.22\n",
        "mux.go": "package m\n\ntype Mux struct{}\n\nfunc (mx *Mux) handle(p string) {}\n",
        "routes.go": "package m\n\nfunc (mx *Mux) Route(p string) {\n\tmx.handle(p)\n}\n",
        "middleware/realip.go": "package middleware\n\nimport \"net/http\"\n\n"
                                "func realIP(r *http.Request) string {\n"
                                "\treturn r.Header.Get(\"X-Real-IP\")\n}\n",
        "other/users.go": "package other\n\nimport \"net/http\"\n\ntype usersResource struct{}\n\n"
                          "func (rs usersResource) Get(w http.ResponseWriter, r *http.Request) {}\n"}))
    references = edges(index, "references")
    assert ("middleware/realip.go:realIP", "other/users.go:usersResource.Get") not in references
    assert ("routes.go:Mux.Route", "mux.go:Mux.handle") in references


def test_a_rust_call_of_the_prelude_some_is_no_variant_of_another_crate(
        make_repo, build_index) -> None:
    # ripgrep: globset's `Some(..)` was crates/core's `EncodingMode::Some`
    lowargs = "pub enum EncodingMode {\n    Auto,\n    Some(String),\n}\n"
    index = build_index(make_repo({
        "crates/core/src/lowargs.rs": lowargs,
        "crates/core/src/flags.rs": "use crate::lowargs::EncodingMode;\n\n"
                                    "fn mode(s: String) -> EncodingMode {\n"
                                    "    EncodingMode::Some(s)\n}\n",
        "crates/globset/src/lib.rs": "fn limit() -> Option<usize> {\n    Some(10)\n}\n"}))
    references = edges(index, "references")
    assert ("crates/globset/src/lib.rs:limit", "crates/core/src/lowargs.rs:EncodingMode.Some") \
        not in references
    assert ("crates/core/src/flags.rs:mode", "crates/core/src/lowargs.rs:EncodingMode.Some") \
        in references

