"""Exact definitions and references for each language's fixture file."""
from pathlib import Path

import pytest

from ctxopt.parsing.treesitter import extract_tags

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _tags(relative: str, language: str):
    return extract_tags(relative, language, (FIXTURES / relative).read_bytes())


def _definitions(relative: str, language: str):
    return [(d.name, d.kind, d.qualified_name, d.start_line, d.end_line)
            for d in _tags(relative, language).definitions]


CASES = {
    "python": ("py_storage/storage/db.py", [
        ("MAX_KEY_LENGTH", "constant", "MAX_KEY_LENGTH", 5, 5),
        ("StorageError", "class", "StorageError", 8, 9),
        ("_check_key", "function", "_check_key", 12, 15),
        ("Storage", "class", "Storage", 18, 46),
        ("__init__", "method", "Storage.__init__", 24, 26),
        ("get", "method", "Storage.get", 28, 31),
        ("put", "method", "Storage.put", 33, 35),
        ("delete", "method", "Storage.delete", 37, 42),
        ("save", "method", "Storage.save", 44, 46),
    ]),
    "go": ("go_storage/storage/db.go", [
        ("ErrMissing", "variable", "ErrMissing", 6, 7),
        ("Storage", "struct", "Storage", 9, 12),
        ("data", "field", "Storage.data", 11, 11),
        ("New", "function", "New", 14, 17),
        ("Get", "method", "Storage.Get", 19, 26),
        ("Put", "method", "Storage.Put", 28, 31),
    ]),
    "typescript": ("web_ts/src/api/client.ts", [
        ("ApiClient", "class", "ApiClient", 3, 15),
        ("baseUrl", "field", "ApiClient.baseUrl", 4, 4),
        ("onError", "method", "ApiClient.onError", 5, 5),
        ("constructor", "method", "ApiClient.constructor", 7, 9),
        ("getUser", "method", "ApiClient.getUser", 11, 14),
        ("parseUser", "function", "parseUser", 17, 21),
        ("createClient", "function", "createClient", 23, 25),
    ]),
    "tsx": ("web_ts/src/components/UserCard.tsx", [
        ("UserCard", "function", "UserCard", 5, 9),
        ("Badge", "function", "Badge", 11, 11),
    ]),
    "javascript": ("web_ts/src/strings.js", [
        ("capitalize", "function", "capitalize", 1, 3),
    ]),
}


@pytest.mark.parametrize("language", sorted(CASES))
def test_definitions(language: str) -> None:
    relative, expected = CASES[language]
    assert _definitions(relative, language) == expected


def test_typescript_interface_type_and_enum() -> None:
    assert _definitions("web_ts/src/api/types.ts", "typescript") == [
        ("User", "interface", "User", 1, 5),
        ("id", "field", "User.id", 2, 2),
        ("name", "field", "User.name", 3, 3),
        ("role", "field", "User.role", 4, 4),
        ("UserId", "type", "UserId", 7, 7),
        ("Role", "enum", "Role", 9, 12),
        ("Admin", "constant", "Role.Admin", 10, 10),
        ("Member", "constant", "Role.Member", 11, 11),
    ]


def test_python_references() -> None:
    refs = {(r.name, r.kind, r.line) for r in _tags("py_storage/app/service.py", "python").references}
    assert refs >= {("storage.db", "import", 2), ("Storage", "import_member", 2),
                    ("Storage", "type", 6), ("get", "call", 10), ("put", "call", 12),
                    ("UserService", "call", 17), ("Storage", "call", 17)}


def test_go_references_and_import() -> None:
    refs = {(r.name, r.kind, r.line) for r in _tags("go_storage/server/server.go", "go").references}
    assert {("example.com/kv/storage", "import", 7), ("Storage", "type", 12),
            ("Get", "call", 16), ("NotFound", "call", 18)} <= refs


def test_jsx_components_are_references_but_html_tags_are_not() -> None:
    refs = {(r.name, r.kind) for r in _tags("web_ts/src/components/UserCard.tsx", "tsx").references}
    assert ("Badge", "call") in refs
    assert ("span", "call") not in refs


