"""Cuts that keep the lines that matter (ctxopt.elide) and the fitter's use of them."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxopt.elide import cut_lines, prose_lines, reveal_chunks, statement_spans
from ctxopt.fit import fit_budget, truncate_block
from ctxopt.model import Block, Fidelity
from ctxopt.render import render_block
from ctxopt.tokens import count_tokens

FUNCTION = [
    "def handle(request, retries=3):",  # 0
    '    """Send the request.',  # 1
    "",  # 2
    "    Retries on a timeout.",  # 3
    '    """',  # 4
    "    session = open_session(",  # 5
    "        request.url,",  # 6
    "        timeout=10,",  # 7
    "    )",  # 8
    "    for attempt in range(retries):",  # 9
    "        log(attempt)",  # 10
    "        if attempt > 1:",  # 11
    "            session.reset_redirects(request)",  # 12
    "        session.send(request)",  # 13
    "    return session",  # 14
]


def test_a_call_over_several_lines_is_one_statement_and_docstring_lines_are_not() -> None:
    spans = statement_spans(FUNCTION)
    assert spans[5] == spans[7] == spans[8] == (5, 8)
    assert spans[1] == (1, 1) and spans[3] == (3, 3)  # a word in a docstring pulls one line
    assert spans[12] == (12, 12)


@pytest.mark.parametrize(("lines", "comment", "spans"), [
    (['s = "a\\"(" + f(', "  x)", "y = 1"], "#", [(0, 1), (0, 1), (2, 2)]),  # escaped quote
    (["t = 'it\\\\' + h(", "2)", "q"], "#", [(0, 1), (0, 1), (2, 2)]),  # escaped escape
    (['s = "#(" # (', "y = (1,", "2)"], "#", [(0, 0), (1, 2), (1, 2)]),  # in a string, a comment
    (['a = """doc (', 'more""" + (b', ")", "c"], "#", [(0, 0), (1, 2), (1, 2), (3, 3)]),
    (["x = f( /* a ( ", "still */ y)", "z;"], "//", [(0, 1), (0, 1), (2, 2)]),
    (["u = `tpl (`; v = g(", "1);", "w;"], "//", [(0, 1), (0, 1), (2, 2)]),
])
def test_brackets_in_strings_and_comments_open_nothing(lines, comment, spans) -> None:
    # issue 14: the scan skips from one character that may matter to the next
    assert statement_spans(lines, comment) == spans


def test_comments_and_docstrings_are_prose() -> None:
    assert prose_lines(FUNCTION) == {1, 2, 3, 4}
    assert prose_lines(["x = 1", "    // note", "#[test]", "# why"]) == {1, 3}


def test_a_salient_line_comes_with_its_statement_and_the_scopes_around_it() -> None:
    chunks = reveal_chunks(FUNCTION, 0, [12, 6])
    assert chunks[0] == [0]  # the header first
    assert chunks[1] == [9, 11, 12]  # the loop and the `if` it sits in, then the line
    assert chunks[2] == [5, 6, 7, 8]  # the whole call, not its second line alone
    flat = [i for chunk in chunks for i in chunk]
    assert sorted(flat) == list(range(len(FUNCTION)))  # every line once


def test_a_cut_marks_each_gap_and_shows_a_single_omitted_line() -> None:
    shown, first, last = cut_lines(FUNCTION, {0, 9, 11, 12})
    assert (first, last) == (0, 12)
    assert shown == [FUNCTION[0], "    ⋮ 8 lines", FUNCTION[9], FUNCTION[10], FUNCTION[11],
                     FUNCTION[12]]


def _function_block(score: float, salient: tuple[int, ...]) -> Block:
    body = [f"    step_{i} = compute({i}, value)" for i in range(80)]
    lines = ["def target(value):", *body[:40], "    if value.is_redirect:",
             "        follow_redirect(value)", *body[40:]]
    content = "\n".join(lines)
    return Block(path="m.py", language="python", start_line=10, end_line=10 + len(lines) - 1,
                 content=content, tokens=count_tokens(content), score=score,
                 ring=0 if score >= 100 else 1, reason="r", symbols=("target",),
                 focus_line=10, salient=salient)


def _cost(block: Block) -> int:
    return count_tokens(render_block(block))


