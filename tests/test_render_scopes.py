"""How the text shows a file's blocks around the scopes they sit in: a container's header
once and in line order, a body shown or elided, not both, and windows cut from inside a
definition marked (re-check of trial 16: F1, F2, F4, F6)."""
from conftest import fenced_text

from ctxopt.model import Fidelity, Item
from ctxopt.source import read_blocks
from ctxopt.tokens import Cl100kCounter, count_tokens


def _blocks(make_repo, build_index, files: dict[str, str], items: list[Item]) -> list:
    root = make_repo(files)
    return read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False,
                       context_lines=0, merge_gap=0)


_INNER = ("#[derive(Clone, Debug)]\nstruct Inner {\n    a: u32,\n    b: u32,\n    c: u32,\n"
          "    d: u32,\n    e: u32,\n    f: u32,\n}\n")


def test_a_signature_repeats_no_header_of_a_struct_whose_fields_a_block_above_shows(
        make_repo, build_index) -> None:
    # re-check of trial 16 (F1): ripgrep's `struct IgnoreInner {` (line 115) was shown
    # below lines 127-133, its own fields, above the signature of the fields after them;
    # review 34: left out of the signature, it was nowhere: it goes above the fields
    items = [Item("lib.rs", 5, 6, 130.0, 0, "definition of Inner.c", "Inner.c"),
             Item("lib.rs", 7, 7, 70.0, 1, "used by g", "Inner.e", Fidelity.SIGNATURE),
             Item("lib.rs", 8, 8, 70.0, 1, "used by g", "Inner.f", Fidelity.SIGNATURE)]
    blocks = _blocks(make_repo, build_index, {"lib.rs": _INNER}, items)
    # (trial 20: the marks count the lines they stand for)
    assert fenced_text(blocks) == ("// lines 1-6\n#[derive(Clone, Debug)]\nstruct Inner {\n"
                             "    ⋮ 2 lines\n    c: u32,\n    d: u32,\n// lines 7-8 (signature)\n"
                             "    e: u32,\n    f: u32,\n⋮ 1 line below omitted\n```\n")
    # fields right below the header: no mark between them
    items = [Item("lib.rs", 3, 4, 130.0, 0, "definition of Inner.a", "Inner.a"), *items[1:]]
    blocks = _blocks(make_repo, build_index, {"lib.rs": _INNER}, items)
    assert fenced_text(blocks).startswith("// lines 1-4\n#[derive(Clone, Debug)]\nstruct Inner {\n"
                                    "    a: u32,\n    b: u32,\n// lines 7-8 (signature)\n")


_MATCH = "pub struct Match {\n    start: usize,\n    end: usize,\n}\n"


def test_a_struct_shown_as_its_signature_is_open_above_a_block_of_its_fields(
        make_repo, build_index) -> None:
    # re-check of trial 16 (F2): `pub struct Match { ... }`, then `// lines 70-72 (part of
    # Match)` showed its fields and a `}` that closed nothing shown
    items = [Item("lib.rs", 1, 1, 70.0, 1, "used by f", "Match", Fidelity.SIGNATURE),
             Item("lib.rs", 2, 4, 130.0, 0, "definition of Match.start", "Match.start")]
    blocks = _blocks(make_repo, build_index, {"lib.rs": _MATCH}, items)
    assert fenced_text(blocks) == ("// lines 1-1 (signature)\npub struct Match {\n// lines 2-4\n"
                             "    start: usize,\n    end: usize,\n}\n```\n")
    # alone, its body is elided
    assert fenced_text([b for b in blocks if b.start_line == 1]) == (
        "// lines 1-1 (signature)\npub struct Match { ... }\n```\n")


_IMMER = ("export class Immer {\n    a = 1\n"
          + "".join(f"    m{n}() {{\n        return {n}\n    }}\n" for n in range(6))
          + "    produce = (base: any) => {\n        return base\n    }\n"
          + "    b = 2\n}\n")


