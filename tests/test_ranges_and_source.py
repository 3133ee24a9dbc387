from dataclasses import replace
from itertools import pairwise

import pytest
from conftest import fenced_text
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxopt.model import Definition, Fidelity, Item
from ctxopt.parsing.languages import language_for_path
from ctxopt.parsing.treesitter import extract_tags
from ctxopt.ranges import clamp_range, merge_ranges
from ctxopt.render import render_block, shown_kind
from ctxopt.source import outline, read_blocks, read_lines
from ctxopt.store import IndexOptions, open_index
from ctxopt.tokens import Cl100kCounter

ranges = st.lists(st.tuples(st.integers(1, 60), st.integers(0, 10)).map(lambda t: (t[0], t[0] + t[1])),
                  max_size=12)


@given(ranges, st.integers(0, 5))
def test_merge_ranges_against_a_set_oracle(spans, gap) -> None:
    merged = merge_ranges(spans, gap)
    covered = {line for start, end in merged for line in range(start, end + 1)}
    wanted = {line for start, end in spans for line in range(start, end + 1)}
    assert wanted <= covered
    # only closed gaps of at most `gap` lines are added
    assert all(any(abs(line - w) <= gap for w in wanted) for line in covered - wanted)
    for (_, end), (start, _) in pairwise(merged):
        assert start > end + gap + 1  # sorted, disjoint and further apart than the gap
    assert merge_ranges(merged, gap) == merged  # idempotent


@given(st.integers(-5, 50), st.integers(-5, 50), st.integers(0, 40))
def test_clamp_stays_in_the_file(start, end, count) -> None:
    clamped = clamp_range(start, end, count)
    if clamped is not None:
        assert 1 <= clamped[0] <= clamped[1] <= count


def test_read_lines_handles_bom_crlf_and_bad_bytes(tmp_path) -> None:
    path = tmp_path / "x.py"
    path.write_bytes(b"\xef\xbb\xbfa = 1\r\nb = '\xff'\r\nc = 3")
    assert read_lines(path) == ["a = 1", "b = '\ufffd'", "c = 3"]


def test_blocks_get_context_lines_and_close_ranges_merge(make_repo, build_index) -> None:
    root = make_repo({"m.py": "".join(f"line{i}\n" for i in range(1, 41))})
    index = build_index(root)
    items = [Item("m.py", 10, 12, 120, 0, "a", "A"), Item("m.py", 16, 17, 70, 2, "b", "B"),
             Item("m.py", 30, 31, 40, 3, "c", "C")]
    blocks = read_blocks(root, items, index, Cl100kCounter(), whole_files=False)
    assert [(b.start_line, b.end_line, b.score, b.ring, b.symbols) for b in blocks] == [
        (8, 12, 120, 0, ("A",)),
        (14, 17, 70, 2, ("B",)),  # within 3 lines, but a weaker tier: not merged
        (28, 31, 40, 3, ("C",)),
    ]
    assert blocks[0].content.split("\n")[0] == "line8"
    assert blocks[0].tokens == Cl100kCounter().count(blocks[0].content)


def test_a_blocks_focus_is_its_best_definitions_first_line(make_repo, build_index) -> None:
    # A cut block starts at the definition (its decorators and comments are part of it),
    # not at the context lines above it: those were the end of the definition before.
    source = "def before():\n    return 0\n\n# why\n@cached\ndef target():\n    return 1\n"
    root = make_repo({"m.py": source})
    (block,) = read_blocks(root, [Item("m.py", 4, 7, 120, 0, "a", "target")],
                           build_index(root), Cl100kCounter(), whole_files=False)
    assert (block.start_line, block.focus_line) == (2, 4)


def test_ranges_of_one_tier_merge(make_repo, build_index) -> None:
    root = make_repo({"m.py": "".join(f"line{i}\n" for i in range(1, 41))})
    items = [Item("m.py", 10, 12, 120, 0, "a", "A"), Item("m.py", 16, 17, 110, 0, "b", "B")]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False)
    assert (block.start_line, block.end_line, block.symbols) == (8, 17, ("A", "B"))
    assert block.reason == "a (+1 more)"


def test_signature_items_make_signature_blocks_with_class_skeletons(make_repo, build_index) -> None:
    from ctxopt.model import Fidelity
    root = make_repo({"m.py": "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"})
    items = [Item("m.py", 1, 6, 40, 3, "best match", "A", fidelity=Fidelity.SIGNATURE)]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False, context_lines=0)
    assert block.kind is Fidelity.SIGNATURE
    assert block.content == "class A:\n    def f(self):\n        ...\n    def g(self):\n        ..."


def test_subtract_ranges_against_a_set_oracle() -> None:
    from ctxopt.ranges import subtract_ranges
    spans, taken = [(1, 10), (20, 25)], [(3, 4), (8, 21), (30, 31)]
    got = {line for s, e in subtract_ranges(spans, taken) for line in range(s, e + 1)}
    want = {line for s, e in spans for line in range(s, e + 1)} - {
        line for s, e in taken for line in range(s, e + 1)}
    assert got == want and subtract_ranges(spans, taken) == [(1, 2), (5, 7), (22, 25)]


def test_blank_leftover_between_tiers_is_not_a_block(make_repo, build_index) -> None:
    # trial: `v3/ZodError.ts:191-191`, an empty fence (0 tokens) after tier splitting
    root = make_repo({"m.py": "a = 1\n\nb = 2\n"})
    items = [Item("m.py", 1, 1, 120, 0, "a", "a"), Item("m.py", 2, 2, 40, 3, "b", "b")]
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False, context_lines=0)
    assert [(b.start_line, b.end_line) for b in blocks] == [(1, 1)]


def test_a_long_decorator_is_cut_in_a_signature_block(make_repo, build_index) -> None:
    table = "\n".join(f"        ({i}, {i + 1})," for i in range(200))
    source = (f"import pytest\n\n\n@pytest.mark.parametrize(\n    \"a,b\",\n    [\n{table}\n    ],\n)\n"
              "@pytest.mark.slow\ndef test_add(a, b):\n    assert a + 1 == b\n")
    root = make_repo({"tests/test_add.py": source})
    index = build_index(root)
    end = source.split("\n").index("def test_add(a, b):") + 2
    items = [Item("tests/test_add.py", 4, end, 70.0, 2, "tests add", "test_add",
                  Fidelity.SIGNATURE)]
    [block] = read_blocks(root, items, index, Cl100kCounter(), whole_files=False)
    assert block.content.split("\n") == [
        "@pytest.mark.parametrize(", "    ⋮ 203 lines", ")", "@pytest.mark.slow",
        "def test_add(a, b):", "    ..."]


