import pytest
from hypothesis import given
from hypothesis import strategies as st

from ctxopt.model import Intent
from ctxopt.task import MAX_TASK_CHARS, limit_task, parse_task, split_identifier


@pytest.mark.parametrize(
    ("text", "symbols", "intent"),
    [
        ("Fix Storage bug", ("Storage",), Intent.FIX),
        ("How does Indexer work", ("Indexer",), Intent.UNDERSTAND),
        ("fix parse_config", ("parse_config",), Intent.FIX),
        ("speed up load_rows in db.py", ("db.py", "load_rows"), Intent.MODIFY),
        ("Fix Storage.get crash in storage/db.go", ("storage/db.go", "Storage.get"), Intent.FIX),
        ("explain how `render_text` builds the header", ("render_text",), Intent.UNDERSTAND),
        ("implement retry in httpClient", ("httpClient",), Intent.ADD),
        ("Delete the LegacyCache class", ("LegacyCache",), Intent.REMOVE),
        ("rename the MAX_KEY_LENGTH constant", ("MAX_KEY_LENGTH",), Intent.MODIFY),
        ("the session keeps cookies", (), Intent.GENERAL),
    ],
)
def test_symbols_and_intent(text: str, symbols: tuple[str, ...], intent: Intent) -> None:
    parsed = parse_task(text)
    assert parsed.symbols == symbols
    assert parsed.intent is intent


@pytest.mark.parametrize(
    ("text", "symbols"),
    [  # trial 37: Java and JavaScript private members, read as the words output, surrogates
        ("fix _outputSurrogates", ("_outputSurrogates",)),
        ("the __parseTail helper drops escapes", ("__parseTail",)),
        ("_fooBar fails", ("_fooBar",)),
        # an upper-case name after the underscore stays a word, as a capitalised one is
        # written in prose (xarray's _FillValue attribute, a platform's _OS)
        ("fix _FillValue and _OS", ()),
        ("fix _ alone", ()),
    ],
)
def test_camel_case_with_leading_underscores_is_a_symbol(text: str, symbols: tuple[str, ...]) -> None:
    assert parse_task(text).symbols == symbols


def test_capitalised_first_word_that_is_a_stop_word_is_not_a_symbol() -> None:
    assert parse_task("When Storage is empty, get fails").symbols == ("Storage",)


def test_capitalised_word_after_a_line_break_starts_a_sentence() -> None:
    assert parse_task("x\nAdd y").symbols == ()


def test_keywords_drop_stop_words_and_split_identifiers() -> None:
    parsed = parse_task("The HTTPAdapter drops the load_rows result")
    assert parsed.keywords == ("httpadapter", "http", "adapter", "drops", "load", "rows", "result")


def test_split_identifier() -> None:
    assert split_identifier("parseHTTPResponse_v2") == ["parse", "http", "response", "v", "2"]


@given(st.text())
def test_parse_task_never_raises_and_symbols_come_from_the_text(text: str) -> None:
    parsed = parse_task(text)
    readings = (text, text.replace("::", ".").replace("->", ".").replace("$", ".")
                .replace(".#", ".").replace("#", "."))
    for symbol in parsed.symbols:  # as written, or with "::"/"->"/"$"/".#"/"#" read as "."
        assert any(symbol in reading for reading in readings)
    assert all(k == k.lower() for k in parsed.keywords)


@pytest.mark.parametrize(
    ("text", "symbols"),
    [
        ("fix Store::get", ("Store.get",)),
        ("sim::Loader::Apply is slow", ("sim.Loader.Apply",)),
        ("$cart->total() is off by one", ("cart.total",)),
        ("a -> b is not an arrow between names", ()),
        ("at com.acme.Codec$Builder.add(Codec.java)", ("Codec.java", "com.acme.Codec.Builder.add")),
        ("$scope and price$ stay words", ()),
        # a JavaScript private member, and Ruby's and Javadoc's Class#method
        ("fix Ky.#calculateRetryDelay", ("Ky.calculateRetryDelay",)),
        ("fix Ky#create", ("Ky.create",)),
        ("fix #decorateResponse", ("decorateResponse",)),
        ("issue#12 in C#", ()),
        # a file's anchor is no qualifier: the path stays whole
        ("fix src/app.py#main crash", ("src/app.py",)),
        ("see docs/gc.html#gc.freeze", ("docs/gc.html", "gc.freeze")),
        # (the longest extensions too: the window searched for one was a character short)
        ("fix src/Foo.scala#main crash", ("src/Foo.scala",)),
        ("fix src/App.swift#main crash", ("src/App.swift",)),
    ],
)
def test_double_colons_and_arrows_separate_qualifiers(text: str, symbols: tuple[str, ...]) -> None:
    assert parse_task(text).symbols == symbols


def test_a_backticked_kebab_case_name_is_no_symbol_but_gives_its_words() -> None:
    parsed = parse_task("`used-before-assignment` FP in finally")
    assert parsed.symbols == ()
    assert "assignment" in parsed.keywords


@pytest.mark.parametrize(
    ("text", "references"),
    [
        ("fix routes.py:619", [("routes.py", 619, 619)]),
        ("TypeError at /srv/app/table.js:619:15", [("srv/app/table.js", 619, 619)]),
        ("routes.py:616-620 breaks", [("routes.py", 616, 620)]),
        ("see app/routes.py#L619 and app/x.py#L3-L9", [("app/routes.py", 619, 619),
                                                      ("app/x.py", 3, 9)]),
        ('File "/srv/app/routes.py", line 619, in <module>', [("srv/app/routes.py", 619, 619)]),
        ("at render (webpack:///src/table.js:12:3)", [("src/table.js", 12, 12)]),
        ("C:\\src\\app\\mod.py:44 fails", [("src/app/mod.py", 44, 44)]),
        ("lines 616-620 of app/routes.py are wrong", [("app/routes.py", 616, 620)]),
        ("version 1.2 breaks on line 5", []),  # no path: no reference
        ("a ratio of 3:4 in a.py", []),
    ],
)
def test_references_to_places_in_files(text: str, references: list[tuple[str, int, int]]) -> None:
    parsed = parse_task(text)
    assert [(r.path, r.start_line, r.end_line) for r in parsed.references] == references