def test_a_class_shown_as_its_signature_is_open_above_a_window_of_a_member(
        make_repo, build_index) -> None:
    # re-check of trial 16 (F2): `export class Immer implements ProducersFns { ... }`, then
    # lines 137-150 showed its member `produceWithPatches`; the class goes on below it,
    # as many lines as the marker says (trial 19: a bare `⋮` said neither how many nor of
    # what)
    items = [Item("immer.ts", 1, 1, 70.0, 1, "used by f", "Immer", Fidelity.SIGNATURE),
             Item("immer.ts", 21, 23, 130.0, 0, "definition of Immer.produce",
                  "Immer.produce")]
    blocks = _blocks(make_repo, build_index, {"immer.ts": _IMMER}, items)
    assert fenced_text(blocks) == ("// lines 1-1 (signature)\nexport class Immer {\n// lines 21-23\n"
                             "    produce = (base: any) => {\n        return base\n    }\n"
                             "⋮ 2 lines below omitted\n```\n")


_FLATTEN = ("class P {\n    void flatten(String t) {\n"
            + "".join(f"        if (t.equals(\"{n}\")) {{\n            go({n});\n        }}\n"
                      for n in range(10))
            + "    }\n}\n")


def test_windows_inside_a_definition_mark_the_lines_of_it_left_out(make_repo,
                                                                    build_index) -> None:
    # re-check of trial 16 (F4): a window "part of HelpFormatter.appendOptions" began with
    # a `}` whose opener was not shown and ended inside an `if`, with no marker
    items = [Item("P.java", 9, 11, 80.0, 1, "calls go", "P.flatten"),
             Item("P.java", 18, 20, 80.0, 1, "calls go", "P.flatten")]
    blocks = _blocks(make_repo, build_index, {"P.java": _FLATTEN}, items)
    assert [b.part_of for b in blocks] == [("P.flatten", 2, 33)] * 2
    assert fenced_text(blocks) == (
        "// lines 9-11 (part of P.flatten, lines 2-33)\n⋮ 7 lines above omitted\n"
        "        if (t.equals(\"2\")) {\n            go(2);\n        }\n"
        "⋮ 6 lines below omitted\n"  # (one marker for the lines between the windows)
        "// lines 18-20 (part of P.flatten, lines 2-33)\n"
        "        if (t.equals(\"5\")) {\n            go(5);\n        }\n"
        "⋮ 13 lines below omitted\n```\n")


def test_a_cut_window_is_marked_to_the_ends_of_its_definition_once_a_gap(make_repo,
                                                                        build_index) -> None:
    # review 34: a window the fitter cut kept the cut's markers, which count only to the
    # ends of the block it was cut from ("⋮ 11 lines below omitted" where 13 were), and the
    # gap to the window above was counted by that window's marker and the cut's both
    from dataclasses import replace

    from ctxopt.fit import truncate_block

    items = [Item("P.java", 9, 11, 80.0, 1, "calls go", "P.flatten"),
             Item("P.java", 15, 23, 80.0, 1, "calls go", "P.flatten")]
    first, second = _blocks(make_repo, build_index, {"P.java": _FLATTEN}, items)
    # its lines 18-20, marked as a cut's: 3 lines above, 3 below
    cut = truncate_block(replace(second, focus_line=18), 3, count_tokens)
    assert (cut.start_line, cut.end_line) == (18, 20) and cut.content.startswith("⋮")
    assert fenced_text([first, cut]) == (
        "// lines 9-11 (part of P.flatten, lines 2-33)\n⋮ 7 lines above omitted\n"
        "        if (t.equals(\"2\")) {\n            go(2);\n        }\n"
        "⋮ 6 lines below omitted\n"
        "// lines 18-20 (part of P.flatten, lines 2-33)\n"
        "        if (t.equals(\"5\")) {\n            go(5);\n        }\n"
        "⋮ 13 lines below omitted\n```\n")
    # trial 18: a cut of a block that is no window keeps its marks; the window above
    # counts only the lines above them (12-14, not 12-17 again)
    assert fenced_text([first, replace(cut, part_of=None)]) == (
        "// lines 9-11 (part of P.flatten, lines 2-33)\n⋮ 7 lines above omitted\n"
        "        if (t.equals(\"2\")) {\n            go(2);\n        }\n"
        "⋮ 3 lines below omitted\n"
        "// lines 18-20\n⋮ 3 lines above omitted\n"
        "        if (t.equals(\"5\")) {\n            go(5);\n        }\n"
        "⋮ 3 lines below omitted\n```\n")