def test_reference_knows_its_enclosing_definition() -> None:
    tags = _tags("py_storage/storage/db.py", "python")
    call = next(r for r in tags.references if r.name == "_check_key" and r.line == 30)
    assert tags.definitions[call.enclosing].qualified_name == "Storage.get"


@pytest.mark.parametrize(
    ("language", "source", "signature"),
    [
        ("python", b"@cache\ndef f(a,\n      b):\n    '''Doc line.\n\n    More.'''\n    return a\n",
         "@cache\ndef f(a,\n      b):\n    '''Doc line. ...'''\n    ..."),
        ("python", b"class A(B):\n    x = 1\n", "class A(B):\n    ..."),
        ("python", b"def g(): return 1\n", "def g():\n    ..."),
        ("go", b"package p\nfunc (s *S) Get(k string) string {\n\treturn k\n}\n",
         "func (s *S) Get(k string) string { ... }"),
        ("typescript", b"export const f = async (x: number): Promise<void> => {\n  await x;\n};\n",
         "export const f = async (x: number): Promise<void> => { ... }"),
        ("javascript", b"class A extends B {\n  m() { return 1; }\n}\n", "class A extends B { ... }"),
        # review F14: signatures that were not valid code of their language
        ("rust", b"pub struct X { a: u8 }\n", "pub struct X { ... }"),
        ("rust", b"pub struct T(u8, String);\n", "pub struct T(u8, String);"),  # was `pub struct T ...`
        ("rust", b"pub enum E { A, B(u8), C { x: i32 } }\n", "pub enum E { ... }"),
        ("rust", b"pub struct G<T>\nwhere\n    T: Clone,\n{\n    inner: T,\n}\n",
         "pub struct G<T>\nwhere\n    T: Clone,\n{ ... }"),  # `T: Clone, { ... }`
        ("go", b"package p\ntype S struct {\n" + b"".join(b"\tF%d int\n" % n for n in range(9)) + b"}\n",
         "type S struct { ... }"),  # was `type S struct { ...`, an unclosed brace
        ("cpp", b"class C : public B {\n public:\n  void m();\n};\n", "class C : public B { ... };"),
        ("cpp", b"enum class E { A, B };\n", "enum class E { ... };"),
        ("c", b"typedef struct { int a; } T;\n", "typedef struct { ... } T;"),  # was `typedef struct { ... }`
        ("c", b"struct S { int a; };\n", "struct S { ... };"),
        ("python", b"CODES = {\n" + b"".join(b"    %d: 'x',\n" % n for n in range(9)) + b"}\n",
         "CODES = { ... }"),  # was `CODES = { ...`
        ("java", b"public record R(int a, String b) { }\n", "public record R(int a, String b) { ... }"),
        ("typescript", b"export interface I extends J<K> {\n  a: number;\n}\n",
         "export interface I extends J<K> { ... }"),
        # trial: a Ruby body ends at `end`, which its signature left out
        ("ruby", b"def add(item, qty = 1)\n  @items << item\nend\n", "def add(item, qty = 1) ... end"),
        ("ruby", b"class Cart < Base\n  def m\n    1\n  end\nend\n", "class Cart < Base ... end"),
        ("ruby", b"module Shop\n  X = 1\nend\n", "module Shop ... end"),
    ],
)
def test_signature_replaces_the_body(language: str, source: bytes, signature: str) -> None:
    tags = extract_tags("x", language, source)
    assert tags.definitions[0].signature == signature


def test_a_rust_tuple_variant_is_shown_whole_and_a_skeleton_keeps_a_c_semicolon() -> None:
    from ctxopt.source import outline

    tags = extract_tags("x", "rust", b"pub enum E { A, B(u8) }\n")
    assert [d.signature for d in tags.definitions] == ["pub enum E { ... }", "A", "B(u8)"]
    tags = extract_tags("x", "cpp", b"struct S {\n  int a;\n  void m();\n};\n")
    assert outline(tags.definitions) == "struct S {\n  int a;\n  void m();\n};"


def test_line_numbers_with_crlf_and_no_trailing_newline() -> None:
    tags = extract_tags("x.py", "python", b"import os\r\n\r\ndef f():\r\n    return 1")
    assert [(d.name, d.start_line, d.end_line) for d in tags.definitions] == [("f", 3, 4)]
    assert tags.line_count == 4