def test_a_stack_frame_reference_says_the_function_it_names() -> None:
    text = ('File "/srv/app/db.py", line 30, in get\n'
            'File "/srv/app/db.py", line 9, in <module>\n'
            "\tat com.acme.Codec$Builder.add(Codec.java:246)\n"
            "\tat com.acme.Codec.lambda$run$0(Codec.java:12)\n"
            "see db.py:4")
    # (a Python traceback's frames innermost first: the last written)
    assert [(r.path, r.start_line, r.function) for r in parse_task(text).references] == [
        ("srv/app/db.py", 9, ""), ("srv/app/db.py", 30, "get"), ("Codec.java", 246, "add"),
        ("Codec.java", 12, ""), ("db.py", 4, "")]


def test_a_referenced_absolute_path_gives_its_relative_form_as_a_symbol() -> None:
    symbols = parse_task('File "/srv/app/routes.py", line 619, in <module>').symbols
    assert symbols[0] == "srv/app/routes.py"
    assert "File" not in symbols  # a traceback line starts with "File"


def test_a_task_of_many_stack_frames_gives_every_frame_in_order() -> None:
    # Python and JavaScript frames and "lines a-b" words, 800 of each (all within
    # MAX_TASK_CHARS): each frame's own
    # "line N" is inside it (no second reference), each "lines" word goes to the path before
    frames = "\n".join(f'  File "/srv/app/mod_{i}.py", line {i}, in handler_{i}\n'
                       f"    at f (webpack:///src/t_{i}.js:{i}:3) in src/t_{i}.js lines {i}-{i + 2}"
                       for i in range(1, 801))
    assert len(frames) < MAX_TASK_CHARS
    parsed = parse_task(frames)
    expected = []
    for i in range(1, 801):  # the Python frames innermost (last written) first
        expected += [(f"srv/app/mod_{801 - i}.py", 801 - i, 801 - i), (f"src/t_{i}.js", i, i),
                     (f"src/t_{i}.js", i, i + 2)]
    assert [(r.path, r.start_line, r.end_line) for r in parsed.references] == expected
    assert parsed.symbols[:4] == ("srv/app/mod_1.py", "src/t_1.js", "srv/app/mod_2.py",
                                  "src/t_2.js")


def test_a_windows_stack_trace_of_thousands_of_frames_gives_paths_it_holds_as_symbols() -> None:
    frames = "\n".join(f"   at C:\\src\\app\\mod_{i}.py:{i}" for i in range(1, 3001))
    parsed = parse_task(frames + "\nsee src/app/mod_7.py")
    assert [(r.path, r.start_line) for r in parsed.references][:2] == [("src/app/mod_1.py", 1),
                                                                      ("src/app/mod_2.py", 2)]
    assert len(parsed.references) == 3000
    # each path is a symbol, written with "\" or "/" (review 31: a path written with "\"
    # was none, and ``src\app\db.py:12`` gave no file)
    assert [s for s in parsed.symbols if s.startswith("src/")][:2] == ["src/app/mod_1.py",
                                                                      "src/app/mod_2.py"]


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 8)), max_size=30),
       st.integers(0, 70), st.integers(1, 8))
def test_spans_overlap_as_a_scan_of_every_span_says(spans, start, length) -> None:
    from ctxopt.task import _Spans
    taken, added = _Spans(), []
    for a, n in spans:
        if not any(x < a + n and a < y for x, y in added):
            taken.add(a, a + n)
            added.append((a, a + n))
    assert taken.overlaps(start, start + length) == any(
        x < start + length and start < y for x, y in added)


@pytest.mark.parametrize(("text", "symbols", "keywords"), [
    # the frame's own words, and the path's, are no keywords: the path is a symbol, whose
    # words are those of its part in the repository (seeds.in_repository)
    ('File "/srv/app/routes.py", line 619, in <module>', ("srv/app/routes.py",), ()),
    ('Traceback (most recent call last):\n  File "/srv/app/db.py", line 3, in checkout',
     ("srv/app/db.py",), ("checkout",)),
    ("TypeError at /srv/app/table.js:619:15", ("srv/app/table.js", "TypeError"),
     ("typeerror", "type", "error")),
    ("crash in /srv/app/pkg/routes.py", ("srv/app/pkg/routes.py",), ("crash",)),
    ("see ~/proj/pkg/routes.py", ("proj/pkg/routes.py",), ("see",)),
    ("lines 616-620 of app/routes.py are wrong", ("app/routes.py",), ("app", "routes")),
])
def test_a_path_and_the_words_framing_a_reference_are_no_keywords(text, symbols, keywords) -> None:
    parsed = parse_task(text)
    assert (parsed.symbols, parsed.keywords) == (symbols, keywords)


def test_a_drive_letter_is_no_plain_word() -> None:
    assert parse_task('File "C:\\src\\app\\routes.py", line 3, in get').plain_words == ("get",)