def test_a_ring0_cut_keeps_the_header_and_the_salient_line_not_the_first_lines() -> None:
    block = _function_block(140.0, salient=(52,))  # follow_redirect(value)
    cut = truncate_block(block, 3, count_tokens)
    (fitted,) = fit_budget([block], _cost(cut), cost=_cost, count=count_tokens).blocks
    assert fitted.content == cut.content and cut.kind is Fidelity.TRUNCATED
    lines = cut.content.split("\n")
    assert lines[0] == "def target(value):"
    assert "    if value.is_redirect:" in lines and "        follow_redirect(value)" in lines
    assert "    step_0 = compute(0, value)" not in lines
    assert lines[1] == "    ⋮ 40 lines" and lines[-1] == "⋮ 40 lines below omitted"
    assert cut.kept == 3 and (cut.start_line, cut.end_line) == (10, 52)


def test_without_salient_lines_a_cut_keeps_lines_from_the_focus_on() -> None:
    block = _function_block(140.0, salient=())
    cut = truncate_block(block, 3, count_tokens)
    assert cut.content.split("\n")[:3] == ["def target(value):", "    step_0 = compute(0, value)",
                                           "    step_1 = compute(1, value)"]


def test_a_large_ring1_block_without_a_signature_is_cut_not_dropped() -> None:
    # trial (issue 11, F2): a class's members merged into one 1,150-line block with no
    # shorter signature, excluded whole at 4000 tokens, so the member the task named was
    # not shown at all. Now it is cut around its salient lines.
    block = _function_block(80.0, salient=(52,))
    selection = fit_budget([block], _cost(block) // 3, cost=_cost, count=count_tokens)
    (cut,) = selection.blocks
    assert cut.kind is Fidelity.TRUNCATED and "        follow_redirect(value)" in cut.content


@settings(max_examples=60, deadline=None)
@given(st.integers(60, 2500), st.integers(1, 1500),
       st.lists(st.integers(10, 90), max_size=6), st.sampled_from([140.0, 80.0]))
def test_a_larger_budget_shows_every_line_a_cut_showed(budget, more, salient, score) -> None:
    block = _function_block(score, salient=tuple(salient))

    def shown(at: int) -> set[int]:
        selection = fit_budget([block], at, cost=_cost, count=count_tokens)
        assert sum(_cost(b) for b in selection.blocks) <= at
        found: set[int] = set()
        lines = block.content.split("\n")
        for b in selection.blocks:
            content = set(b.content.split("\n"))
            found |= {n for n in range(b.start_line, b.end_line + 1)
                      if lines[n - block.start_line] in content}
        return found

    assert shown(budget) <= shown(budget + more)


def test_a_cut_class_shows_its_constructor_not_only_its_doc_comment(make_repo, build_index) -> None:
    # trial (issue 11, F17): ky's HTTPError, the class the task named, was cut to its doc
    # comment and its constructor never shown, 227 tokens left unused
    from ctxopt.source import read_blocks
    from ctxopt.model import Item
    from ctxopt.tokens import Cl100kCounter

    doc = "".join(f"    // line {i} of the doc comment about responses\n" for i in range(30))
    source = (f"export class HTTPError extends Error {{\n{doc}"
              "    constructor(response, request) {\n        super(response.status);\n"
              "        this.response = response;\n    }\n}\n")
    root = make_repo({"errors.ts": source})
    (block,) = read_blocks(root, [Item("errors.ts", 1, 36, 140.0, 0, "named", "HTTPError")],
                           build_index(root), Cl100kCounter(), context_lines=0,
                           terms={"=httperror": 2.0})
    cut = truncate_block(block, 4, count_tokens)
    lines = cut.content.split("\n")
    assert lines[0] == "export class HTTPError extends Error {"
    assert "    constructor(response, request) {" in lines
    assert sum("doc comment" in line for line in lines) <= 2


def test_a_bracket_in_a_line_comment_of_the_blocks_language_opens_nothing() -> None:
    # review: one "(" in a Rust comment made the rest of the block a single statement
    rust = ["fn run() {", "    // retries (at most 3", "    let a = 1;", "    let b = 2;", "}"]
    assert statement_spans(rust, "//")[2:4] == [(2, 2), (3, 3)]
    assert statement_spans(rust)[3] == (1, 4)  # read as Python: "//" is no comment
    python = ["x = (a // b)", "y = 2"]  # Python's floor division is no comment
    assert statement_spans(python) == [(0, 0), (1, 1)]
    assert reveal_chunks(rust, 0, [3], "//")[1] == [3]


def test_a_cut_reads_line_comments_in_the_blocks_language() -> None:
    lines = ["fn run(value: u32) {", "    // retries (at most 3"] + [
        f"    let step_{i} = compute({i});" for i in range(30)] + ["    follow(value);", "}"]
    block = Block(path="run.rs", language="rust", start_line=1, end_line=len(lines),
                  content="\n".join(lines), tokens=count_tokens("\n".join(lines)), score=140.0,
                  kind=Fidelity.FULL, ring=0, reason="named", focus_line=1, salient=(33,))
    cut = truncate_block(block, 3, count_tokens)
    assert "    follow(value);" in cut.content.split("\n")
    assert "    let step_29 = compute(29);" not in cut.content


def test_a_cut_with_gaps_gives_the_json_the_file_lines_it_shows() -> None:
    # review F19: the JSON of a cut had start_line-end_line only, so a reader could not
    # tell which of its content's lines were which file lines
    import json

    from ctxopt.model import Intent, Result, Selection
    from ctxopt.render import render_json

    cut = truncate_block(_function_block(140.0, salient=(52,)), 3, count_tokens)
    assert cut.shown == ((10, 10), (51, 52))  # the header, the `if` and its call
    whole = _function_block(140.0, salient=())
    result = Result(task="t", intent=Intent.FIX, budget=10_000,
                    selection=Selection(blocks=(cut, whole)))
    blocks = json.loads(render_json(result, count_tokens))["blocks"]
    assert [b["lines"] for b in blocks] == [[[10, 10], [51, 52]], [[10, 92]]]
    lines = cut.content.split("\n")
    assert len(lines) == 1 + 1 + 2 + 1  # the kept lines, a gap marker, the marker below


def test_a_cut_starts_at_the_code_below_a_doc_comment_and_shows_the_comment_later() -> None:
    # trial G1: a Java trace's frame line was cut away at 1000 tokens: the cut's header
    # was the method's 10-line javadoc plus its signature, and the budget ended there
    doc = ["  /**", "   * Returns the next double.", "   *", "   * @throws NumberFormatException",
           "   */"]
    body = [f"    step{i}();" for i in range(20)]
    lines = [*doc, "  public double nextDouble() throws IOException {", *body,
             '    throw new NumberFormatException("Expected a double");', "  }"]
    assert {0, 1, 2, 3, 4} <= prose_lines(lines, "//")  # a bare " *" line is prose too
    chunks = reveal_chunks(lines, 0, [26], "//")
    assert chunks[0] == [5] and chunks[1] == [26]  # the signature, then the pointed line
    assert [0, 1, 2, 3, 4] in chunks and chunks.index([0, 1, 2, 3, 4]) > chunks.index([25])
    content = "\n".join(lines)
    block = Block(path="JsonReader.java", language="java", start_line=1019,
                  end_line=1019 + len(lines) - 1, content=content, tokens=count_tokens(content),
                  score=140.0, ring=0, reason="holds line 1045", focus_line=1019, salient=(1045,))
    cut = truncate_block(block, 3, count_tokens).content.split("\n")
    assert cut[0] == "⋮ 5 lines above omitted" and cut[1] == lines[5]
    assert lines[26] in cut and lines[1] not in cut


CLOSURE = [
    "fn spawn(walker: Walker) {",  # 0
    "    walker.run(|| {",  # 1
    "        let tx = tx.clone();",  # 2
    "        Box::new(move |entry| {",  # 3
    "            send(tx, entry.path(),",  # 4
    "                 full_path);",  # 5
    "            WalkState::Continue",  # 6
    "        })",  # 7
    "    });",  # 8
    "}",  # 9
]


def test_a_closure_passed_to_a_call_holds_statements_of_its_own() -> None:
    # trial 5 (fd): `walker.run(|| { ... })` read as one 170-line statement, so a cut
    # around a line inside it showed the function's first line and nothing more
    spans = statement_spans(CLOSURE, "//")
    assert spans[1] == (1, 1) and spans[2] == (2, 2) and spans[3] == (3, 3)
    assert spans[4] == spans[5] == (4, 5)  # brackets inside the closure still continue
    assert spans[7] == (7, 7) and spans[8] == (8, 8)
    assert statement_spans(["x = f({", "    'a': 1,", "})"]) == [(0, 0), (1, 1), (2, 2)]
    assert statement_spans(["x = f(a", "  })", "y = 1"]) == [(0, 1), (0, 1), (2, 2)]


def test_a_cut_shows_the_first_lines_of_a_statement_too_long_for_the_room() -> None:
    # trial 5 (fd): a ring-0 block whose body was one long statement was cut to 1 of its
    # 175 lines while 762 tokens of the budget stayed unused
    lines = ["def target(value):", "    table = [", *[f"        {i}," for i in range(60)], "    ]"]
    content = "\n".join(lines)
    block = Block(path="m.py", language="python", start_line=1, end_line=len(lines),
                  content=content, tokens=count_tokens(content), score=140.0, ring=0,
                  reason="r", symbols=("target",), focus_line=1, salient=(1,))
    cut = truncate_block(block, 12, count_tokens)
    assert cut.kept == 12 and cut.content.split("\n")[:3] == lines[:3]
    assert cut.content.split("\n")[-1] == "⋮ 51 lines below omitted"
    (fitted,) = fit_budget([block], _cost(block) // 2, cost=_cost, count=count_tokens).blocks
    assert _cost(fitted) > _cost(block) // 3 and fitted.kind is Fidelity.TRUNCATED


def test_a_window_inside_a_body_reveals_the_salient_line_right_after_its_first() -> None:
    # trial 7: a window starting mid-body took its first twelve statements as the header,
    # so a 13-line cut never reached the line the traceback pointed at
    window = [f"    step_{n} = compute(items, {n})" for n in range(40)]
    chunks = reveal_chunks(window, 0, (30,))
    assert chunks[0] == [0] and chunks[1] == [30]
    header = ["def process(", "    items,", "):"] + window
    assert reveal_chunks(header, 0, (33,))[:2] == [[0, 1, 2], [33]]


def test_a_block_comments_lines_are_prose_without_a_leading_star() -> None:
    # trial 8: jsoup's Javadoc lines do not start with "*": read as code, a cut of
    # Cleaner.isValid showed its doc and never reached the method
    lines = ["    /**", "     Determines if the input is valid (the {@code head} too).",
             "     <p>Example: boolean ok = cleaner.isValid(doc);", "     */",
             "    public boolean isValid(Document doc) {", "        int n = 0; /* a note",
             "        still the note */", "        return n == 0;", "    }"]
    assert prose_lines(lines, "//") == {0, 1, 2, 3, 6}
    assert statement_spans(lines, "//")[4] == (4, 4)  # the braces in the doc are no code
    chunks = reveal_chunks(lines, 0, [2], "//")
    assert chunks[0] == [4]  # the header first, below the doc
    assert prose_lines(["x = '/*'", "y = 1"], "#") == set()  # no block comments there
    # a /* inside a string opens nothing (Go's raw string, JavaScript's template)
    go = ["func list() {", '    a := filepath.Glob(`/etc/*`)', '    b := "/*"', "    return a", "}"]
    assert prose_lines(go, "//") == set()
    assert statement_spans(go, "//")[3] == (3, 3)


@pytest.mark.parametrize(("path", "language", "lines"), [
    ("cmd.go", "go", ["// Execute runs the command.", "// It parses the flags first.",
                      "func Execute() error {", "\treturn run()", "}"]),
    ("cjson.c", "c", ["/* Parse a value.", " * Returns NULL on error. */",
                      "cJSON *parse(const char *value)", "{", "    return run(value);", "}"]),
    ("m.py", "python", ["# Parse a value.", "# None on error.", "def parse(value):",
                        "    return run(value)"]),
])
def test_a_short_cut_shows_the_header_before_its_doc_comment(path, language, lines) -> None:
    # trial 9: at 100 tokens cobra's Command.Execute was three lines of its doc comment,
    # `⋮ 4 lines below omitted`, and no `func` line
    content = "\n".join(lines)
    block = Block(path=path, language=language, start_line=1, end_line=len(lines),
                  content=content, tokens=count_tokens(content), score=140.0, ring=0,
                  reason="r", symbols=("f",), focus_line=1)
    header = next(line for line in lines if line.startswith(("func", "cJSON", "def")))
    cut = truncate_block(block, 1, count_tokens)
    assert cut.content.split("\n")[:2] == ["⋮ 2 lines above omitted", header]
    assert cut.start_line == 3


def test_a_salient_line_under_a_brace_on_its_own_line_comes_with_the_header_above() -> None:
    # trial 9: cJSON_ParseWithLength's body was shown under `⋮ 3 lines` and a bare `{`,
    # so it read as the body of cJSON_Parse above it
    lines = ["cJSON *parse(const char *value)", "{", "    return parse_opts(value, 0);", "}",
             "", "cJSON *parse_length(const char *value, size_t length)", "{",
             "    return parse_length_opts(value, length);", "}"]
    chunks = reveal_chunks(lines, 0, [7], "//")
    assert chunks[1] == [5, 6, 7]


def test_a_cut_reaching_above_its_focus_shows_the_definition_there_from_its_header() -> None:
    # trial 12: a block of hiredis's processLineItem and processBulkItem (the frame's, its
    # focus) was cut to processBulkItem and the last 83 lines of processLineItem: no
    # header said what those lines were
    from ctxopt.model import Member

    first = ["static int line_item(void) {", *[f"    a{n} = step({n});" for n in range(30)],
             "    return 0;", "}", ""]
    second = ["static int bulk_item(void) {", *[f"    b{n} = step({n});" for n in range(10)],
              "    return 0;", "}"]
    lines = first + second
    content = "\n".join(lines)
    block = Block(path="read.c", language="c", start_line=1, end_line=len(lines),
                  content=content, tokens=count_tokens(content), score=150.0, ring=0,
                  reason="bulk_item holds line 5", symbols=("bulk_item", "line_item"),
                  focus_line=len(first) + 1,
                  members=(Member("bulk_item", len(first) + 1, len(lines), "holds line 5"),
                           Member("line_item", 1, len(first) - 1, "matches item")))
    cut = truncate_block(block, len(second) + 6, count_tokens)
    shown = cut.content.split("\n")
    assert shown[0] == "static int line_item(void) {"
    assert "static int bulk_item(void) {" in shown and shown[-1] == "}"
    assert "    a0 = step(0);" not in shown  # its middle is what goes: its tail is nearest


def test_a_cut_above_its_focus_shows_each_definitions_header_below_its_comment() -> None:
    # review: a member's first line is its doc comment, which came before its header; and
    # of two definitions above the focus, only the topmost one's lines came
    from ctxopt.model import Member

    top = ["/**", *[f" * line {n} of the story" for n in range(12)], " */",
           "static int top_item(void) {", *[f"    t{n} = step({n});" for n in range(20)], "}"]
    near = ["static int near_item(void) {", "    return 1;", "}"]
    focus = ["static int bulk_item(void) {", *[f"    b{n} = step({n});" for n in range(6)], "}"]
    lines = top + near + focus
    content = "\n".join(lines)
    starts = (1, len(top) + 1, len(top) + len(near) + 1)
    block = Block(path="read.c", language="c", start_line=1, end_line=len(lines),
                  content=content, tokens=count_tokens(content), score=150.0, ring=0,
                  reason="bulk_item holds line 5", symbols=("bulk_item",), focus_line=starts[2],
                  members=(Member("bulk_item", starts[2], len(lines), "r"),
                           Member("top_item", starts[0], len(top), "r"),
                           Member("near_item", starts[1], starts[2] - 1, "r")))
    shown = truncate_block(block, len(focus) + 5, count_tokens).content.split("\n")
    assert "static int top_item(void) {" in shown and " * line 0 of the story" not in shown
    assert shown[shown.index("static int near_item(void) {") + 1] == "    return 1;"


def test_a_salient_line_in_another_definition_comes_with_that_ones_header() -> None:
    # trial 13: a cut of nlohmann/json's from_json.hpp kept a template's `-> decltype(...)`
    # line above its `{`, not the `auto from_json(...)` line that names the function
    first = ["void helper()", "{", *[f"    h{n}();" for n in range(8)], "}"]
    second = ["template <typename T,", "          typename U>", "auto from_json(T& j, U& arr)",
              "-> decltype(j.get(),", "            void())", "{",
              *[f"    step{n}();" for n in range(8)], "    arr = j.get_array();", "}"]
    lines = first + second
    salient = (len(first) + 14,)  # the `get_array` line
    chunks = reveal_chunks(lines, 0, salient, "//", members=(len(first),))
    assert chunks[1] == [len(first) + n for n in (0, 1, 2, 3, 4, 5, 14)]
    assert reveal_chunks(lines, 0, salient, "//")[1] == [len(first) + 5, len(first) + 14]
