"""Issue 12's cases, one fixture per language (fixtures/languages/<lang>/, see its README):
enum members, decorated and documented definitions, object-literal methods, default
exports, parenthesised Go receivers and grouped declarations, Rust macros, C++ calls
qualified more than once. Each fixture's exact definitions (name, kind, qualified name,
lines) and references (name, kind, line) are checked, then the same cases through
``ctxopt tags`` and ``ctxopt gather``.
"""
import json
import shutil
from pathlib import Path

import pytest

from ctxopt.cli import main
from ctxopt.parsing.languages import language_for_path
from ctxopt.parsing.treesitter import extract_tags, module_name

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "languages"

EXPECTED = {
    'typescript/shapes.ts': ('typescript', [
        ('ErrorCode', 'enum', 'ErrorCode', 4, 8),
        ('NotFound', 'constant', 'ErrorCode.NotFound', 5, 5),
        ('E250', 'constant', 'ErrorCode.E250', 6, 6),
        ('Bad Gateway', 'constant', 'ErrorCode.Bad Gateway', 7, 7),
        ('Flag', 'enum', 'Flag', 10, 10),
        ('A', 'constant', 'Flag.A', 10, 10),
        ('B', 'constant', 'Flag.B', 10, 10),
        ('Palette', 'namespace', 'Palette', 12, 15),
        ('primary', 'constant', 'Palette.primary', 13, 13),
        ('Tone', 'enum', 'Palette.Tone', 14, 14),
        ('Light', 'constant', 'Palette.Tone.Light', 14, 14),
        ('Dark', 'constant', 'Palette.Tone.Dark', 14, 14),
        ('ShapesController', 'class', 'ShapesController', 19, 34),
        ('create', 'method', 'ShapesController.create', 25, 27),
        ('list', 'method', 'ShapesController.list', 31, 33),
        ('api', 'constant', 'api', 36, 36),
        ('get', 'method', 'api.get', 36, 36),
        ('post', 'method', 'api.post', 36, 36),
        ('put', 'method', 'api.put', 36, 36),
        ('shapes', 'function', 'shapes', 38, 38),
    ], {
        ('./http', 'import', 2),
        ('Controller', 'call', 18),
        ('Post', 'call', 23),
        ('ApiResponse', 'call', 24),
        ('Get', 'call', 30),
        ('get', 'call', 38),
    }),
    'tsx/Panel.tsx': ('tsx', [
        ('Size', 'enum', 'Size', 3, 3),
        ('Small', 'constant', 'Size.Small', 3, 3),
        ('Large', 'constant', 'Size.Large', 3, 3),
        ('Frame', 'class', 'Frame', 6, 14),
        ('toggle', 'method', 'Frame.toggle', 9, 9),
        ('render', 'method', 'Frame.render', 11, 13),
        ('handlers', 'constant', 'handlers', 16, 16),
        ('click', 'method', 'handlers.click', 16, 16),
        ('hover', 'method', 'handlers.hover', 16, 16),
        ('Panel', 'function', 'Panel', 18, 20),
    ], {
        ('react', 'import', 1),
        ('Component', 'inherit', 7),
        ('Frame', 'type', 7),
        ('click', 'call', 12),
        ('Frame', 'call', 19),
    }),
    'javascript/client.js': ('javascript', [
        ('api', 'constant', 'api', 7, 11),
        ('get', 'method', 'api.get', 8, 8),
        ('post', 'method', 'api.post', 9, 9),
        ('put', 'method', 'api.put', 10, 10),
        ('client', 'function', 'client', 13, 15),
    ], {
        ('./http', 'import', 2),
        ('request', 'call', 8),
        ('request', 'call', 9),
        ('request', 'call', 10),
        ('get', 'call', 14),
    }),
    'rust/shape.rs': ('rust', [
        ('Shape', 'enum', 'Shape', 4, 9),
        ('Empty', 'constant', 'Shape.Empty', 6, 6),
        ('Circle', 'constant', 'Shape.Circle', 7, 7),
        ('Rect', 'constant', 'Shape.Rect', 8, 8),
        ('w', 'field', 'Shape.Rect.w', 8, 8),
        ('h', 'field', 'Shape.Rect.h', 8, 8),
        ('square', 'macro', 'square', 12, 14),
        ('area', 'method', 'Shape.area', 20, 25),
    ], {
        ('Shape', 'type', 16),
        ('Rect', 'type', 22),
    }),
    'go/shapes.go': ('go', [
        ('Box', 'struct', 'Box', 7, 7),
        ('v', 'field', 'Box.v', 7, 7),
        ('Name', 'type', 'Name', 8, 8),
        ('Small', 'constant', 'Small', 12, 12),
        ('Large', 'constant', 'Large', 13, 13),
        ('G', 'method', 'Box.G', 17, 17),
        ('Set', 'method', 'Box.Set', 19, 19),
        ('Upper', 'method', 'Name.Upper', 21, 21),
    ], {
        ('strings', 'import', 3),
        ('int', 'type', 7),
        ('string', 'type', 8),
        ('Box', 'type', 17),
        ('int', 'type', 17),
        ('v', 'reference', 17),
        ('Box', 'type', 19),
        ('int', 'type', 19),
        ('v', 'reference', 19),
        ('Name', 'type', 21),
        ('ToUpper', 'call', 21),
        ('string', 'call', 21),
    }),
    'cpp/shapes.cpp': ('cpp', [
        ('geo', 'namespace', 'geo', 3, 10),
        ('Kind', 'enum', 'geo.Kind', 5, 5),
        ('Circle', 'constant', 'geo.Kind.Circle', 5, 5),
        ('Rect', 'constant', 'geo.Kind.Rect', 5, 5),
        ('Cls', 'struct', 'geo.Cls', 7, 9),
        ('run', 'method', 'geo.Cls.run', 8, 8),
        ('run', 'method', 'geo.Cls.run', 13, 17),
    ], {
        ('<chrono>', 'import', 1),
        ('Cls', 'type', 13),
        ('c', 'call', 14),
        ('duration_cast', 'call', 15),
        ('seconds', 'type', 15),
        ('count', 'call', 16),
        ('make', 'call', 16),
    }),
}