def test_context_lines_do_not_start_with_the_end_of_a_statement_above(make_repo,
                                                                      build_index) -> None:
    # re-check of trial 16 (F6): six blocks began with `} from "../internal"`, their
    # `import {` not shown
    source = 'import {\n\ta,\n\tb\n} from "../internal"\n\nexport type T = number\n'
    root = make_repo({"t.ts": source})
    (block,) = read_blocks(root, [Item("t.ts", 6, 6, 130.0, 0, "definition of T", "T")],
                           build_index(root), Cl100kCounter(), whole_files=False)
    assert (block.start_line, block.content) == (6, "export type T = number")


_ARCH = ('import {a} from "x"\n\nexport const enum ArchType {\n\tObject,\n\tArray,\n\tMap,\n'
         '\tSet\n}\n\nexport interface Base {\n\tparent: Base\n\tscope: number\n}\n')


def test_a_cut_from_a_member_shows_the_header_of_the_scope_it_is_in() -> None:
    # re-check of trial 16 (F6): a cut of immer's types-internal.ts from `ArchType.Map`
    # showed `⋮ 22 lines above omitted`, `Map,`, `Set`, `}`: not `export const enum ArchType {`
    from ctxopt.fit import truncate_block
    from ctxopt.model import Block

    content = _ARCH.rstrip("\n")
    block = Block(path="t.ts", language="typescript", start_line=1, end_line=13,
                  content=content, tokens=count_tokens(content), score=130.0, ring=0,
                  reason="definition of ArchType.Map", symbols=("ArchType.Map",), focus_line=6)
    cut = truncate_block(block, 3, count_tokens)
    assert cut.content == ("export const enum ArchType {\n\t⋮ 2 lines\n\tMap,\n\tSet\n"
                           "⋮ 6 lines below omitted")
    assert (cut.start_line, cut.end_line) == (3, 7)


def test_a_signatures_range_holds_the_header_of_the_struct_it_shows(make_repo,
                                                                    build_index) -> None:
    # re-check of trial 16 (F5): `// lines 79-81 (signature)` showed `#[derive(Debug)]
    # pub(crate) struct HiArgs {` of lines 35-36 above three fields
    items = [Item("lib.rs", 7, 7, 70.0, 1, "used by g", "Inner.e", Fidelity.SIGNATURE)]
    blocks = _blocks(make_repo, build_index, {"lib.rs": _INNER}, items)
    assert fenced_text(blocks) == ("// lines 1-7 (signature)\n#[derive(Clone, Debug)]\nstruct Inner {\n"
                             "    ⋮ 4 lines\n    e: u32,\n⋮ 2 lines below omitted\n```\n")


_STORE = "class Store {\n    int get() {\n        return 1;\n    }\n}\n"


def test_blocks_whose_lines_touch_are_shown_under_one_marker(make_repo, build_index) -> None:
    # trial 19: `// lines 149-156` then `// lines 157-158` over the `}` closing the class
    # and namespace; `// lines 368-368` over a lone `}`
    items = [Item("Store.java", 2, 4, 130.0, 0, "definition of Store.get", "Store.get"),
             Item("Store.java", 5, 5, 20.0, 3, "the rest of the file", None)]
    blocks = _blocks(make_repo, build_index, {"Store.java": _STORE}, items)
    # (a block of the lone `}` is made part of the one above it: source._closers_joined)
    assert [(b.start_line, b.end_line) for b in blocks] == [(2, 5)]
    assert fenced_text(blocks) == ("// lines 2-5\n    int get() {\n        return 1;\n    }\n}\n"
                                   "```\n")
    # a signature's lines are headers: it keeps a marker of its own
    items[0] = Item("Store.java", 2, 4, 70.0, 1, "used by f", "Store.get", Fidelity.SIGNATURE)
    blocks = _blocks(make_repo, build_index, {"Store.java": _STORE}, items)
    assert fenced_text(blocks).count("// lines") == 2


