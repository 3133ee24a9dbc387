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
        ('primary', 'constant', 'Palette.primary', 13, 13),
        ('Tone', 'enum', 'Palette.Tone', 14, 14),
        ('Light', 'constant', 'Palette.Tone.Light', 14, 14),
        ('Dark', 'constant', 'Palette.Tone.Dark', 14, 14),
        ('ShapesController', 'class', 'ShapesController', 17, 34),
        ('create', 'method', 'ShapesController.create', 20, 27),
        ('list', 'method', 'ShapesController.list', 29, 33),
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
        ('Frame', 'class', 'Frame', 5, 14),
        ('toggle', 'method', 'Frame.toggle', 8, 9),
        ('render', 'method', 'Frame.render', 11, 13),
        ('handlers', 'constant', 'handlers', 16, 16),
        ('click', 'method', 'handlers.click', 16, 16),
        ('hover', 'method', 'handlers.hover', 16, 16),
        ('Panel', 'function', 'Panel', 18, 20),
    ], {
        ('react', 'import', 1),
        ('Component', 'inherit', 7),
        ('click', 'call', 12),
        ('Frame', 'call', 19),
    }),
    'javascript/client.js': ('javascript', [
        ('api', 'constant', 'api', 4, 11),
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
        ('Shape', 'enum', 'Shape', 1, 9),
        ('Empty', 'constant', 'Shape.Empty', 5, 6),
        ('Circle', 'constant', 'Shape.Circle', 7, 7),
        ('Rect', 'constant', 'Shape.Rect', 8, 8),
        ('w', 'field', 'Shape.Rect.w', 8, 8),
        ('h', 'field', 'Shape.Rect.h', 8, 8),
        ('square', 'macro', 'square', 11, 14),
        ('area', 'method', 'Shape.area', 17, 25),
    ], {
        ('Shape', 'type', 16),
        ('Rect', 'type', 22),
    }),
    'go/shapes.go': ('go', [
        ('Box', 'struct', 'Box', 6, 7),
        ('v', 'field', 'Box.v', 7, 7),
        ('Name', 'type', 'Name', 8, 8),
        ('Small', 'constant', 'Small', 12, 12),
        ('Large', 'constant', 'Large', 13, 13),
        ('G', 'method', 'Box.G', 16, 17),
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
        ('Kind', 'enum', 'geo.Kind', 4, 5),
        ('Circle', 'constant', 'geo.Kind.Circle', 5, 5),
        ('Rect', 'constant', 'geo.Kind.Rect', 5, 5),
        ('Cls', 'struct', 'geo.Cls', 7, 9),
        ('run', 'method', 'geo.Cls.run', 8, 8),
        ('run', 'method', 'geo.Cls.run', 12, 17),
    ], {
        ('<chrono>', 'import', 1),
        ('Cls', 'type', 13),
        ('c', 'call', 14),
        ('duration_cast', 'call', 15),
        ('seconds', 'type', 15),
        ('count', 'call', 16),
        ('make', 'call', 16),
    }),
    'python/shapes.py': ('python', [
        ('Color', 'class', 'Color', 6, 8),
        ('RED', 'constant', 'Color.RED', 7, 7),
        ('GREEN', 'constant', 'Color.GREEN', 8, 8),
        ('Canvas', 'class', 'Canvas', 11, 26),
        ('size', 'field', 'Canvas.size', 14, 14),
        ('draw', 'method', 'Canvas.draw', 16, 20),
        ('clear', 'method', 'Canvas.clear', 22, 23),
        ('reset', 'method', 'Canvas.reset', 24, 26),
        ('plain', 'function', 'plain', 29, 30),
    ], {
        ('enum', 'import', 2),
        ('functools', 'import', 3),
        ('Enum', 'inherit', 6),
        ('lru_cache', 'call', 17),
        ('staticmethod', 'call', 18),
        ('area', 'reference', 20),
        ('compute', 'call', 20),
        ('geometry', 'reference', 20),
        ('clear', 'call', 26),
        ('RED', 'reference', 30),
    }),
    'java/Shapes.java': ('java', [
        ('Kind', 'enum', 'Kind', 3, 7),
        ('CIRCLE', 'constant', 'Kind.CIRCLE', 5, 5),
        ('RECT', 'constant', 'Kind.RECT', 6, 6),
        ('Shapes', 'class', 'Shapes', 9, 23),
        ('kind', 'field', 'Shapes.kind', 14, 15),
        ('draw', 'method', 'Shapes.draw', 17, 22),
    ], {
        ('Service', 'type', 12),
        ('Kind', 'type', 15),
        ('Override', 'type', 18),
        ('Deprecated', 'type', 19),
        ('String', 'type', 20),
        ('compute', 'call', 21),
    }),
    'c/shapes.c': ('c', [
        ('kind', 'enum', 'kind', 3, 7),
        ('KIND_CIRCLE', 'constant', 'kind.KIND_CIRCLE', 5, 5),
        ('KIND_RECT', 'constant', 'kind.KIND_RECT', 6, 6),
        ('shape', 'struct', 'shape', 9, 13),
        ('kind', 'field', 'shape.kind', 10, 11),
        ('size', 'field', 'shape.size', 12, 12),
        ('area', 'function', 'area', 15, 21),
        ('SQUARE', 'macro', 'SQUARE', 23, 23),
    ], {
        ('shapes.h', 'import', 1),
        ('shape', 'type', 18),
        ('area', 'call', 20),
        ('geo_scale', 'call', 20),
    }),
    'csharp/Shapes.cs': ('csharp', [
        ('Kind', 'enum', 'Example.Shapes.Kind', 3, 8),
        ('Circle', 'constant', 'Example.Shapes.Kind.Circle', 6, 6),
        ('Rect', 'constant', 'Example.Shapes.Kind.Rect', 7, 7),
        ('ShapesController', 'class', 'Example.Shapes.ShapesController', 10, 21),
        ('Draw', 'method', 'Example.Shapes.ShapesController.Draw', 14, 20),
    ], {
        ('ApiController', 'type', 11),
        ('HttpGet', 'type', 15),
        ('Obsolete', 'type', 16),
        ('Kind', 'type', 17),
        ('Abs', 'call', 19),
        ('Compute', 'call', 19),
        ('Geo', 'reference', 19),
        ('System', 'reference', 19),
    }),
    'kotlin/Shapes.kt': ('kotlin', [
        ('Kind', 'enum', 'Kind', 3, 7),
        ('CIRCLE', 'constant', 'Kind.CIRCLE', 5, 5),
        ('RECT', 'constant', 'Kind.RECT', 6, 6),
        ('Shapes', 'class', 'Shapes', 9, 20),
        ('draw', 'method', 'Shapes.draw', 14, 19),
    ], {
        ('Service', 'type', 12),
        ('Deprecated', 'type', 15),
        ('JvmStatic', 'type', 16),
        ('Double', 'type', 17),
        ('Kind', 'type', 17),
        ('compute', 'call', 18),
    }),
    'swift/Shapes.swift': ('swift', [
        ('Kind', 'enum', 'Kind', 3, 7),
        ('circle', 'constant', 'Kind.circle', 5, 5),
        ('rect', 'constant', 'Kind.rect', 6, 6),
        ('Shapes', 'class', 'Shapes', 9, 18),
        ('draw', 'method', 'Shapes.draw', 12, 17),
    ], {
        ('Foundation', 'import', 1),
        ('Double', 'type', 6),
        ('MainActor', 'type', 10),
        ('discardableResult', 'type', 13),
        ('objc', 'type', 14),
        ('Double', 'type', 15),
        ('Kind', 'type', 15),
        ('Geo', 'reference', 16),
        ('compute', 'call', 16),
    }),
    'php/Shapes.php': ('php', [
        ('Kind', 'enum', 'App.Shapes.Kind', 5, 10),
        ('Circle', 'constant', 'App.Shapes.Kind.Circle', 8, 8),
        ('Rect', 'constant', 'App.Shapes.Kind.Rect', 9, 9),
        ('Shapes', 'class', 'App.Shapes.Shapes', 12, 25),
        ('draw', 'method', 'App.Shapes.Shapes.draw', 18, 24),
    ], {
        ('Controller', 'type', 15),
        ('Route', 'type', 19),
        ('Deprecated', 'type', 20),
        ('Kind', 'type', 21),
        ('Area', 'reference', 23),
        ('compute', 'call', 23),
    }),
    'ruby/shapes.rb': ('ruby', [
        ('Shapes', 'module', 'Shapes', 1, 13),
        ('KINDS', 'constant', 'Shapes.KINDS', 3, 4),
        ('Canvas', 'class', 'Shapes.Canvas', 6, 12),
        ('draw', 'method', 'Shapes.Canvas.draw', 8, 11),
    ], {
        ('freeze', 'call', 4),
        ('Area', 'type', 10),
        ('compute', 'call', 10),
    }),
    'scala/Shapes.scala': ('scala', [
        ('Kind', 'enum', 'Kind', 3, 6),
        ('Circle', 'constant', 'Kind.Circle', 5, 5),
        ('Rect', 'constant', 'Kind.Rect', 5, 5),
        ('Shapes', 'class', 'Shapes', 8, 14),
        ('draw', 'method', 'Shapes.draw', 11, 13),
    ], {
        ('deprecated', 'type', 9),
        ('inline', 'type', 12),
        ('Double', 'type', 13),
        ('Kind', 'type', 13),
        ('compute', 'call', 13),
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
    ("python/shapes.py", "Canvas.draw"),
    ("java/Shapes.java", "Kind.RECT"),
    ("c/shapes.c", "SQUARE"),
    ("csharp/Shapes.cs", "Example.Shapes.ShapesController.Draw"),
    ("kotlin/Shapes.kt", "Shapes.draw"),
    ("swift/Shapes.swift", "Kind.rect"),
    ("php/Shapes.php", "App.Shapes.Shapes.draw"),
    ("ruby/shapes.rb", "Shapes.KINDS"),
    ("scala/Shapes.scala", "Kind.Rect"),
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


def _lines(language: str, source: bytes) -> list[tuple[str, int, int]]:
    return [(d.qualified_name, d.start_line, d.end_line)
            for d in extract_tags("x", language, source).definitions]


@pytest.mark.parametrize(("language", "source", "expected"), [
    # the comment lines directly above, in every comment syntax
    ("python", b"x = 1\n# one\n# two\ndef f():\n    pass\n", [("x", 1, 1), ("f", 2, 5)]),
    ("rust", b"/// one\n/// two\nfn f() {}\n", [("f", 1, 3)]),
    ("go", b"package p\n\n/* one\n   two */\nfunc F() {}\n", [("F", 3, 5)]),
    # a blank line, a trailing comment of a code line or a `#!` line is not part of it
    ("python", b"# one\n\ndef f():\n    pass\n", [("f", 3, 4)]),
    ("python", b"x = 1  # note\ndef f():\n    pass\n", [("x", 1, 1), ("f", 2, 3)]),
    ("python", b"#!/usr/bin/env python\ndef f():\n    pass\n", [("f", 2, 3)]),
    # a comment ending the previous method's body stays in it; the next one is above its own
    ("python", b"class A:\n    def f(self):\n        pass\n        # end of f\n"
               b"    # g\n    def g(self):\n        pass\n",
     [("A", 1, 7), ("A.f", 2, 4), ("A.g", 5, 7)]),
    # a comment tree-sitter hangs on another node (Kotlin's package header, Ruby's module)
    ("kotlin", b"package a\n\n/** Doc. */\nclass A\n", [("A", 3, 4)]),
    ("ruby", b"module M\n  # Doc.\n  X = 1\nend\n", [("M", 1, 4), ("M.X", 2, 3)]),
    # decorators and attributes outside the node, with comments between them
    ("typescript", b"class A {\n  // Doc.\n  @Get()\n  // More.\n  @Post()\n  run() {}\n}\n",
     [("A", 1, 7), ("A.run", 2, 6)]),
    ("rust", b"#[derive(Debug)]\n\n#[repr(C)]\nstruct S;\n", [("S", 1, 4)]),
    ("cpp", b"// Doc.\ntemplate <typename T>\nstruct Box {};\n", [("Box", 1, 3)]),
    ("typescript", b"/** Doc. */\nexport const f = () => 1;\n", [("f", 1, 2)]),
])
def test_a_definition_starts_at_its_decorators_and_the_comments_directly_above(
        language: str, source: bytes, expected: list) -> None:
    assert _lines(language, source) == expected


@pytest.mark.parametrize("target", ["&mut Decoder<R>", "&'a Decoder", "&io::Decoder",
                                    "&'a mut io::Decoder<R>"])
def test_a_rust_impl_for_a_reference_gives_methods_of_the_type(target: str) -> None:
    # trial: serde_json's `impl de::Deserializer<'de> for &mut Deserializer<R>` gave a plain
    # function `deserialize_any`, so `Deserializer::deserialize_any` never found it
    source = f"impl<'a, R> Visit for {target} {{\n    fn run(&self) {{}}\n}}\n".encode()
    assert _lines("rust", source) == [("Decoder.run", 2, 2)]


@pytest.mark.parametrize(("language", "source", "signature"), [
    ("typescript", b"class A {\n  // Doc.\n  @Get()\n  run(): void { go(); }\n}\n",
     "  @Get()\n  run(): void { ... }"),
    ("rust", b"/// Doc.\n#[inline]\nfn f() { g() }\n", "#[inline]\nfn f() { ... }"),
    ("cpp", b"template <typename T>\nT get() { return 1; }\n", "template <typename T>\nT get() { ... }"),
    # trial 4: a signature without `export` hid what the module exports
    ("typescript", b"export const f = (): void => { g(); };\n", "export const f = (): void => { ... }"),
    ("typescript", b"/** Doc. */\nexport default function run(): void {\n  go();\n}\n",
     "export default function run(): void { ... }"),
    ("javascript", b"export function f() { g(); }\n", "export function f() { ... }"),
])
def test_a_signature_starts_at_the_first_decorator_not_at_the_comment(
        language: str, source: bytes, signature: str) -> None:
    assert extract_tags("x", language, source).definitions[-1].signature == signature


def test_a_decorated_class_does_not_reference_its_own_name() -> None:
    tags = extract_tags("x.ts", "typescript", b"@Dec\nclass Frame extends Frame2 {}\n")
    assert ("Frame", "class", 1, 2) == (tags.definitions[0].name, tags.definitions[0].kind,
                                         tags.definitions[0].start_line, tags.definitions[0].end_line)
    assert "Frame" not in {r.name for r in tags.references}


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_c_fields_holding_function_pointers_and_arrays_are_fields(language: str) -> None:
    source = b"struct s {\n  void (*cb)(int x);\n  int (*table[4])(void);\n  void *data[3];\n  char *name;\n};\n"
    assert _lines(language, source) == [("s", 1, 6), ("s.cb", 2, 2), ("s.table", 3, 3),
                                        ("s.data", 4, 4), ("s.name", 5, 5)]


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_c_fields_inside_conditional_blocks_and_returning_pointers(language: str) -> None:
    source = b"struct s {\n  const char *(*get)(int);\n#if X\n  int a;\n#else\n  long b;\n#endif\n};\n"
    assert _lines(language, source) == [("s", 1, 8), ("s.get", 2, 2), ("s.a", 4, 4), ("s.b", 6, 6)]