def _tags(relative: str):
    return extract_tags(relative, language_for_path(relative).name,
                        (FIXTURES / relative).read_bytes())


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_definitions(relative: str) -> None:
    language, definitions, _ = EXPECTED[relative]
    tags = _tags(relative)
    assert tags.language == language
    assert [(d.name, d.kind, d.qualified_name, d.start_line, d.end_line)
            for d in tags.definitions] == definitions


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_references(relative: str) -> None:
    _, _, references = EXPECTED[relative]
    assert {(r.name, r.kind, r.line) for r in _tags(relative).references} == references


@pytest.mark.parametrize(("path", "expected"), [
    ("src/shapes.ts", "shapes"), ("shapes.d.ts", "shapes"), ("Button/index.tsx", "Button"),
    ("index.js", "index"), ("a\\b\\c.js", "c"),
])
def test_module_name_is_the_stem_or_an_index_files_directory(path: str, expected: str) -> None:
    assert module_name(path) == expected


@pytest.mark.parametrize("language", ["javascript", "typescript", "tsx"])
@pytest.mark.parametrize(("source", "kind"), [
    (b"export default () => 0;\n", "function"),
    (b"export default function () {}\n", "function"),
    (b"export default function* () {}\n", "function"),
    (b"export default class {}\n", "class"),
    (b"export default { run() {} };\n", "constant"),
])
def test_an_anonymous_default_export_is_named_after_its_module(language, source, kind) -> None:
    tags = extract_tags("lib/shapes.x", language, source)
    assert (tags.definitions[0].name, tags.definitions[0].kind) == ("shapes", kind)


@pytest.mark.parametrize("language", ["javascript", "typescript", "tsx"])
def test_object_literal_functions_are_methods_however_written(language: str) -> None:
    source = b"export const api = { get() {}, post: () => 1, put: function () {}, 'del': async () => 0 };\n"
    tags = extract_tags("api", language, source)
    assert [(d.kind, d.qualified_name) for d in tags.definitions] == [
        ("constant", "api"), ("method", "api.get"), ("method", "api.post"),
        ("method", "api.put"), ("method", "api.del")]