def test_a_signature_gives_the_json_the_file_lines_of_its_headers(make_repo, build_index) -> None:
    # trial 19: a signature block's JSON "lines" were null, where every other kind has them
    import json

    from ctxopt.model import Intent, Result, Selection
    from ctxopt.render import render_json

    code = ("class Store {\n    int get() {\n        return 1;\n    }\n    int put()\n    {\n"
            "        return 2;\n    }\n}\n")
    items = [Item("Store.java", 1, 9, 70.0, 1, "used by f", "Store", Fidelity.SIGNATURE)]
    (block,) = _blocks(make_repo, build_index, {"Store.java": code}, items)
    assert block.kind is Fidelity.SIGNATURE
    assert block.content == "class Store {\n    int get() { ... }\n    int put() { ... }\n}"
    result = Result(task="t", intent=Intent.FIX, budget=10_000, selection=Selection(blocks=(block,)))
    (shown,) = json.loads(render_json(result, count_tokens))["blocks"]
    # (trial 20: with the line of put's Allman `{`, which its `{ ... }` stands for)
    assert shown["lines"] == [[1, 2], [5, 6], [9, 9]]


def _json_lines(block) -> list | None:
    import json

    from ctxopt.model import Intent, Result, Selection
    from ctxopt.render import render_json

    result = Result(task="t", intent=Intent.FIX, budget=10_000, selection=Selection(blocks=(block,)))
    (shown,) = json.loads(render_json(result, count_tokens))["blocks"]
    return shown["lines"]


def test_a_signature_of_an_allman_class_header_alone_gives_its_lines(make_repo, build_index) -> None:
    # trial 20: JPypeContext.java's signature `public class JPypeContext {` had lines null,
    # and a block of the doc comment above the class showed it: its header was looked
    # for with its `{` (on the line below) and placed at the comment's first line
    code = ("/**\n * Context.\n */\npublic class Context\n{\n\n  private long context;\n"
            "  private int count;\n}\n")
    items = [Item("Context.java", 1, 5, 70.0, 1, "used by f", "Context", Fidelity.SIGNATURE)]
    (block,) = _blocks(make_repo, build_index, {"Context.java": code}, items)
    assert block.content.startswith("public class Context {")
    assert _json_lines(block)[0] == [4, 5]  # the header and its `{`


def test_a_python_signature_gives_its_docstring_and_one_line_bodies_their_lines(
        make_repo, build_index) -> None:
    # trial 20: `"""Summary ..."""` had no line in the JSON; review 35: `def f(self):
    # return 1` was looked for as `def f(self):` and left out
    code = ('class K:\n    """Summary.\n\n    More.\n    """\n\n'
            "    # one line\n    def f(self): return 1\n\n    def g(self):\n"
            '        """\n        G does it.\n        """\n        return 2\n')
    items = [Item("k.py", 1, 14, 70.0, 1, "used by f", "K", Fidelity.SIGNATURE)]
    (block,) = _blocks(make_repo, build_index, {"k.py": code}, items)
    assert block.content == ('class K:\n    """Summary. ..."""\n    def f(self):\n        ...\n'
                             '    def g(self):\n        """G does it."""\n        ...')
    assert _json_lines(block) == [[1, 2], [8, 8], [10, 12]]


def test_a_signature_of_a_file_changed_since_the_index_has_no_lines(make_repo, build_index) -> None:
    # review 35: the lines are known from the index, and checked against the file: a
    # header that is not where the index said gives null, not another line
    from ctxopt.source import signature_rows
    from ctxopt.model import Definition

    method = Definition("get", "method", "Store.get", 2, 4, "    int get() { ... }", parent=0)
    assert signature_rows(method, ["class Store {", "    int get() {", "    }"]) == [
        ("    int get() { ... }", (2,))]
    assert signature_rows(method, ["class Store {", "    int put() {", "    }"]) == [
        ("    int get() { ... }", (-1,))]