def test_salient_lines_are_the_pointed_line_then_task_words_then_inner_definitions() -> None:
    from ctxopt.source import salient_lines
    lines = ["class Session:", "    # redirect notes", "    def send(self):",
             "        return self.redirect(url)", "    def close(self):", "        pass"]
    terms = {"redirect": 2.0, "url": 1.0}
    definitions = (Definition("send", "method", "Session.send", 12, 13, ""),
                   Definition("close", "method", "Session.close", 14, 15, ""))
    # code over a comment with the same word; then headers
    assert salient_lines(lines, 10, (), terms, definitions) == (13, 11, 12, 14)
    # the line pointed at first, then the ``FOCUS_ABOVE`` lines above it, then those below
    assert salient_lines(lines, 10, (14,), terms, definitions) == (14, 11, 12, 13, 15)


def test_the_smallest_cut_of_a_block_shows_the_line_a_stack_frame_points_at(
        make_repo, build_index) -> None:
    # trial 8: a Java frame's line (the one that throws) was cut away; the cut kept a long
    # comment three lines above it
    from click.testing import CliRunner

    from ctxopt.cli import main
    body = "".join(f"        step{n}();\n" for n in range(30))
    source = ("class Tokeniser {\n    int consume(int ref) {\n" + body +
              "        // a comment above the line that throws, long enough to take the room\n"
              "        if (ref > 1) {\n            codeRef[0] = replacement;\n        }\n"
              + body + "        return 0;\n    }\n}\n")
    root = make_repo({"src/Tokeniser.java": source})
    line = source.split("\n").index("            codeRef[0] = replacement;") + 1
    result = CliRunner().invoke(main, ["gather", f"at Tokeniser.consume(Tokeniser.java:{line})",
                                       "--root", str(root), "--budget", "130"])
    assert result.exit_code == 0, result.stderr
    assert "codeRef[0] = replacement;" in result.stdout


def test_a_block_with_task_words_carries_salient_lines(make_repo, build_index) -> None:
    body = "".join(f"    step_{i} = {i}\n" for i in range(20))
    root = make_repo({"m.py": f"def handle():\n{body}    follow_redirect()\n    return 1\n"})
    items = [Item("m.py", 1, 23, 120, 0, "a", "handle")]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False, context_lines=0,
                           terms={"redirect": 2.0})
    assert block.salient[0] == 22 and block.focus_line == 1


def test_a_window_of_a_long_caller_says_it_is_part_of_it(make_repo, build_index) -> None:
    # review F3: a window around a call in a long caller was "full" with nothing saying
    # that the caller's other lines were left out
    body = "".join(f"    x{n} = {n}\n" for n in range(20))
    root = make_repo({"m.py": f"def caller():\n{body}    target()\n{body}    return x0\n"})
    index = build_index(root)
    window = Item("m.py", 16, 28, 80.0, 2, "calls target", "caller")
    whole = Item("m.py", 1, 43, 80.0, 2, "calls target", "caller")
    (block,) = read_blocks(root, [window], index, Cl100kCounter(), whole_files=False, context_lines=0)
    assert block.part_of == ("caller", 1, 43) and block.kind is Fidelity.FULL
    assert render_block(block).split("\n")[3] == "# lines 16-28 (part of caller, lines 1-43)"
    assert shown_kind(block) == "window"
    (block,) = read_blocks(root, [whole], index, Cl100kCounter(), whole_files=False, context_lines=0)
    assert block.part_of is None and shown_kind(block) == "full"
    assert render_block(block).split("\n")[3] == "# lines 1-43"


def test_a_definition_whose_other_lines_a_stronger_block_holds_is_not_a_window(
        make_repo, build_index) -> None:
    # its first line is a ring-3 block of its own, the rest in the ring-0 block below it
    root = make_repo({"m.py": "def small(a,\n          b):\n    return a\n"})
    items = [Item("m.py", 2, 3, 120.0, 0, "named", "small"),
             Item("m.py", 1, 3, 30.0, 3, "same file", "small")]
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False, context_lines=0)
    assert [(b.start_line, b.end_line, b.part_of) for b in blocks] == [
        (2, 3, ("small", 1, 3)), (1, 1, None)]


def test_a_merge_does_not_bridge_back_over_a_stronger_blocks_lines(make_repo, build_index) -> None:
    # issue 11: two ring-3 lines 3 lines apart merged across the ring-0 block between them
    root = make_repo({"m.py": "".join(f"line{i}\n" for i in range(1, 21))})
    items = [Item("m.py", 10, 12, 120, 0, "a", "A"), Item("m.py", 9, 9, 45, 3, "b", "B"),
             Item("m.py", 13, 13, 40, 3, "c", "C")]
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0,
                         whole_files=False)
    assert sorted((b.start_line, b.end_line, b.score) for b in blocks) == [
        (9, 9, 45), (10, 12, 120), (13, 13, 45)]  # the parts of one merge: its score
    # (Live cfn-lint: a class's part below a named member fell to a callee's score, 79.5 ->
    # 63.9, and was shown as a signature at 4,000 tokens where it had been whole)


# one score per tier; items crowd 12 lines so that ranges of different tiers meet
_TIER_SCORES = (120.0, 70.0, 40.0)


@pytest.fixture(scope="module")
def read_fixture(tmp_path_factory):
    """A 40-line file and its index, shared by the examples of a property."""
    root = tmp_path_factory.mktemp("lines")
    (root / "m.py").write_text("".join(f"line{i}\n" for i in range(1, 41)))
    index, _ = open_index(root, IndexOptions(path=root.parent / "lines.db", jobs=1))
    yield root, index
    index.close()


@given(st.lists(st.tuples(st.integers(1, 10), st.integers(0, 2), st.sampled_from(_TIER_SCORES)),
                min_size=3, max_size=8), st.integers(0, 1), st.integers(2, 4))
@settings(max_examples=300)
def test_no_line_is_in_two_blocks(read_fixture, spans, context, gap) -> None:
    root, index = read_fixture
    items = [Item("m.py", start, start + length, score, {120.0: 0, 70.0: 2, 40.0: 3}[score],
                  "r", f"S{n}") for n, (start, length, score) in enumerate(spans)]
    blocks = read_blocks(root, items, index, Cl100kCounter(), whole_files=False, context_lines=context,
                         merge_gap=gap)
    seen: set[int] = set()
    for block in blocks:
        lines = set(range(block.start_line, block.end_line + 1))
        assert not lines & seen
        seen |= lines
    # every item's own lines are still shown (none lost to the split)
    wanted = {line for start, length, _ in spans for line in range(start, start + length + 1)}
    assert wanted <= seen


def _functions(count: int, body: int = 1) -> str:
    return "".join(f"def f{n}(x):\n" + "".join(f"    x = x + {n} * {k}\n" for k in range(body))
                   + "    return x\n\n\n" for n in range(count))