@pytest.mark.parametrize(
    ("text", "symbols", "plain"),
    [  # trial 7: "i.e." seeded `formatters.e` above parseISO, "e.g." `formatters.G`, and
       # "11th, 12th, 13th" the Thai locale `th`
        ("parseISO rejects offsets, i.e. +0530", ("parseISO",), ()),
        ("accept +0530, e.g. in splitDateString", ("splitDateString",), ("in",)),
        ("a.k.a. Loader fails", ("Loader",), ()),
        ("the 11th, 12th, 13th day", (), ("the",)),
        ("fix b in a.b.dtd", ("a.b.dtd",), ("b", "in")),  # one letter of code stays a name
    ],
)
def test_abbreviations_and_words_glued_to_digits_are_no_names(text, symbols, plain) -> None:
    parsed = parse_task(text)
    assert (parsed.symbols, parsed.plain_words) == (symbols, plain)


@pytest.mark.parametrize(
    ("text", "symbols", "keywords"),
    [  # trial: "fix grüße" found nothing, its words were "gr" and "e"
        ("fix grüße", (), ("fix", "grüße")),
        ("fix größe_berechnen", ("größe_berechnen",), ("fix", "größe", "berechnen")),
        ("fix größeÄndern", ("größeÄndern",), ("fix", "größeändern", "größe", "ändern")),
        ("Maß.berechne fails", ("Maß.berechne",), ("maß", "berechne", "fails")),
        ("fix Ölß::Größe", ("Ölß.Größe",), ("fix", "ölß", "größe")),
    ],
)
def test_identifiers_of_any_script_are_whole(text, symbols, keywords) -> None:
    parsed = parse_task(text)
    assert (parsed.symbols, parsed.keywords, parsed.plain_words) == (symbols, keywords, ())


def test_a_traceback_frame_names_a_function_of_any_script() -> None:
    (reference,) = parse_task('File "app.py", line 3, in über').references
    assert reference.function == "über"


def test_split_identifier_of_any_script() -> None:
    assert split_identifier("größeÄndern_v2") == ["größe", "ändern", "v", "2"]
    assert split_identifier("数据Loader") == ["数据", "loader"]


def test_a_run_longer_than_any_name_is_skipped():
    # the path patterns scanned such a run from each of its characters: 20,000 took 39 s
    assert parse_task("fix " + "aB" * 200).symbols == ("aB" * 200,)
    assert parse_task("fix " + "aB" * 300 + " in Storage.get").symbols == ("Storage.get",)
    assert parse_task("see " + "x" * 600 + ".py:12").references == ()