_VARIANTS = ("pub enum Model {\n    /// A binary.\n    Bin,\n    /// A module.\n    Bindings(u8),\n"
             "    Cffi,\n}\n\nfn f() {\n    g();\n}\n")


def test_a_signatures_marks_of_members_left_out_count_their_lines(make_repo, build_index) -> None:
    # trial 20: maturin's `pub enum BridgeModel {`, `⋮`, two variants, `⋮`: a bare mark
    # said neither how many lines it stood for nor that the `}` was among them; code
    # blocks say `⋮ N lines` and `⋮ N lines below omitted`
    items = [Item("lib.rs", 5, 5, 70.0, 1, "used by f", "Model.Bindings", Fidelity.SIGNATURE)]
    blocks = _blocks(make_repo, build_index, {"lib.rs": _VARIANTS}, items)
    assert fenced_text(blocks) == ("// lines 1-5 (signature)\npub enum Model {\n    ⋮ 3 lines\n"
                                   "    Bindings(u8),\n⋮ 2 lines below omitted\n```\n")
    # the lines a block right below shows are not marked: the mark goes
    items.append(Item("lib.rs", 6, 11, 130.0, 0, "definition of f", "f"))
    blocks = _blocks(make_repo, build_index, {"lib.rs": _VARIANTS}, items)
    assert "below omitted" not in fenced_text(blocks)
    assert fenced_text(blocks).startswith("// lines 1-5 (signature)\npub enum Model {\n"
                                          "    ⋮ 3 lines\n    Bindings(u8),\n// lines 6-11\n")


_KY = ("export class Ky {\n    a = 1\n    retry = (base: any) => {\n"
       + "".join(f"        const x{n} = {n}\n" for n in range(15))
       + "        return base\n    }\n    b = 2\n    c = 3\n}\n")


def test_a_window_last_in_a_class_shown_open_marks_the_rest_of_the_class(
        make_repo, build_index) -> None:
    # review 35 (#11): a window of a member, the last block inside `class Ky {` shown
    # open, said "⋮ 34 lines below omitted", the rest of the member, while 566 more lines
    # of the class followed unmarked
    items = [Item("ky.ts", 1, 1, 70.0, 1, "used by f", "Ky", Fidelity.SIGNATURE),
             Item("ky.ts", 10, 12, 130.0, 0, "definition of Ky.retry", "Ky.retry")]
    text = fenced_text(_blocks(make_repo, build_index, {"ky.ts": _KY}, items))
    assert text.startswith("// lines 1-1 (signature)\nexport class Ky {\n")
    # lines 13-20 of retry, then b, c and the class's `}`
    assert text.endswith("        const x8 = 8\n⋮ 11 lines below omitted\n```\n")


_STRATEGIES = ("struct A(u8);\n\nimpl A {\n    fn new() -> A {\n        A(0)\n    }\n\n"
               "    fn matches_all(&self) -> bool {\n        true\n    }\n}\n\n"
               "struct B(u8);\n\nimpl B {\n    fn new() -> B {\n        B(0)\n    }\n\n"
               "    fn matches_all(&self) -> bool {\n        false\n    }\n}\n")


def test_a_signature_of_a_method_opens_with_the_impl_it_is_in(make_repo, build_index) -> None:
    # trial 39: ripgrep's six `fn matches_all` signatures, each of another strategy's
    # `impl`, showed bare, all but the first under no `impl` line
    items = [Item("lib.rs", 8, 10, 70.0, 3, "same file", "A.matches_all", Fidelity.SIGNATURE),
             Item("lib.rs", 20, 22, 70.0, 3, "same file", "B.matches_all", Fidelity.SIGNATURE)]
    blocks = _blocks(make_repo, build_index, {"lib.rs": _STRATEGIES}, items)
    assert fenced_text(blocks) == (
        "// lines 3-10 (signature)\nimpl A {\n    ⋮ 4 lines\n"
        "    fn matches_all(&self) -> bool { ... }\n"
        "// lines 15-22 (signature)\nimpl B {\n    ⋮ 4 lines\n"
        "    fn matches_all(&self) -> bool { ... }\n```\n")