def test_a_small_file_with_code_shown_is_one_block_of_all_of_it(make_repo, build_index) -> None:
    # issue 11: a small file shown whole cannot miss the line a fix changes
    root = make_repo({"m.py": _functions(4)})
    items = [Item("m.py", 6, 7, 120, 0, "named f1", "f1"), Item("m.py", 16, 17, 40, 3, "b", "f3")]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0)
    assert (block.start_line, block.end_line, block.score, block.ring) == (1, 18, 120, 0)
    assert block.symbols == ("f1", "f3") and block.reason == "named f1 (whole file)"
    assert block.content == (root / "m.py").read_text().rstrip("\n")
    assert block.focus_line == 6 and block.salient[:2] == (6, 7)  # a cut opens at f1


def test_a_whole_files_ring_0_blocks_come_first_and_are_its_cover(make_repo, build_index) -> None:
    # the fitter grows a whole file's ring-0 blocks as ring 0 and plans the rest of the file
    # (here f1, a ring-1 block ranked above the ring-3 one) as an upgrade (``Block.cover``)
    root = make_repo({"m.py": _functions(4)})
    items = [Item("m.py", 11, 12, 70, 1, "member", "f2"), Item("m.py", 16, 17, 120, 0, "named", "f3"),
             Item("m.py", 6, 7, 40, 3, "r", "f1")]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0)
    assert block.cover == 2 and block.salient[:4] == (16, 17, 11, 12)
    assert block.focus_line == 16
    # f2's lines, after the cover, are a step of their own at f2's score (not f1's: ring 3)
    assert block.near_covers == ((4, 70),)


def test_a_large_file_is_whole_only_when_its_blocks_cost_half_of_it(make_repo, build_index) -> None:
    from ctxopt.source import SMALL_FILE_TOKENS
    root = make_repo({"m.py": _functions(2, body=60)})  # two functions of 62 lines each
    index, counter = build_index(root), Cl100kCounter()
    assert counter.count((root / "m.py").read_text()) > SMALL_FILE_TOKENS
    one = [Item("m.py", 1, 40, 120, 0, "named f0", "f0")]
    assert [(b.start_line, b.end_line) for b in read_blocks(
        root, one, index, counter, context_lines=0)] == [(1, 40)]
    half = [Item("m.py", 1, 66, 120, 0, "named f0", "f0")]
    assert [(b.start_line, b.end_line) for b in read_blocks(
        root, half, index, counter, context_lines=0)] == [(1, 126)]  # (not its last blank lines)


def test_a_file_shown_only_as_a_signature_is_not_shown_whole(make_repo, build_index) -> None:
    root = make_repo({"m.py": _functions(3)})
    items = [Item("m.py", 6, 7, 120, 0, "named", "f1", fidelity=Fidelity.SIGNATURE)]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0)
    assert (block.start_line, block.end_line, block.kind) == (6, 7, Fidelity.SIGNATURE)


def test_no_file_above_the_whole_file_limit_is_shown_whole(make_repo, build_index) -> None:
    # trial: a 10,000-token module whose candidates cost half of it took most of 8,000 tokens
    from ctxopt.source import WHOLE_FILE_TOKENS
    root = make_repo({"m.py": _functions(4, body=80)})
    index, counter = build_index(root), Cl100kCounter()
    assert counter.count((root / "m.py").read_text()) > WHOLE_FILE_TOKENS
    items = [Item("m.py", 1 + 84 * n, 70 + 84 * n, 120, 0, "named", f"f{n}") for n in range(4)]
    assert len(read_blocks(root, items, index, counter, context_lines=0)) == 4


def test_only_the_best_tiers_blocks_count_for_showing_a_file_whole(make_repo, build_index) -> None:
    # a ring-0 definition of 21 tokens in a file of ring-1 signatures was shown whole, all
    # 753 tokens of it, at ring 0
    root = make_repo({"m.py": _functions(2, body=60)})
    items = [Item("m.py", 1, 2, 120, 0, "named f0", "f0"), Item("m.py", 3, 126, 70, 1, "r", "f1")]
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0)
    assert [(b.start_line, b.end_line) for b in blocks] == [(1, 2), (3, 126)]


def test_a_file_of_ring_3_blocks_is_not_shown_whole(make_repo, build_index) -> None:
    # a ring 3-4 block is shown whole or not at all: a whole file would push others out
    root = make_repo({"m.py": _functions(4)})
    items = [Item("m.py", 6, 7, 40, 3, "same file", "f1")]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0)
    assert (block.start_line, block.end_line) == (6, 7)


def test_a_file_whose_best_block_is_of_rings_1_2_is_not_shown_whole(make_repo, build_index) -> None:
    # its upgrade to whole goes by score: a whole file went as early as a definition of its
    # score and pushed other files' blocks out (Live pylint file recall at 4,000 tokens)
    root = make_repo({"m.py": _functions(4)})
    items = [Item("m.py", 6, 7, 70, 1, "member", "f1"), Item("m.py", 11, 12, 40, 3, "r", "f2")]
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0)
    assert sorted((b.start_line, b.end_line) for b in blocks) == [(6, 7), (11, 12)]


def test_a_file_whose_items_hold_only_blank_lines_gives_no_block(make_repo, build_index) -> None:
    root = make_repo({"m.py": "x = 1\n\n\n\ny = 2\n"})
    items = [Item("m.py", 2, 3, 120, 0, "named", None)]
    assert read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0) == []


def test_a_file_with_hidden_lines_is_not_shown_whole(make_repo, build_index) -> None:
    # a gather without tests hides the tests marked in the code: a whole file would show them
    root = make_repo({"m.py": _functions(4)})
    items = [Item("m.py", 6, 7, 120, 0, "named f1", "f1")]
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0,
                         hidden=lambda path: [(16, 18)])
    assert [(b.start_line, b.end_line) for b in blocks] == [(6, 7)]


def test_a_class_signature_lists_only_the_members_in_its_block(make_repo, build_index) -> None:
    # trial 6: a class's header block, split around a member a stronger block shows, listed
    # every member of the class, so each member's signature showed twice and the block's
    # `lines 1-9 (signature)` named lines it did not show
    methods = "".join(f"    def method_{n}(self):\n        return {n}\n\n" for n in range(6))
    root = make_repo({"m.py": "class Store:\n    \"\"\"Keeps things.\"\"\"\n\n" + methods})
    index = build_index(root)
    last = 4 + 3 * 5  # method_5's first line
    items = [Item("m.py", 1, 21, 80.0, 1, "contains Store.method_5", "Store", Fidelity.SIGNATURE),
             Item("m.py", last, last + 1, 130.0, 0, "definition of method_5", "Store.method_5")]
    blocks = read_blocks(root, items, index, Cl100kCounter(), whole_files=False)
    header = next(b for b in blocks if b.start_line == 1)
    assert header.end_line < last and "method_0" in header.content
    assert "method_5" not in header.content and "method_5" in blocks[0].content