@pytest.mark.parametrize("language", ["typescript", "javascript"])
def test_module_constants_holding_a_regex_or_boolean_are_definitions(language: str) -> None:
    # regression (trial on zod): `export const email = /.../` was never a definition
    source = b"export const email = /^[a-z]+@[a-z]+$/;\nconst strict = true;\n"
    tags = extract_tags("x", language, source)
    assert [(d.name, d.kind, d.start_line) for d in tags.definitions] == [
        ("email", "constant", 1), ("strict", "constant", 2)]


def test_one_reference_per_name_and_line_keeps_the_most_telling_kind() -> None:
    # `run` is a call and a plain reference on line 3, `Base` an inheritance and a call on
    # line 5: one reference each, of the higher-priority kind, enclosed where it stands
    source = (b"import os\n\ndef f(job):\n    job.run(job.run)\n"
              b"class C(Base):\n    x = Base()\n")
    refs = [(r.name, r.kind, r.line, r.enclosing)
            for r in extract_tags("m.py", "python", source).references]
    assert [r for r in refs if r[0] == "run"] == [("run", "call", 4, 0)]
    assert ("Base", "inherit", 5, 1) in refs and len([r for r in refs if r[0] == "Base"]) == 2
    assert refs == sorted(refs, key=lambda r: (r[2], r[0], r[1]))


def test_only_patterns_of_one_use_are_read_as_single_references() -> None:
    import tree_sitter as ts
    from tree_sitter_language_pack import get_language

    from ctxopt.parsing.treesitter import _single_references

    text = ("(call function: (identifier) @name.reference.call)\n"
            "(import_statement name: (dotted_name) @name.reference.import)\n"
            "(function_definition name: (identifier) @name.definition.function) @definition.function\n"
            "; a comment naming @name.reference.type sends the pattern above the general way\n"
            "(type (identifier) @name.reference.type)\n")
    query = ts.Query(get_language("python"), text)
    singles = _single_references(query, text.encode())
    assert singles[0] == ("name.reference.call", "call", singles[0][2], False)
    assert singles[1] == ("name.reference.import", "import", singles[1][2], True)
    assert singles[2] is None
    assert singles[3] == ("name.reference.type", "type", singles[3][2], False)


@pytest.mark.parametrize("source", ["import  os.path\n", "import  os.path  # é\n"])
def test_a_single_import_capture_is_read_as_written_without_its_keyword(source: str) -> None:
    """An import pattern of one capture is read the quick way (``_collect``'s single
    references) with the import's text cleaned up as before, in an ASCII file (names
    sliced from its text) and in another (names decoded)."""
    import tree_sitter as ts
    from tree_sitter_language_pack import get_language, get_parser

    from ctxopt.parsing.treesitter import _collect, _single_references

    text = "(import_statement) @name.reference.import\n(identifier) @name.reference.reference\n"
    query = ts.Query(get_language("python"), text)
    data = source.encode()
    tree = get_parser("python").parse(data)
    _, references = _collect("x.py", data, ts.QueryCursor(query).matches(tree.root_node),
                             _single_references(query, text.encode()))
    assert {key: value[:2] for key, value in references.items()} == {
        ("os.path", 1): (1, "import"), ("os", 1): (5, "reference"), ("path", 1): (5, "reference")}


def test_a_single_capture_pattern_may_match_without_its_capture() -> None:
    """Review 32 #7: a one-capture pattern whose capture is in one branch of an alternation
    matches with no captures; reading it raised KeyError, so the file was unparsable."""
    import tree_sitter as ts
    from tree_sitter_language_pack import get_language, get_parser

    from ctxopt.parsing.treesitter import _collect, _single_references

    text = "[(call function: (identifier) @name.reference.call) (pass_statement)]\n"
    query = ts.Query(get_language("python"), text)
    source = b"def f():\n    pass\n    g()\n"
    tree = get_parser("python").parse(source)
    _, references = _collect("x.py", source, ts.QueryCursor(query).matches(tree.root_node),
                             _single_references(query, text.encode()))
    assert [key for key in references] == [("g", 3)]