@pytest.mark.parametrize(("call", "name"), [
    (b"a::b::c();", "c"), (b"std::chrono::duration_cast<T>(x);", "duration_cast"),
    (b"x::y<int>::z();", "z"), (b"f<int>();", "f"), (b"a::b::c::d::e();", "e"),
])
def test_cpp_calls_qualified_any_number_of_times_name_the_callee(call: bytes, name: str) -> None:
    tags = extract_tags("x.cpp", "cpp", b"void g() {\n  " + call + b"\n}\n")
    assert (name, "call", 2) in {(r.name, r.kind, r.line) for r in tags.references}


@pytest.mark.parametrize(("receiver", "scope"), [
    (b"b (Box)", "Box"), (b"a *(A)", "A"), (b"a (*A)", "A"), (b"(Box)", "Box"),
    (b"c *(Cache[T])", "Cache"),
])
def test_go_parenthesised_receivers(receiver: bytes, scope: str) -> None:
    tags = extract_tags("r.go", "go", b"package p\nfunc (" + receiver + b") M() {}\n")
    assert [(d.kind, d.qualified_name) for d in tags.definitions] == [("method", f"{scope}.M")]


def test_go_grouped_declarations_give_each_spec_its_own_lines() -> None:
    source = (b"package p\ntype (\n\tA struct{}\n\tB = int\n\tC []A\n)\nconst (\n\tX = 1\n\tY\n)\n"
              b"var (\n\tv = 1\n)\ntype D struct{}\n")
    tags = extract_tags("g.go", "go", source)
    assert [(d.name, d.kind, d.start_line, d.end_line) for d in tags.definitions] == [
        ("A", "struct", 3, 3), ("B", "type", 4, 4), ("C", "type", 5, 5),
        ("X", "constant", 8, 8), ("Y", "constant", 9, 9), ("v", "variable", 11, 13),
        ("D", "struct", 14, 14)]


def _copy(tmp_path: Path, relative: str) -> Path:
    root = tmp_path / "repo"
    (root / relative).parent.mkdir(parents=True)
    shutil.copy(FIXTURES / relative, root / relative)
    return root


# (fixture, qualified name a task names): found by `ctxopt tags` and shown by `ctxopt gather`
CLI_CASES = [
    ("typescript/shapes.ts", "ErrorCode.E250"),
    ("typescript/shapes.ts", "Palette.primary"),
    ("typescript/shapes.ts", "ShapesController.create"),
    ("typescript/shapes.ts", "api.post"),
    ("typescript/shapes.ts", "shapes"),
    ("tsx/Panel.tsx", "handlers.hover"),
    ("javascript/client.js", "api.put"),
    ("javascript/client.js", "client"),
    ("rust/shape.rs", "Shape.Rect.w"),
    ("rust/shape.rs", "square"),
    ("go/shapes.go", "Box.G"),
    ("go/shapes.go", "Name"),
    ("cpp/shapes.cpp", "geo.Cls.run"),
]


@pytest.mark.parametrize(("relative", "qualified"), CLI_CASES)
def test_tags_and_gather_show_the_case(runner, tmp_path, relative: str, qualified: str) -> None:
    root = _copy(tmp_path, relative)
    listed = runner.invoke(main, ["tags", str(root), "--format", "json"], catch_exceptions=False)
    assert listed.exit_code == 0, listed.stderr
    rows = [r for r in json.loads(listed.stdout)
            if r["role"] == "definition" and r["qualified_name"] == qualified]
    assert rows, f"{qualified} not listed"
    wanted = _tags(relative)
    definition = next(d for d in reversed(wanted.definitions) if d.qualified_name == qualified)
    assert (rows[-1]["start_line"], rows[-1]["end_line"]) == (definition.start_line, definition.end_line)
    result = runner.invoke(main, ["gather", f"fix {qualified}", "--root", str(root),
                                  "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    blocks = json.loads(result.stdout)["blocks"]
    holding = [b for b in blocks if qualified in b["symbols"]]
    assert holding, f"{qualified} not gathered"
    assert holding[0]["start_line"] <= definition.start_line
    assert holding[0]["end_line"] >= definition.end_line