def test_a_class_signature_below_a_file_scoped_namespace_is_the_class(make_repo,
                                                                     build_index) -> None:
    # trial 12: the block of a C# class's header began at `namespace Serilog.Core;`, whose
    # one line was the block's whole signature; the class declaration was lost
    source = ("namespace Serilog.Core;\n\n/// <summary>Doc.</summary>\n"
              "public sealed class Logger : ILogger, IDisposable\n{\n    int _count;\n\n"
              "    void Dispatch() { _count++; }\n}\n")
    root = make_repo({"Logger.cs": source})
    items = [Item("Logger.cs", 1, 6, 80.0, 1, "contains Serilog.Core.Logger.Dispatch",
                  "Serilog.Core.Logger", Fidelity.SIGNATURE)]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False)
    assert block.signature.startswith("public sealed class Logger : ILogger, IDisposable")
    assert "namespace" not in block.signature


def _read(make_repo, build_index, files: dict[str, str], items: list[Item],
          **options: int) -> list:
    """The blocks ``read_blocks`` makes of ``items`` in a repository of ``files``, no file
    whole."""
    root = make_repo(files)
    return read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False,
                       **options)


def test_a_block_does_not_start_with_the_brace_of_a_declaration_it_lacks(make_repo,
                                                                         build_index) -> None:
    # trial 12: a C# field's block took the `{` below `public class LogEvent` as context,
    # and began with that bare brace, the class not shown
    source = "public class LogEvent\n{\n    int _traceId;\n    int _spanId;\n}\n"
    items = [Item("LogEvent.cs", 3, 3, 130.0, 0, "definition of LogEvent._traceId",
                  "LogEvent._traceId")]
    (block,) = _read(make_repo, build_index, {"LogEvent.cs": source}, items)
    assert block.start_line == 3 and block.content.startswith("    int _traceId;")