def test_a_huge_task_is_read_up_to_max_task_chars():
    text = "fix Storage.get " + "word " * (MAX_TASK_CHARS // 5) + "Cache.put"
    parsed = parse_task(text)
    assert parsed.raw == text[:MAX_TASK_CHARS] and parsed.cut_from == len(text)
    assert parsed.symbols == ("Storage.get",)
    limited, note = limit_task(parsed)
    assert note == f"task cut: searched the first {MAX_TASK_CHARS:,} of {len(text):,} characters"


def test_a_run_of_max_run_chars_is_read_and_one_more_is_not():
    from ctxopt.task import MAX_RUN_CHARS
    name = "a" * (MAX_RUN_CHARS - 1) + "B"
    assert parse_task(f"fix {name}").symbols == (name,)
    assert parse_task(f"fix a{name}").symbols == ()


def test_names_in_prose_without_blanks_are_read_apart_from_it():
    # review: Japanese and Chinese prose runs into the names it holds, without blanks
    parsed = parse_task("Storageのsaveが失敗する")
    assert parsed.symbols == ("Storage",) and "save" in parsed.keywords
    assert parse_task("修复Storage的bug").symbols == ("Storage",)
    assert parse_task("fix größeÄndern").symbols == ("größeÄndern",)


def test_a_huge_task_is_cut_at_a_blank_and_the_note_counts_what_was_read():
    text = "fix Storage.get " + "x" * (MAX_TASK_CHARS - 100) + " " + "y" * 300 + " Cache.put"
    parsed = parse_task(text)
    assert parsed.raw == text[:MAX_TASK_CHARS - 100 + 17] and parsed.cut_from == len(text)
    assert limit_task(parsed)[1] == (f"task cut: searched the first {len(parsed.raw):,} of "
                                     f"{len(text):,} characters")
    assert parse_task("fix Storage.get").cut_from is None


def test_a_line_word_before_any_path_names_only_a_path_on_its_own_line():
    # trial: a JSON parser's "at line 1 column 2" became line 1 of the next frame's file
    trace = ("com.google.gson.JsonSyntaxException: Expected BEGIN_OBJECT at line 1 column 2\n"
             "\tat com.google.gson.Gson.fromJson(Gson.java:1234)")
    assert [(r.path, r.start_line) for r in parse_task(trace).references] == [("Gson.java", 1234)]
    assert [(r.path, r.start_line) for r in parse_task("see lines 12-20 of src/db.py").references] == [
        ("src/db.py", 12)]


@pytest.mark.parametrize(("text", "symbols"), [
    ("z.string().email() rejects valid addresses", ("z.string", "email")),
    ("`z.number().int()` allows floats", ("z.number", "int")),
    ("df.groupby(key).agg(fn).reset_index() drops it", ("df.groupby", "agg", "reset_index")),
])
def test_the_later_links_of_a_call_chain_are_symbols(text: str, symbols: tuple[str, ...]) -> None:
    # trial 4: only the chain's first link was a name; its subject (``email``) a word
    assert parse_task(text).symbols == symbols


def test_a_v8_stack_trace_is_frames_whose_runtime_names_seed_nothing() -> None:
    # trial 10: got's trace seeded ClientRequest (the receiver of an <anonymous> function,
    # Node's class) and Object.onceWrapper (a frame of node:events) as names
    trace = ("ReadError: The server aborted pending request\n"
             "    at IncomingMessage.<anonymous> (/home/dev/got/source/core/index.ts:1024:22)\n"
             "    at Object.onceWrapper (node:events:632:28)\n"
             "    at async Promise.all (index 0)\n"
             "    at Request._onResponse (/home/dev/got/source/core/index.ts:1383:15)\n"
             "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n")
    parsed = parse_task(trace)
    # (the repository's frame names its function, as ``onResponse`` would)
    assert parsed.symbols == ("home/dev/got/source/core/index.ts", "ReadError", "_onResponse")
    assert [(r.start_line, r.function, r.frame) for r in parsed.references] == [
        (1024, "", "v8"), (1383, "_onResponse", "v8")]


@pytest.mark.parametrize(("text", "place"), [
    ("src/v4/schemas.ts(1681,40): error TS2345: Argument of type", ("src/v4/schemas.ts", 1681, 1681)),
    ("src/App/Program.cs(12,5,14,9): error CS0103: The name 'x'", ("src/App/Program.cs", 12, 14)),
    ("> /srv/app/db.py(12)save()", ("srv/app/db.py", 12, 12)),
])
def test_a_compilers_file_line_col_in_parentheses_is_a_place(text: str, place: tuple) -> None:
    # trial 14: tsc's `file(line,col): error TSnnnn` gave no place; `file:line:col` did
    parsed = parse_task(text)
    assert [(r.path, r.start_line, r.end_line) for r in parsed.references] == [place]
    assert not {"1681", "40", "12", "5"} & set(parsed.keywords)


@pytest.mark.parametrize("text", [
    "Footnote markers like README.md(1) break the docs build",
    "Why does index.ts(2) export default twice?", "Handle foo.cpp(3) style overload names",
    "The output of ls.sh(1) is truncated", "Calling fmt.go(2) panics"])
def test_a_file_name_with_a_number_in_parentheses_in_prose_is_no_place(text: str) -> None:
    # review 32: `file(N)` read as tsc's or pdb's place pinned line 1-3 of a file
    assert parse_task(text).references == ()


def test_a_v8_getter_frame_and_a_frame_of_no_function_are_frames() -> None:
    # trial 14: `at Object.get value [as value]` made `Object.get` a name of the task (it
    # showed three unrelated `get` accessors), and `at file:///.../user.ts:18:25` was a place
    # of no trace
    trace = ("Error: expected a schema\n"
             "    at Object.get value [as value] (/home/dev/zod/src/util.ts:269:23)\n"
             "    at set size (/home/dev/zod/src/util.ts:30:1)\n"
             "    at /home/dev/zod/src/parse.ts:74:27\n"
             "    at async file:///home/dev/app/src/user.ts:18:25\n")
    parsed = parse_task(trace)
    assert "get" not in parsed.keywords and not [s for s in parsed.symbols if "get" in s]
    assert [(r.start_line, r.function, r.frame) for r in parsed.references] == [
        (269, "value", "v8"), (30, "size", "v8"), (74, "", "v8"), (18, "", "v8")]
    # (an "at" in prose is no frame)
    assert [r.frame for r in parse_task("it fails at src/parse.ts:74:27").references] == [""]
    # (review 32: nor is a line of prose that starts with one)
    assert [r.frame for r in parse_task("at src/parse.ts:74:27 it fails").references] == [""]


def test_a_rust_backtrace_is_frames_and_its_runtime_frames_seed_nothing() -> None:
    # trial 10: walkdir's panic seeded WalkDir by main, rust, core and option, words of
    # "thread 'main' panicked at" and of core::option::expect_failed
    trace = ("thread 'main' panicked at src/lib.rs:951:31:\n"
             "BUG: cannot pop from empty stack\n"
             "stack backtrace:\n"
             "   0: rust_begin_unwind\n"
             "   1: core::option::expect_failed\n"
             "   2: walkdir::IntoIter::pop\n"
             "             at ./src/lib.rs:951:9\n")
    parsed = parse_task(trace)
    assert parsed.symbols == ("src/lib.rs", "walkdir.IntoIter.pop")
    assert {"main", "core", "option", "thread", "unwind"}.isdisjoint(parsed.keywords)
    assert [(r.start_line, r.function, r.frame) for r in parsed.references] == [
        (951, "", ""), (951, "pop", "rust")]


def test_a_go_panic_is_frames_and_its_header_words_are_no_query() -> None:
    # trial 11 (Go): the frames' receivers and a panic's framing words were names and words
    trace = ("panic: runtime error: invalid memory address or nil pointer dereference\n"
             "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x6a1b2c]\n\n"
             "goroutine 1 [running]:\n"
             "github.com/go-chi/chi/v5.(*Mux).routeHTTP(0xc0000a2000, {0x7f1e20, 0xc0000b4000})\n"
             "\t/home/dev/chi/mux.go:459 +0x1d\n"
             "main.main.func1()\n"
             "\t/home/dev/app/main.go:12 +0x45\n"
             "exit status 2\n")
    parsed = parse_task(trace)
    assert [(r.path, r.start_line, r.function, r.frame) for r in parsed.references] == [
        ("home/dev/chi/mux.go", 459, "routeHTTP", "go"), ("home/dev/app/main.go", 12, "main", "go")]
    assert "Mux" not in parsed.symbols and "github.com/go-chi/chi/v5" not in parsed.symbols
    assert {"goroutine", "running", "signal", "sigsegv", "exit", "status"}.isdisjoint(parsed.keywords)


def test_a_rust_frames_hash_is_neither_its_function_nor_a_word() -> None:
    # review: greedy qualifiers took ``pop::`` and left the hash as the frame's function
    trace = ("   2: walkdir::IntoIter::pop::h0123456789abcdef\n"
             "             at ./src/lib.rs:951:9\n")
    parsed = parse_task(trace)
    assert [(r.function, r.frame) for r in parsed.references] == [("pop", "rust")]
    assert parsed.symbols == ("src/lib.rs", "walkdir.IntoIter.pop")
    assert not {"h0123456789abcdef", "abcdef"} & set(parsed.keywords)


def test_a_rust_frame_in_the_toolchains_sources_is_the_runtimes() -> None:
    # review: rustc prints std's frames with a place under /rustc/<commit>/library, so
    # core::option::expect_failed was a frame, a symbol and the words core and option
    std = "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library"
    trace = ("thread 'main' panicked at src/lib.rs:951:31:\n"
             "stack backtrace:\n"
             "   0: rust_begin_unwind\n"
             f"             at {std}/std/src/panicking.rs:645:5\n"
             "   1: core::option::expect_failed\n"
             f"             at {std}/core/src/option.rs:1988:5\n"
             "   2: walkdir::IntoIter::pop\n"
             "             at ./src/lib.rs:951:9\n")
    parsed = parse_task(trace)
    assert parsed.symbols == ("src/lib.rs", "walkdir.IntoIter.pop")
    assert {"core", "option", "expect", "unwind", "library"}.isdisjoint(parsed.keywords)
    assert [(r.path, r.function, r.frame) for r in parsed.references] == [
        ("src/lib.rs", "", ""), ("src/lib.rs", "pop", "rust")]


def test_a_rust_frame_of_a_trait_impl_is_a_frame() -> None:
    # trial 21: `<Value as IndexMut<I>>::index_mut` over its place was no frame: its line
    # kept the top quality of a place, and its name seeded every `index_mut`
    trace = ("   2: <str as serde_json::value::index::Index>::index_or_insert\n"
             "             at /home/dev/serde_json-1.0.140/src/value/index.rs:102:18\n"
             "   3: <serde_json::value::Value as core::ops::index::IndexMut<I>>::index_mut\n"
             "             at ./src/value/index.rs:256:9\n")
    parsed = parse_task(trace)
    assert [(r.start_line, r.function, r.frame) for r in parsed.references] == [
        (102, "index_or_insert", "rust"), (256, "index_mut", "rust")]


def test_a_numbered_list_is_no_rust_backtrace() -> None:
    # review: "1: parse_config" was read as a Rust frame with no place, and blanked
    parsed = parse_task("Steps:\n1: parse_config\n2: load_rules\n")
    assert {"parse_config", "load_rules"} <= set(parsed.symbols)


@pytest.mark.parametrize(("written", "path"), [
    # trial 12: the source-link path every NuGet-built assembly prints was no place
    ("/_/src/Serilog/Core/Logger.cs", "src/Serilog/Core/Logger.cs"),
    ("C:\\projects\\serilog\\src\\Serilog\\Core\\Logger.cs", "projects/serilog/src/Serilog/Core/Logger.cs"),
    ("/home/dev/serilog/src/Serilog/Core/Logger.cs", "home/dev/serilog/src/Serilog/Core/Logger.cs"),
    ("src/Serilog/Core/Logger.cs", "src/Serilog/Core/Logger.cs"),
])
def test_a_dotnet_frame_is_a_place_whatever_its_path(written: str, path: str) -> None:
    trace = ("   at Serilog.Core.Logger.Write(LogEventLevel level, Exception exception) in "
             f"{written}:line 424\n")
    assert [(r.path, r.start_line, r.function, r.frame) for r in parse_task(trace).references] == [
        (path, 424, "Write", "dotnet")]


def test_dotnet_and_jvm_runtime_frames_and_dotnet_parameters_give_no_names_nor_words() -> None:
    # trial 12: System.*, Microsoft.*, java.* and kotlinx.* frames, and a .NET frame's
    # parameter types, seeded `Some.String`, `InvokeMethod` and `TestExecutor.intercept`
    trace = ("   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments)\n"
             "   at System.Collections.Generic.Dictionary`2.TryGetValue(TKey key, TValue& value)\n"
             "   at Microsoft.Extensions.Logging.Logger.Log[TState](LogLevel logLevel, Func`3 f)\n"
             "   at Serilog.Capturing.PropertyValueConverter.CreateStructureValue(Object value, Type"
             " type) in /_/src/Serilog/Capturing/PropertyValueConverter.cs:line 476\n"
             "   --- End of inner exception stack trace ---\n"
             "   at App.Main(String[] args)\n"
             "\tat kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:106)\n"
             "\tat java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)\n"
             "\tat javax.servlet.http.HttpServlet.service(HttpServlet.java:750)\n")
    parsed = parse_task(trace)
    assert parsed.symbols == ("src/Serilog/Capturing/PropertyValueConverter.cs",
                              "Serilog.Capturing.PropertyValueConverter.CreateStructureValue", "App.Main")
    assert {"system", "microsoft", "invoke", "dictionary", "object", "type", "string", "args",
            "kotlinx", "java", "thread", "pool", "servlet", "end", "inner", "stack",
            "trace"}.isdisjoint(parsed.keywords)
    assert [(r.start_line, r.frame) for r in parsed.references] == [(476, "dotnet")]


def test_a_php_frame_and_a_php_error_are_places_in_the_function_that_holds_them() -> None:
    # trial 12: neither "File.php(42):" nor "in File.php on line 42" gave a place
    trace = ("PHP Fatal error:  Uncaught RuntimeException: Named route does not exist in "
             "/var/www/app/vendor/slim/slim/Slim/Routing/RouteParser.php on line 42\n"
             "Stack trace:\n"
             "#0 /var/www/Slim/Routing/RouteParser.php(42): Slim\\Routing\\RouteCollector->getNamedRoute('a')\n"
             "#1 /var/www/Slim/Routing/RouteParser.php(106): Slim\\Routing\\RouteParser->relativeUrlFor('a', Array)\n"
             "#2 /var/www/Slim/Handlers/RequestResponse.php(38): App\\Action\\ProfileAction->__invoke(Object(Slim\\Psr7\\Request))\n"
             "#3 /var/www/Slim/App.php(215): {closure}(Array)\n"
             "#4 {main}\n")
    parsed = parse_task(trace)
    # (a frame's line is in the function the next frame names: #0's 42 is in relativeUrlFor)
    assert [(r.path, r.start_line, r.function, r.frame) for r in parsed.references] == [
        ("var/www/app/vendor/slim/slim/Slim/Routing/RouteParser.php", 42, "", ""),
        ("var/www/Slim/Routing/RouteParser.php", 42, "relativeUrlFor", "php"),
        ("var/www/Slim/Routing/RouteParser.php", 106, "__invoke", "php"),
        ("var/www/Slim/Handlers/RequestResponse.php", 38, "", "php"),
        ("var/www/Slim/App.php", 215, "", "php")]
    assert {"RouteCollector.getNamedRoute", "RouteParser.relativeUrlFor",
            "ProfileAction.__invoke"} <= set(parsed.symbols)
    assert not {"Slim", "Routing", "App", "Action", "Object", "Array", "Psr7", "Request",
                "Stack", "Fatal"} & set(parsed.symbols)
    assert {"main", "stack", "fatal", "uncaught", "psr7", "closure"}.isdisjoint(parsed.keywords)


def test_a_windows_path_is_never_read_as_its_file_name_alone() -> None:
    # trial 12: "C:\src\MyApp\Program.cs" gave the symbol and place "Program.cs", which
    # named the repository's test/AotTestApp/Program.cs
    frame = parse_task("   at MyApp.Program.Main(String[] args) in C:\\src\\MyApp\\Program.cs:line 22")
    assert [r.path for r in frame.references] == ["src/MyApp/Program.cs"]
    assert "Program.cs" not in frame.symbols
    prose = parse_task("crash in C:\\src\\MyApp\\Program.cs, line 22")
    assert prose.symbols == ("src/MyApp/Program.cs",)
    assert [r.path for r in prose.references] == ["src/MyApp/Program.cs"]
    assert [r.path for r in parse_task("see /srv/app/db.py line 12").references] == ["srv/app/db.py"]
    assert [r.path for r in parse_task("Program.cs:22 throws").references] == ["Program.cs"]


def test_a_native_frame_is_a_place_with_its_function_and_a_binary_frame_is_the_runtimes() -> None:
    # trial 12: AddressSanitizer's and gdb's frames were places of no trace, all of the top
    # quality, and "_start (/home/dev/hiredis/build/fuzzer+0x2af24)" gave words
    trace = ("    #0 0x7f3a in __interceptor_memcpy ../../../../src/libsanitizer/common.inc:827\n"
             "    #2 0x55d0c8a2b7c2 in processBulkItem /home/dev/hiredis/read.c:503\n"
             "    #8 0x55d0c8a19f24 in _start (/home/dev/hiredis/build/fuzzer+0x2af24)\n"
             "#1  0x000055555555513d in main () at test.c:10\n")
    parsed = parse_task(trace)
    assert [(r.path, r.start_line, r.function, r.frame) for r in parsed.references] == [
        ("src/libsanitizer/common.inc", 827, "__interceptor_memcpy", "native"),
        ("home/dev/hiredis/read.c", 503, "processBulkItem", "native"),
        ("test.c", 10, "main", "native")]
    assert {"home", "dev", "hiredis", "build", "fuzzer", "start"}.isdisjoint(parsed.keywords)
    assert parsed.places == ("src/libsanitizer/common.inc", "home/dev/hiredis/read.c", "test.c")


def test_a_cpp_frames_template_arguments_give_no_names_and_its_function_is_outside_them() -> None:
    # trial 13: `std::char_traits`, `adl_serializer`, ... of a frame's template arguments
    # were names of the task, and the frames, no frames at all, all scored 150
    trace = ("    #0 0x55d0 in ns::reader<ns::basic_json<std::map, std::allocator<char> >, "
             "ns::adapter<unsigned char const*> >::get_number() /src/json/json.hpp:11835:38\n"
             "    #1 0x55d1 in ns::basic_json<>::from_ubjson<unsigned char const*>(unsigned "
             "char const*&&, bool) /src/json/json.hpp:23783:73\n")
    parsed = parse_task(trace)
    assert [(r.start_line, r.function, r.frame) for r in parsed.references] == [
        (11835, "get_number", "native"), (23783, "from_ubjson", "native")]
    assert parsed.symbols == ("src/json/json.hpp", "ns.reader.get_number", "ns.basic_json.from_ubjson")
    assert {"std", "map", "allocator", "char", "adapter", "unsigned", "bool"}.isdisjoint(parsed.keywords)


@pytest.mark.parametrize("line", ["#2 crash at db.py:12", "#3 see config.py:55 for the Loader",
                                  "#12 handle /srv/app/x.py:3 better"])
def test_a_numbered_line_of_prose_is_a_place_not_a_native_frame(line: str) -> None:
    # review 31: `crash`, `see` and `handle` were the functions of native frames
    (reference,) = parse_task(line).references
    assert (reference.function, reference.frame) == ("", "")
    assert parse_task(line).places == ()


def test_gdbs_innermost_frame_without_an_address_is_still_a_native_frame() -> None:
    (reference,) = parse_task("#0  foo (x=0x0) at src/foo.c:5").references
    assert (reference.path, reference.function, reference.frame) == ("src/foo.c", "foo", "native")


def test_a_swift_backtraces_frames_are_places_nearest_the_failure_first() -> None:
    # trial 13: the frames of Swift's backtracer were places of no trace, all of the top
    # quality; "Fatal error", "Program crashed" and the runtime's frames gave names
    trace = ("Swift/Parsed.swift:68: Fatal error: Trying to get the set\n\n"
             "💣 Program crashed: System trap at 0x000055d5c3f2a1b4\n\n"
             'Thread 0 "mytool" crashed:\n\n'
             "0 0x000055d5c3f2a1b4 ParsedWrapper.argumentSet(for:) + 180 in mytool at "
             "/home/ci/Sources/Parsing/Parsed.swift:68:7\n"
             "1 [ra] 0x000055d5c3f3b0a2 closure #1 in ArgumentSet.init(_:visibility:) + 418 in "
             "mytool at /home/ci/Sources/Parsable Types/ParsableArguments.swift:326:25\n"
             "2 [ra] 0x00007f8e1a2b3c40 specialized Sequence.compactMap<A>(_:) + 320 in libswiftCore.so\n"
             "3 [ra] [system] 0x00007f8e19e29d90 __libc_start_call_main + 128 in libc.so.6\n"
             "4  MyTool  0x0000000100003f20 $s6MyTool4mainyyF + 32\n"
             "5  MyTool  0x0000000100003f20 Tool.run() + 32 (Tool.swift:9)\n")
    parsed = parse_task(trace)
    assert [(r.path, r.start_line, r.function, r.frame) for r in parsed.references] == [
        ("Swift/Parsed.swift", 68, "", ""),
        ("home/ci/Sources/Parsing/Parsed.swift", 68, "argumentSet", "swift"),
        ("home/ci/Sources/Parsable Types/ParsableArguments.swift", 326, "init", "swift"),
        ("Tool.swift", 9, "run", "swift")]
    assert {"ParsedWrapper.argumentSet", "ArgumentSet.init", "Tool.run"} <= set(parsed.symbols)
    assert {"Fatal", "Program", "System", "Thread", "Sequence.compactMap", "libswiftCore.so",
            "libc.so", "__libc_start_call_main"}.isdisjoint(parsed.symbols)
    assert {"fatal", "program", "crashed", "trap", "thread", "mytool", "specialized",
            "compact", "libswiftcore", "closure", "mainyy"}.isdisjoint(parsed.keywords)


@pytest.mark.parametrize("method", ["<Run>g__Helper|4_0(Int32 x)", "<Run>d__4.MoveNext()",
                                    "<>c.<Run>b__0_0(Int32 x)"])
def test_a_dotnet_local_function_lambda_or_async_frame_is_of_the_method_holding_it(method: str) -> None:
    # review 31: a local function's `|` made the frame no frame (and `Int32` a name); an
    # async method's frame named `MoveNext`
    parsed = parse_task(f"   at MyApp.Svc.{method} in /src/MyApp/Svc.cs:line 33")
    assert [(r.path, r.function, r.frame) for r in parsed.references] == [
        ("src/MyApp/Svc.cs", "Run", "dotnet")]
    assert {"Int32", "g__Helper", "d__4.MoveNext", "MoveNext"}.isdisjoint(parsed.symbols)


def test_a_php_internal_function_frame_gives_no_names_nor_words() -> None:
    # review 31: `App`, `Ctl`, `Object` and `closure` of a callback's frame were the task's
    parsed = parse_task("#0 /srv/a/Ctl.php(9): App\\Svc->run()\n"
                        "#1 [internal function]: App\\Ctl->{closure}(Object(App\\Req))\n"
                        "#2 /srv/a/Kernel.php(3): call_user_func(Object(Closure))\n")
    assert not {"App", "Ctl", "Object", "Req"} & set(parsed.symbols)
    assert {"internal", "function", "closure", "object", "req"}.isdisjoint(parsed.keywords)


def test_a_relative_windows_path_gives_its_file_and_a_windows_frame_its_place() -> None:
    # review 31: "src\app\db.py:12" gave no symbol, and a Windows .NET frame no place
    assert parse_task("src\\app\\db.py:12 fails").symbols == ("src/app/db.py",)
    frame = parse_task("   at MyApp.Program.Main(String[] args) in C:\\src\\MyApp\\Program.cs:line 22")
    assert frame.places == ("src/MyApp/Program.cs",)


def test_php_framing_words_are_words_in_prose() -> None:
    # review 31: "thrown in" and "Stack trace:" were framing anywhere in a task
    parsed = parse_task("The exception is thrown in the parser; the Stack trace: field is empty")
    assert {"thrown", "stack", "trace"} <= set(parsed.keywords)
    php = parse_task("PHP Fatal error:  Uncaught Exception: boom in /srv/a/B.php:4\n"
                     "Stack trace:\n#0 {main}\n  thrown in /srv/a/B.php on line 4\n")
    assert {"thrown", "stack", "trace"}.isdisjoint(php.keywords)


def test_capitalised_words_in_a_row_are_a_title_not_symbols() -> None:
    # "XDG Base Directory Specification" seeded pylint's test-data classes named Base
    task = parse_task("Make pylint XDG Base Directory Specification compliant")
    assert not {"Base", "Directory", "Specification"} & set(task.symbols)
    assert task.titled == ("Base", "Directory", "Specification")
    assert "base" in task.keywords  # still searched for as words
    mixed = parse_task("the Storage Engine fails beside DataArray and Session")
    assert "DataArray" in mixed.symbols and "Session" in mixed.symbols
    assert mixed.titled == ("Storage", "Engine")
    assert parse_task("fix Storage bug").symbols == ("Storage",)
    assert parse_task("fix Storage bug").titled == ()


def test_a_sentences_capital_opens_no_title() -> None:
    # "Fix Storage bug": the capital of "Fix" is the sentence's, so "Storage" is a name
    assert parse_task("Fix Storage bug").symbols == ("Storage",)
    assert parse_task("Running pylint in Kubernetes Pod fails").titled == ("Kubernetes", "Pod")


@pytest.mark.parametrize("text, titled", [
    ("Fix crash in the Storage Engine.", ("Storage", "Engine")),
    ("In the XDG Base Directory Specification.", ("Base", "Directory", "Specification")),
    ("rule Output Value: E6101", ("Output", "Value")),
    ("Storage Engine crashes on save", ("Storage", "Engine")),
    ("fix: Storage Engine crashes", ("Storage", "Engine")),
    ("Output Value check fails", ("Output", "Value")),
    ("Fix Storage Engine bug", ("Storage", "Engine")),
])
def test_a_title_ends_at_sentence_punctuation_and_may_open_a_sentence(text, titled) -> None:
    # review 33: a title before "." or ":" was read as symbols, and so was one opening a
    # sentence unless its first word was a verb
    parsed = parse_task(text)
    assert parsed.titled == titled and not set(titled) & set(parsed.symbols)


def test_a_place_written_with_a_column_is_a_diagnostics_place_like_a_frames() -> None:
    # trial 16: rustc's `--> crates/printer/src/standard.rs:1304:17` gave the words of its
    # file name, and `standard` seeded ripgrep's `SearchMode::Standard`
    rustc = parse_task("error[E0308]: mismatched types\n --> crates/printer/src/standard.rs:1304:17\n"
                       "expected `usize`, found `u64`")
    assert rustc.places == ("crates/printer/src/standard.rs",)
    assert parse_task("src/a.ts(1681,40): error TS2345: bad").places == ("src/a.ts",)
    # (a place a person writes, without a column, keeps its words)
    assert parse_task("see routes.py:619 for the crash").places == ()


def test_a_huge_task_whose_first_max_task_chars_end_with_a_blank_is_read_to_them():
    # trial 19: lines of 25 characters, a line break at character 100,000, read 99,999
    text = "retry delay at Ky.ts:500\n" * (2 * MAX_TASK_CHARS // 25)
    parsed = parse_task(text)
    assert parsed.raw == text[:MAX_TASK_CHARS]
    assert limit_task(parsed)[1].startswith(f"task cut: searched the first {MAX_TASK_CHARS:,} of ")


def test_a_web_address_gives_no_words_nor_names() -> None:
    # trial 38: an issue link's `https`, `github` and owner words took 980 of 2,000 tokens
    parsed = parse_task("Bytes::slice panics, see https://github.com/tokio-rs/bytes/issues/123")
    assert parsed.symbols == ("Bytes.slice",)
    assert {"https", "github", "com", "tokio", "issues"}.isdisjoint(parsed.keywords)
    assert "bytes" in parsed.keywords  # (the task's own word still counts)
    assert parse_task("docs at www.example.com/a/load_rows say so.").symbols == ()


def test_a_web_address_of_a_source_file_is_its_path() -> None:
    parsed = parse_task("see https://github.com/o/r/blob/main/src/bytes.rs.")
    assert parsed.symbols == ("github.com/o/r/blob/main/src/bytes.rs",)
    assert parsed.keywords == ("see",)
    lines = parse_task("panic at https://github.com/o/r/blob/abc/src/bytes.rs#L120-L130")
    assert [(r.path, r.start_line, r.end_line) for r in lines.references] == [
        ("github.com/o/r/blob/abc/src/bytes.rs", 120, 130)]


def test_the_file_name_ending_a_path_is_no_qualified_name() -> None:
    # trial 39: "/var/log/app.log" gave the name `app.log`, which seeded `Logger.log`
    parsed = parse_task('could not open "/var/log/app.log" in StreamHandler')
    assert parsed.symbols == ("StreamHandler",)
    assert parse_task("use os.path.join").symbols == ("os.path.join",)


def test_a_web_address_whose_query_names_a_file_is_no_path() -> None:
    # review of trial 39's addresses: the query's file gave the address's own path,
    # `h/page`, as a symbol; a fragment with a "/" hid the path's file name
    assert parse_task("see https://h/page?file=src/a.py for Foo").symbols == ("Foo",)
    assert parse_task("see https://h/src/a.py?x=1#y/z").symbols == ("h/src/a.py",)


def test_a_long_web_address_of_file_names_is_read_to_its_query() -> None:
    # review of trial 39's addresses: each `.py#` was read to the next "/", then back:
    # 29 s for 96,000 characters (benchmarks/bench_task_parse.py times it)
    parsed = parse_task("see https://h/x" + ".py#" * 12_000 + "/z")
    assert parsed.symbols == ("h/x.py",)


def test_a_web_address_with_its_scheme_in_capitals_is_one() -> None:
    # review of trial 39's addresses: a scheme is any case (RFC 3986), and `HTTPS://`
    # gave `https`, `github` and `com` as words, a file's address its scheme in the path
    parsed = parse_task("see HTTPS://github.com/o/r/issues/1 for Foo")
    assert (parsed.symbols, parsed.keywords) == (("Foo",), ("see", "foo"))
    assert parse_task("see Http://x.org/src/a.py now").symbols == ("x.org/src/a.py",)