_CHAR_RANGE = ("final class CharRange {\n\n    private static final class CharacterIterator {\n\n"
               "        private char current;\n        private boolean hasNext;\n\n"
               "        private CharacterIterator(final CharRange r) {\n"
               "            hasNext = true;\n        }\n    }\n\n"
               "    private final boolean negated;\n}\n")


def test_a_signature_of_fields_and_a_constructor_opens_with_their_class(
        make_repo, build_index) -> None:
    # trial 39: commons-lang's `private char current; ... private CharacterIterator(...)`
    # showed under no `class CharacterIterator` line, as if CharRange's fields
    items = [Item("CharRange.java", 1, 1, 130.0, 0, "definition of CharRange", "CharRange"),
             Item("CharRange.java", 5, 10, 70.0, 1, "used by f", "CharacterIterator.current",
                  Fidelity.SIGNATURE)]
    blocks = _blocks(make_repo, build_index, {"CharRange.java": _CHAR_RANGE}, items)
    assert fenced_text(blocks) == (
        "// lines 1-1 (part of CharRange, lines 1-14)\nfinal class CharRange {\n"
        "⋮ 1 line below omitted\n// lines 3-10 (signature)\n"
        "    private static final class CharacterIterator {\n        private char current;\n"
        "        private boolean hasNext;\n"
        "        private CharacterIterator(final CharRange r) { ... }\n⋮ 1 line below omitted\n```\n")


def test_a_signature_of_a_method_right_below_its_impl_marks_no_gap(
        make_repo, build_index) -> None:
    # review of trial 39's impl lines: `impl B {` then a bare `⋮`, for no line between it
    # and `fn new`
    items = [Item("lib.rs", 16, 22, 70.0, 3, "same file", "B.new", Fidelity.SIGNATURE)]
    blocks = _blocks(make_repo, build_index, {"lib.rs": _STRATEGIES}, items)
    assert fenced_text(blocks) == (
        "// lines 15-22 (signature)\nimpl B {\n    fn new() -> B { ... }\n"
        "    fn matches_all(&self) -> bool { ... }\n```\n")


def test_a_signature_under_an_impl_line_shows_the_impl_closing_in_it(
        make_repo, build_index) -> None:
    # review of trial 39's impl lines: `impl B {` was shown above the block, its `}` in
    # the block was not (a closer is shown only under an opener of its indent)
    items = [Item("lib.rs", 20, 23, 70.0, 3, "same file", "B.matches_all", Fidelity.SIGNATURE)]
    blocks = _blocks(make_repo, build_index, {"lib.rs": _STRATEGIES}, items)
    assert fenced_text(blocks) == (
        "// lines 15-23 (signature)\nimpl B {\n    ⋮ 4 lines\n"
        "    fn matches_all(&self) -> bool { ... }\n}\n```\n")


def test_a_signature_of_the_methods_of_a_long_impl_is_read_in_one_pass(
        make_repo, build_index) -> None:
    # review of trial 39's impl lines: each method's scope was found by a scan up from it
    # to the `impl` line, 1.6 s of CPU for these 3,000 methods (0.2 s read in one pass)
    methods = "".join(f"    fn m{n}(&self) -> u32 {{\n        {n}\n    }}\n" for n in range(3000))
    root = make_repo({"lib.rs": "struct A;\n\nimpl A {\n" + methods + "}\n"})
    index = build_index(root)
    items = [Item("lib.rs", 4, 9003, 70.0, 3, "same file", "A.m0", Fidelity.SIGNATURE)]
    (block,) = read_blocks(root, items, index, Cl100kCounter(), whole_files=False,
                           context_lines=0, merge_gap=0)
    assert block.signature.startswith("impl A {\n    fn m0(&self) -> u32 { ... }\n")
    assert block.signature.endswith("\n    fn m2999(&self) -> u32 { ... }")