def test_a_typedef_struct_signature_is_one_declaration_with_its_fields_inside(
        make_repo, build_index) -> None:
    # trial 12: hiredis's signature block showed `typedef struct T { ... } T;` then an
    # invented `struct T {` ... `}`, and began with the last fields of the struct above
    # it without their `typedef struct ... {` and `} Name;`
    source = ("typedef struct funcs {\n    void (*close)(int);\n    int (*read)(int);\n"
              "} funcs;\n\ntypedef struct task {\n    int type;\n} task;\n")
    items = [Item("read.h", 3, 8, 80.0, 1, "used by f", "funcs.read", Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, {"read.h": source}, items, context_lines=0)
    # (the field above the block is left out, marked; trial 16; trial 20: with a count)
    assert block.signature == ("typedef struct funcs {\n    ⋮ 1 line\n    int (*read)(int);\n"
                               "} funcs;\ntypedef struct task {\n    int type;\n} task;")


@pytest.mark.parametrize(("path", "source", "expected"), [
    ("m.swift", b"enum Mode {\n    case read, write\n    case append\n}\n",
     "enum Mode {\n    case read, write\n    case append\n}"),
    ("s.c", b"struct S {\n    int a;\n    int b, c;\n};\n", "struct S {\n    int a;\n    int b, c;\n};"),
])
def test_a_member_declaring_two_names_is_listed_once(path: str, source: bytes,
                                                     expected: str) -> None:
    # review 31: `_one_per_node` deduped only top-level definitions, and its own example,
    # Swift's `case read, write` (two members, one line), showed twice in its enum
    language = language_for_path(path)
    assert language is not None
    assert outline(extract_tags(path, language.name, source).definitions) == expected


def test_a_signature_block_shows_no_member_header_past_its_end(make_repo, build_index) -> None:
    # trial 13: the block of lines 2-6 listed `Mul.c`, whose header starts on line 6 and
    # ends on 7, so it printed line 7 (shown again by the next block); and the `}` of
    # `Add` (line 4, in the block) was missing, so `Mul` read as nested in `Add`
    source = ("struct Add {\n  func run() {\n  }\n}\nstruct Mul {\n  static let c = f(\n"
              "    a: 1)\n  func run() {}\n}\n")
    items = [Item("m.swift", 2, 6, 80.0, 1, "used by f", "Add.run", Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, {"m.swift": source}, items, context_lines=0)
    assert (block.start_line, block.end_line) == (2, 6)
    # (trial 39: it opens with the header of the struct its member is in)
    assert block.signature == "struct Add {\n  func run() { ... }\n}\nstruct Mul { ... }"


def test_a_signature_block_closes_only_a_line_that_closes_the_container(
        make_repo, build_index) -> None:
    # a Python class's last line that ends a dict is no closing line of the class
    source = "class A:\n    def f(self):\n        return {\n}\n"
    items = [Item("a.py", 2, 4, 80.0, 1, "used by f", "A.f", Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, {"a.py": source}, items, context_lines=0)
    assert block.signature == "    def f(self):\n        ..."


def test_a_data_class_skeleton_lists_its_constructor_properties_once(make_repo,
                                                                    build_index) -> None:
    # trial 12: a Kotlin data class's properties were hidden (`data class Money( ... )`);
    # shown in the header, they are not listed again as members
    source = ("data class Money(\n  val amount: Long,\n  val currency: String,\n) {\n"
              "  fun plus(o: Money): Money = Money(amount + o.amount, currency)\n}\n")
    items = [Item("Money.kt", 1, 6, 80.0, 1, "used by main", "Money", Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, {"Money.kt": source}, items)
    assert block.signature == ("data class Money(\n  val amount: Long,\n  val currency: String,\n"
                               ") {\n  fun plus(o: Money): Money ...\n}")


def test_a_member_is_in_the_block_that_holds_its_header_not_its_doc_comment(
        make_repo, build_index) -> None:
    # trial 8: a block ending inside a Rust field's doc comment listed the field (its
    # signature, without the comma, did not match the line), and the next block showed
    # the field's line again
    source = ("pub struct State {\n    /// The entries.\n    entries: u32,\n\n"
              "    /// The pub/sub map.\n    /// Second line.\n    pub_sub: u64,\n\n"
              "    /// Expirations.\n    expirations: u8,\n}\n")
    root = make_repo({"s.rs": source})
    items = [Item("s.rs", 1, 11, 80.0, 1, "contains State.pub_sub", "State", Fidelity.SIGNATURE),
             Item("s.rs", 7, 10, 130.0, 0, "definition of State.pub_sub", "State.pub_sub")]
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), context_lines=0,
                         whole_files=False)
    header = next(b for b in blocks if b.start_line == 1)
    assert header.end_line == 6 and header.kind is Fidelity.SIGNATURE
    assert "entries: u32" in header.content and "pub_sub" not in header.content
    # (trial 16: no `}` while the struct goes on below; its re-check: a mark that it does)
    # (trial 20: the lines of it below the block counted)
    assert header.content == "pub struct State {\n    entries: u32,\n⋮ 5 lines below omitted"


def test_a_window_inside_a_long_definition_has_no_signature(make_repo, build_index) -> None:
    # trial 7: a window of a long caller, asked for as a signature, printed the caller's
    # `def pipeline(items):` under the window's range, once per window
    body = "".join(f"    total += {n}\n" for n in range(60))
    root = make_repo({"m.py": f"def pipeline(items):\n    \"\"\"Long.\"\"\"\n    total = 0\n{body}"
                                "    return total\n"})
    index = build_index(root)
    items = [Item("m.py", 30, 32, 70.0, 2, "calls check", "pipeline", Fidelity.SIGNATURE)]
    (block,) = read_blocks(root, items, index, Cl100kCounter(), whole_files=False)
    assert block.signature == "" and block.kind is Fidelity.FULL
    assert "def pipeline" not in block.content


def test_a_block_of_a_doc_comment_has_no_signature_of_the_function_below(make_repo,
                                                                           build_index) -> None:
    # trial 7: `// lines 12-57 (signature)`, a JSDoc's lines, printed the header at line 94
    doc = "".join(f" * line {n}\n" for n in range(40))
    source = f"/**\n{doc} */\nexport function format(date: Date): string {{\n  return 'x';\n}}\n"
    root = make_repo({"f.ts": source})
    index = build_index(root)
    header = source.split("\n").index("export function format(date: Date): string {") + 1
    inside_doc = [Item("f.ts", 5, 12, 70.0, 2, "doc", "format", Fidelity.SIGNATURE)]
    (block,) = read_blocks(root, inside_doc, index, Cl100kCounter(), whole_files=False,
                           context_lines=0)
    assert block.signature == ""
    with_header = [Item("f.ts", 1, header + 2, 70.0, 2, "doc", "format", Fidelity.SIGNATURE)]
    (block,) = read_blocks(root, with_header, index, Cl100kCounter(), whole_files=False)
    assert block.kind is Fidelity.SIGNATURE
    assert block.content == "export function format(date: Date): string { ... }"


def test_header_lines_skip_comments_and_count_a_multi_line_header() -> None:
    from ctxopt.source import header_lines
    lines = ["# note", "@cache", "def f(a,", "      b):", '    """Doc."""', "    return a"]
    definition = Definition("f", "function", "f", 1, 6, '@cache\ndef f(a,\n      b):\n'
                            '    """Doc."""\n    ...')
    assert header_lines(definition, lines) == (2, 4)
    braces = Definition("g", "function", "g", 1, 5, "function g(\n  a,\n) { ... }")
    assert header_lines(braces, ["// c", "function g(", "  a,", ") {", "}"]) == (2, 4)


def test_a_block_holding_half_a_header_has_no_signature(make_repo, build_index) -> None:
    # trial 7: an interface whose header's last line began a signature block printed its
    # header again, beside the block that showed its first line
    source = "/** Options. */\nexport interface Options<T>\n  extends Base<T> {\n  a: number;\n}\n"
    # (an item of no definition: one of Options that stops inside its header is
    # lengthened to show it whole, ``source._with_headers``)
    items = [Item("f.ts", 1, 2, 70.0, 2, "part", None, Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, {"f.ts": source}, items, context_lines=0)
    assert block.signature == "" and "extends" not in block.content


def test_each_part_of_a_split_merge_names_only_its_own_items(make_repo, build_index) -> None:
    # trial 9: a struct's part below a field a stronger block shows was labelled with
    # every item of the merge it was split from
    root = make_repo({"m.py": "".join(f"line{i}\n" for i in range(1, 41))})
    items = [Item("m.py", 3, 21, 70, 1, "a", "A"), Item("m.py", 26, 30, 69, 1, "b", "B"),
             Item("m.py", 23, 23, 120, 0, "c", "C")]  # C's lines 21-23 split A and B's merge
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False)
    assert sorted((b.start_line, b.end_line, b.symbols, b.reason) for b in blocks) == [
        (1, 20, ("A",), "a"), (21, 23, ("C",), "c"), (24, 30, ("B",), "b")]


def test_a_part_of_a_struct_below_a_stronger_field_is_no_signature(make_repo, build_index) -> None:
    # trial 9: cJSON's parse_buffer, split around its ring-0 field `depth`, showed its
    # last part as the "(signature)" `internal_hooks hooks;`, its closing line never
    root = make_repo({"p.c": "typedef struct\n{\n    int content;\n    int length;\n"
                             "    int offset;\n    int depth;\n    int hooks;\n} parse_buffer;\n"})
    items = [Item("p.c", 6, 6, 110, 0, "named", "parse_buffer.depth"),
             Item("p.c", 1, 8, 70, 1, "contains", "parse_buffer")]
    blocks = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False)
    last = max(blocks, key=lambda b: b.start_line)
    assert (last.start_line, last.end_line, last.signature) == (7, 8, "")
    assert last.content.endswith("} parse_buffer;") and shown_kind(last) == "window"


@pytest.mark.parametrize(("path", "doc", "declaration"), [
    ("lib.rs", "/// {}", "pub struct Walker {"),
    ("Walker.java", " * {}", "public class Walker {"),
    ("walker.rb", "# {}", "class Walker"),
])
def test_a_header_range_of_a_definition_with_a_long_doc_comment_shows_its_declaration(
        make_repo, build_index, path, doc, declaration) -> None:
    # trial 10: the walker's header of walkdir's WalkDir (15 lines from its first) showed 15
    # of its 74 lines of /// and never `pub struct WalkDir`
    comment = [doc.format(f"line {n} of the description") for n in range(30)]
    if path.endswith(".java"):
        comment = ["/**", *comment, " */"]
    body = {"lib.rs": "    max_open: usize,\n}\n", "Walker.java": "    int maxOpen;\n}\n",
            "walker.rb": "  def max_open\n    1\n  end\nend\n"}[path]
    code = "\n".join(comment) + f"\n{declaration}\n" + body
    root = make_repo({path: code})
    index = build_index(root)
    (d,) = [d for d in index.file_definitions(path) if d.qualified_name == "Walker"]
    items = [Item(path, d.start_line, d.start_line + 14, 79.5, 1, "contains Walker.max_open",
                  "Walker")]
    (block,) = read_blocks(root, items, index, Cl100kCounter(), whole_files=False,
                           context_lines=0)
    assert block.content.rstrip().endswith(declaration)
    assert block.end_line - block.start_line == 14  # as many lines as the walker asked for


def test_a_signature_block_of_fields_names_their_struct_and_keeps_their_commas(
        make_repo, build_index) -> None:
    # trial 10: walkdir's fields were listed as `max_open: usize` with no struct and no
    # comma (trial 9: an enum's variants lost their commas too)
    code = ("struct Options {\n    follow_links: bool,\n    max_open: usize,\n"
            "    min_depth: usize,\n    sorter: Option<u8>,\n}\n\n"
            "enum Kind {\n    File,\n    Dir,\n}\n")
    files = {"lib.rs": code}
    items = [Item("lib.rs", 2, 3, 30.0, 3, "matches open", "Options.max_open", Fidelity.SIGNATURE),
             Item("lib.rs", 8, 11, 30.0, 3, "matches kind", "Kind", Fidelity.SIGNATURE)]
    blocks = _read(make_repo, build_index, files, items, context_lines=0)
    assert [b.content for b in blocks if b.kind is Fidelity.SIGNATURE] == [
        "struct Options {\n    follow_links: bool,\n    max_open: usize,\n⋮ 3 lines below omitted",
        "enum Kind {\n    File,\n    Dir,\n}"]


def test_a_python_class_attribute_signature_is_not_wrapped_in_its_class(
        make_repo, build_index) -> None:
    # wrapped, pylint's one-attribute signatures that point at a file cost 34 tokens
    # instead of 6, and a Live benchmark task lost a file at 8,000 tokens
    code = "class Checker:\n    name = 'negative'\n    priority = -1\n\n    def run(self):\n        pass\n"
    files = {"checker.py": code}
    items = [Item("checker.py", 2, 2, 30.0, 3, "matches negative", "Checker.name",
                  Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, files, items, context_lines=0)
    assert block.content == "    name = 'negative'"


def test_a_seeds_window_around_a_line_of_a_long_doc_comment_keeps_that_line(
        make_repo, build_index) -> None:
    # review: the header range's move (source._with_headers) also moved a seed's
    # window that starts at the definition's first line, away from the line pointed at
    comment = [f"/// line {n} of the description" for n in range(70)]
    files = {"lib.rs": "\n".join(comment) + "\npub struct Walker {\n    n: usize,\n}\n"}
    items = [Item("lib.rs", 1, 35, 150.0, 0, "Walker holds line 5", "Walker")]
    (block,) = _read(make_repo, build_index, files, items, context_lines=0)
    assert (block.start_line, block.end_line) == (1, 35)


def test_a_member_whose_header_lies_past_a_shortened_file_gets_no_comma_and_no_error() -> None:
    # review: the file changed since it was indexed; its lines were indexed past their end
    from ctxopt.source import _member_line

    field = Definition("n", "field", "S.n", 9, 9, "n: usize", parent=0)
    # (and shows no line: the JSON's lines of its signature are null)
    assert _member_line(field, ["struct S {", "    m: u8,", "}"]) == [("n: usize", (-1,))]


@pytest.mark.parametrize(("path", "code", "start", "first"), [
    ("mux.go", "package chi\n\nfunc a() {\n\tx()\n}\n\nfunc b() {\n\ty()\n}\n", 7, 7),
    ("app.rb", "def a\n  x\nend\n\ndef b\n  y\nend\n", 5, 5),
    # trial 13: os-lib's blocks began with the ` */` of a Scaladoc whose opening was not shown
    ("Ops.scala", "object Ops {\n  /**\n   * Moves.\n   */\n  def b = 1\n}\n", 5, 5),
    # (no closing line: the context lines stay, a blank one too)
    ("m.py", "def a():\n    x()\n\ndef b():\n    y()\n", 4, 2),
])
def test_context_lines_stop_below_a_line_that_closes_the_definition_above(
        make_repo, build_index, path, code, start, first) -> None:
    # trial 11: chi's blocks began with the `}` of the function above, shown above as its
    # signature (the brace twice) or not at all
    items = [Item(path, start, start + 2, 120.0, 0, "definition of b", "b")]
    (block,) = _read(make_repo, build_index, {path: code}, items)
    assert block.start_line == first


@pytest.mark.parametrize(("path", "closing"), [
    ("Parse.java", ["        }", "    } else {"]),
    ("parse.rb", ["    end"]),
    ("parse.ts", ["    });", ""]),
])
def test_a_window_in_a_long_definition_opens_on_a_statement_not_a_closing_line(
        make_repo, build_index, path, closing) -> None:
    # trial 37: a window of jackson-core's _parseNumericValue 30 lines above a frame's line
    # opened on the `}` of an `if`, and its cut showed that `}` over `⋮ 20 lines`
    body = ["    x = 1", *closing, "    y = 2", *[f"    z{n} = {n}" for n in range(8)]]
    code = "\n".join(["f {", *body, "}"]) + "\n"
    start = 3  # the window's first line: the first closing line
    items = [Item(path, start, len(body) + 1, 150.0, 0, "f holds line 9", "f")]
    (block,) = _read(make_repo, build_index, {path: code}, items, context_lines=0)
    assert block.content.split("\n")[0] == "    y = 2"


def test_a_window_opening_on_the_close_of_a_call_opens_on_the_call(make_repo, build_index) -> None:
    # the window's first line closes a call written over three lines: it opens on the
    # call's line (xarray-6992: skipping the `)` down lost the call the fix changed)
    body = ["    x = 1", "    total += list(", "        items.get(k)", "    )", "",
            *[f"    z{n} = {n}" for n in range(8)]]
    code = "\n".join(["def f():", *[f"    a{n} = {n}" for n in range(30)], *body]) + "\n"
    items = [Item("p.py", 35, 44, 150.0, 0, "f holds line 40", "f")]
    blocks = _read(make_repo, build_index, {"p.py": code}, items, context_lines=0)
    assert blocks[-1].content.split("\n")[0] == "    total += list("


def test_a_closing_block_joined_above_keeps_its_pointed_line() -> None:
    # review 37: the `}` a frame pointed at lost its pointer when it joined the block above
    from ctxopt.model import Block
    from ctxopt.source import _closers_joined
    from ctxopt.tokens import Cl100kCounter

    lines = ["func f() {", "\treturn 1", "}"]
    upper = Block(path="a.go", language="go", start_line=1, end_line=2,
                  content="func f() {\n\treturn 1", tokens=8, score=120.0, ring=0,
                  reason="r", symbols=("f",))
    closer = Block(path="a.go", language="go", start_line=3, end_line=3, content="}",
                   tokens=1, score=125.0, ring=0, reason="r", symbols=(), pointed_lines=(3,))
    (joined,) = _closers_joined([upper, closer], lines, Cl100kCounter())
    assert (joined.start_line, joined.end_line, joined.content) == (1, 3, "\n".join(lines))
    assert (joined.pointed_lines, joined.score) == ((3,), 125.0)


def test_a_bracket_inside_a_string_opens_no_call_above() -> None:
    # review 37: `"a(",` counted as an opener, and a window opened inside the call
    from ctxopt.source import _opener_above

    assert _opener_above(["x = call(", '    "a(",', ")"], 3) == 1
    assert _opener_above(["x = call(", '    """doc (', ")"], 3) is None
    assert _opener_above(["x = 1", ")"], 2) is None


def test_an_interfaces_methods_in_a_signature_block_are_listed_inside_it(
        make_repo, build_index) -> None:
    # trial 11: chi's `Middlewares() Middlewares` and `Match(...) bool` were shown with no
    # `type Routes interface {`: no Go
    code = ("package chi\n\ntype Routes interface {\n\tRoutes() []Route\n"
            "\tMiddlewares() Middlewares\n\tMatch(method string) bool\n}\n")
    files = {"chi.go": code}
    items = [Item("chi.go", 5, 6, 30.0, 3, "matches match", "Routes.Match", Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, files, items, context_lines=0)
    assert block.content == ("type Routes interface {\n\t⋮ 1 line\n\tMiddlewares() Middlewares\n"
                             "\tMatch(method string) bool\n⋮ 1 line below omitted")


def test_a_ring0_window_deep_in_a_long_function_brings_its_header(make_repo, build_index) -> None:
    # trial 11: a Go panic's frame in chi's findRoute (408-557) showed lines 425-487 and
    # never `func (n *node) findRoute(...)`
    body = "".join(f"\tv{n} := step({n})\n" for n in range(120))
    files = {"tree.go": "package chi\n\n// findRoute walks the tree.\n"
                        f"func findRoute(path string) int {{\n{body}\treturn 0\n}}\n"}
    items = [Item("tree.go", 70, 100, 150.0, 0, "findRoute holds line 85", "findRoute")]
    blocks = _read(make_repo, build_index, files, items)
    # (the header with its context lines: the doc comment above it)
    assert [(b.start_line, b.end_line) for b in blocks] == [(2, 4), (68, 100)]
    assert blocks[0].content.endswith("// findRoute walks the tree.\nfunc findRoute(path string) int {")


def test_a_windows_header_is_not_merged_into_the_block_of_the_definition_above(
        make_repo, build_index) -> None:
    # trial 12: hiredis's processBulkItem header, brought for a frame's window far below
    # it, was merged into the block of processLineItem just above, whose cut then kept
    # that function's tail under the label "part of processBulkItem"
    above = "".join(f"    a{n} = step({n});\n" for n in range(40))
    body = "".join(f"    v{n} = step({n});\n" for n in range(100))
    files = {"read.c": f"static int line_item(void) {{\n{above}    return 0;\n}}\n\n"
                       f"static int bulk_item(void) {{\n{body}    return 0;\n}}\n"}
    items = [Item("read.c", 1, 43, 100.0, 0, "line_item matches item", "line_item"),
             Item("read.c", 90, 120, 150.0, 0, "bulk_item holds line 100", "bulk_item")]
    blocks = _read(make_repo, build_index, files, items, context_lines=0)
    spans = sorted((b.start_line, b.end_line) for b in blocks)
    assert spans == [(1, 43), (45, 45), (90, 120)]
    (header,) = [b for b in blocks if b.start_line == 45]
    assert header.content == "static int bulk_item(void) {"


def test_a_window_a_few_lines_below_its_header_is_one_block_with_it(
        make_repo, build_index) -> None:
    # the header brought for a ring-0 window is a block of its own only when far above it
    body = "".join(f"    v{n} = step({n});\n" for n in range(100))
    files = {"read.c": f"static int bulk_item(void) {{\n{body}    return 0;\n}}\n"}
    items = [Item("read.c", 5, 40, 150.0, 0, "bulk_item holds line 20", "bulk_item")]
    (block,) = _read(make_repo, build_index, files, items, context_lines=0)
    assert (block.start_line, block.end_line) == (1, 40)


def test_a_merge_whose_first_lines_are_other_definitions_is_no_part_of_a_later_one(
        make_repo, build_index) -> None:
    # trial 13: `type Thenable` and `toThenable`, merged with the first lines of hydrate,
    # were labelled "part of persistImpl.hydrate", a definition starting 100 lines below
    body = "".join(f"    x{n} = {n}\n" for n in range(20))
    root = make_repo({"m.py": f"def small():\n    return 1\n\ndef caller():\n{body}    return 0\n"})
    items = [Item("m.py", 1, 2, 90.0, 0, "named", "small"),
             Item("m.py", 4, 8, 80.0, 0, "named", "caller")]
    (block,) = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False,
                           context_lines=0)
    assert (block.start_line, block.end_line, block.part_of) == (1, 8, None)


# A Java class whose fields lie far below its header (trial 16: commons-cli's DefaultParser)
_PARSER = ("public class Parser {\n    int a;\n    int b;\n"
           + "".join(f"    void m{n}() {{}}\n" for n in range(15))
           + "    int c;\n    int d;\n    int e;\n}\n")


def test_a_signature_of_part_of_a_class_neither_closes_it_nor_counts_members_below(
        make_repo, build_index) -> None:
    # trial 16: ripgrep's HiArgs block listed 30 fields, then `⋮ 40 more members` and `}`,
    # and a block below showed three of those 40 after the brace
    items = [Item("Parser.java", 1, 2, 80.0, 1, "contains Parser.a", "Parser", Fidelity.SIGNATURE),
             Item("Parser.java", 20, 20, 130.0, 0, "definition of Parser.d", "Parser.d")]
    blocks = _read(make_repo, build_index, {"Parser.java": _PARSER}, items, context_lines=0)
    (header,) = [b for b in blocks if b.start_line == 1]
    # (the class goes on: its lines below the block; the renderer counts them to the next)
    assert header.content == "public class Parser {\n    int a;\n⋮ 20 lines below omitted"


def test_a_signature_of_fields_repeats_no_class_header_a_block_above_shows(
        make_repo, build_index) -> None:
    # trial 16: `public class DefaultParser implements CommandLineParser {` was shown under
    # the block of its header, then again above each of two blocks of fields far below it
    import json

    from ctxopt.model import Intent, Result, Selection
    from ctxopt.render import render_json
    from ctxopt.tokens import count_tokens

    items = [Item("Parser.java", 1, 1, 130.0, 0, "definition of Parser", "Parser"),
             Item("Parser.java", 19, 19, 70.0, 1, "used by f", "Parser.c", Fidelity.SIGNATURE),
             Item("Parser.java", 21, 21, 70.0, 1, "used by g", "Parser.e", Fidelity.SIGNATURE)]
    blocks = _read(make_repo, build_index, {"Parser.java": _PARSER}, items, context_lines=0,
                   merge_gap=0)
    assert [(b.start_line, b.end_line, b.kind) for b in sorted(
        blocks, key=lambda b: b.start_line)] == [(1, 1, Fidelity.FULL), (19, 19, Fidelity.SIGNATURE),
                                                 (21, 21, Fidelity.SIGNATURE)]

    def text(shown: list) -> str:
        rendered = fenced_text(shown)
        # (the JSON's blocks are as the text shows them)
        result = Result(task="t", intent=Intent.GENERAL, budget=1000,
                        selection=Selection(blocks=tuple(shown)))
        assert all(f"{b['content']}\n" in rendered
                   for b in json.loads(render_json(result, count_tokens))["blocks"])
        return rendered

    assert text(blocks) == ("// lines 1-1 (part of Parser, lines 1-22)\npublic class Parser {\n"
                            "⋮ 17 lines below omitted\n// lines 19-19 (signature)\n"
                            "    int c;\n⋮ 1 line below omitted\n// lines 21-21 (signature)\n"
                            "    int e;\n⋮ 1 line below omitted\n```\n")
    # without the header's block, the first signature shows it (the members above marked)
    assert text([b for b in blocks if b.start_line > 1]) == (
        "// lines 1-19 (signature)\npublic class Parser {\n    ⋮ 17 lines\n    int c;\n"
        "⋮ 1 line below omitted\n// lines 21-21 (signature)\n    int e;\n⋮ 1 line below omitted\n"
        "```\n")


_GITIGNORE = ("/// Matches globs.\n#[derive(Clone, Debug)]\npub struct Gitignore {\n"
              "    set: GlobSet,\n    root: PathBuf,\n    globs: Vec<Glob>,\n    num: u64,\n}\n\n"
              "impl Gitignore {\n    /// Makes one.\n    pub fn new(path: &Path) -> Gitignore {\n"
              "        todo!()\n    }\n}\n")


def test_a_rust_signature_shows_the_file_text_between_a_structs_fields_and_its_impl(
        make_repo, build_index) -> None:
    # trial 16: ripgrep's signature of lines 84-118 showed `globs: Vec<Glob>` (the file
    # has `globs: Vec<Glob>,`) and then `pub fn new`, without the struct's `}` and
    # `impl Gitignore {` between them, and was labelled "part of Gitignore, lines 78-88"
    items = [Item("lib.rs", 1, 8, 80.0, 1, "used by f", "Gitignore", Fidelity.SIGNATURE),
             Item("lib.rs", 5, 5, 130.0, 0, "definition of Gitignore.root", "Gitignore.root"),
             Item("lib.rs", 11, 14, 80.0, 1, "used by f", "Gitignore.new", Fidelity.SIGNATURE)]
    blocks = _read(make_repo, build_index, {"lib.rs": _GITIGNORE}, items, context_lines=0)
    (below,) = [b for b in blocks if b.start_line == 6]
    assert below.end_line == 14
    # (the struct's header is left out when the block above it is shown: ``wrappers``)
    assert below.signature == ("#[derive(Clone, Debug)]\npub struct Gitignore {\n    ⋮ 2 lines\n"
                               "    globs: Vec<Glob>,\n    num: u64,\n}\nimpl Gitignore {\n"
                               "    pub fn new(path: &Path) -> Gitignore { ... }")
    assert below.wrappers == ((2, 3, "#[derive(Clone, Debug)]\npub struct Gitignore {\n"
                                     "    ⋮ 2 lines\n"),)
    # shown as read, it is no part of the struct whose end it runs past
    items = [replace(item, fidelity=Fidelity.FULL) for item in items]
    blocks = _read(make_repo, build_index, {"lib.rs": _GITIGNORE}, items, context_lines=0)
    assert [b.part_of for b in sorted(blocks, key=lambda b: b.start_line)] == [
        ("Gitignore", 1, 8), None, None]


@pytest.mark.parametrize(("signature", "braced"), [
    ("#[derive(Clone, Debug)]\npub struct Gitignore { ... }", True),
    ("@Deprecated\npublic class Parser { ... }", True),
    ("@Component({\n  selector: 'app',\n})\nexport class App { ... }", True),
    ("@dataclass\nclass Point:\n    ...", False),
])
def test_a_container_under_attributes_or_annotations_is_braced(signature: str,
                                                               braced: bool) -> None:
    # trial 16: under `#[derive(...)]` a Rust struct was not braced: its fields were
    # listed bare, without their struct and its `}`
    from ctxopt.source import _braced

    assert _braced(signature) is braced


@pytest.mark.parametrize(("path", "code", "start", "expected"), [
    ("cache.test.js", 'describe("cache", () => {\n  function helper() {\n    return 1;\n  }\n});\n',
     1, 'describe("cache", () => {\n  function helper() { ... }\n});'),
    # (a bare `{` says nothing without the line above it, and its `}` nothing without it:
    # review 33)
    ("Store.cs", "namespace Demo\n{\n    public interface IStore {\n        string Get();\n    }\n}\n",
     2, "    public interface IStore {\n        string Get();\n    }"),
])
def test_a_signature_shows_the_braces_of_a_scope_around_its_definitions(
        make_repo, build_index, path: str, code: str, start: int, expected: str) -> None:
    # trial 16: Rust's `impl Gitignore {` was hidden; a JavaScript describe's callback is
    # such a scope too
    items = [Item(path, start, code.count("\n"), 70.0, 1, "used by f", None,
                  Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, {path: code}, items, context_lines=0)
    assert block.signature == expected


def test_a_block_holding_only_the_comment_above_a_definition_does_not_name_it(
        make_repo, build_index) -> None:
    # trial 39: rg_pre's block 1470-1653 (`fn threads`, then types) was keyed `Worker`,
    # whose doc comment ended it; `struct Worker {` was in the block below
    source = ("def threads():\n    return 1\n\n\n# A worker.\n# It descends.\nclass Worker:\n"
              "    # The callback.\n    visitor = None\n    stack = None\n")
    items = [Item("w.py", 1, 2, 80.0, 1, "member of WalkParallel", "threads"),
             Item("w.py", 5, 10, 79.5, 1, "contains Worker.visitor", "Worker"),
             Item("w.py", 8, 9, 130.0, 0, "definition of Worker.visitor", "Worker.visitor")]
    blocks = _read(make_repo, build_index, {"w.py": source}, items)
    (above,) = [b for b in blocks if b.start_line == 1]
    assert above.end_line == 5
    assert (above.symbols, above.reason) == (("threads",), "member of WalkParallel")


def test_a_header_range_cut_inside_a_long_def_is_lengthened_to_its_colon(
        make_repo, build_index) -> None:
    # trial 39: click's Context.__init__, whose parameter list ran past the walker's
    # 15-line header range, showed as the signature `_exit_stack: ExitStack`, the line
    # above it, and no line of the def
    params = "".join(f"        p{n}: int = {n},\n" for n in range(20))
    code = f"class C:\n    size: int\n\n    def __init__(\n        self,\n{params}    ) -> None:\n" \
           "        self.size = 0\n"
    files = {"c.py": code}
    items = [Item("c.py", 4, 18, 30.0, 3, "matches size", "C.__init__", Fidelity.SIGNATURE)]
    (block,) = _read(make_repo, build_index, files, items)
    assert block.kind is Fidelity.SIGNATURE
    assert "    def __init__(\n        self," in block.content
    assert ") -> None:" in block.content and block.end_line >= 26
