"""Tree-sitter adapter (the only module that imports ``tree_sitter``).

``extract_tags(path, language, source)`` parses one file and runs the language's tag
query. Capture names follow the contract in ``grammars/README.md``:
``@definition.<kind>`` spans a definition, ``@name.definition.<kind>`` is its name,
``@scope`` (optional) names the type a method is attached to out of line (Go receivers),
and ``@name.reference.<kind>`` is a use. Tree-sitter's 0-based rows become 1-indexed
lines here, once.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from operator import itemgetter
from typing import Any, cast

import tree_sitter as ts
from tree_sitter_language_pack import get_language, get_parser

from ..errors import GrammarError, ParseCancelled
from .kinds import CALLABLE_KINDS, IMPORT_KINDS, QUALIFIER_KINDS, REFERENCE_KINDS, TYPE_KINDS
from .languages import load_query
from .macros import blank_macros
from .preprocessor import first_branches
from ..model import Definition, FileTags, Reference

__all__ = ["extract_tags", "load_language", "signature_of", "ParseCancelled"]

# When two reference captures hit the same name on the same line, keep the more telling one.
_REFERENCE_PRIORITY = {kind: rank for rank, kind in enumerate(REFERENCE_KINDS)}
# Separators of qualified names in the languages' own syntax (C++ and Rust ``::``, PHP ``\``).
_QUALIFIER = re.compile(r"::|\\|\.")
# A line of spaces and tabs inside a signature (not its last)
_SPACES_LINE = re.compile(r"\n[ \t]*(?=\n)")
# A definition with no body node keeps at most this many lines as its signature.
_SHORT_DEFINITION_LINES = 8


# A reference pattern whose one capture is a use: (capture name, kind, rank, whether it
# is an import, whose text is cleaned up).
_Single = tuple[str, str, int, bool]


@cache
def _query(language: str) -> tuple[ts.Query, Any, list[_Single | None]]:
    """The language's tag query, its parser, and ``_single_references`` of its patterns."""
    try:
        lang = get_language(language)  # type: ignore[arg-type]
        text = load_query(language)
        query = ts.Query(lang, text)
        return query, get_parser(language), _single_references(query, text.encode())  # type: ignore[arg-type]
    except (ts.QueryError, LookupError, ValueError) as exc:
        raise GrammarError(f"tag query for {language} does not compile: {exc}") from exc


# A capture's name in a query's text (a name in a comment or a string too: that only
# sends its pattern through ``_collect``'s general path).
_CAPTURE = re.compile(rb"@([^\s()\[\]\"]+)")


def _single_references(query: ts.Query, text: bytes) -> list[_Single | None]:
    """Per pattern of ``query`` (whose text is ``text``): (capture, kind, rank, is an
    import) when the pattern's one capture is a ``@name.reference.<kind>``, so that each
    of its matches is one use (most matches: ``_collect`` reads them without looking at
    the captures found), else None."""
    singles: list[_Single | None] = []
    for pattern in range(query.pattern_count):
        names = set(_CAPTURE.findall(text[query.start_byte_for_pattern(pattern):
                                          query.end_byte_for_pattern(pattern)]))
        single = None
        if len(names) == 1:
            name = names.pop().decode()
            role, kind = _role(name)
            if role in (_REFERENCE, _IMPORT):
                single = (name, kind, _REFERENCE_PRIORITY.get(kind, 9), role == _IMPORT)
        singles.append(single)
    return singles


def load_language(language: str) -> None:
    """Load ``language``'s grammar and compile its tag query, once per process (the C++
    query takes about 1.5 s). Raises ``GrammarError`` when the query does not compile."""
    _query(language)


def _strip_type_arguments(text: str) -> str:
    """``Cache<T>::get`` -> ``Cache::get``, ``Cache[T]`` -> ``Cache`` (nested brackets too)."""
    previous = None
    while previous != text:
        previous = text
        text = re.sub(r"<[^<>]*>|\[[^\[\]]*\]", "", text)
    return text


def _dotted(scope: str) -> str:
    """A scope as written (``a::B<T>``, ``App\\Models``, ``*Storage``) joined with ``.``."""
    scope = _strip_type_arguments(scope)
    parts = [p.strip(" *&?!") for p in _QUALIFIER.split(scope)]
    return ".".join(p for p in parts if p)


def _split_qualified(name: str) -> tuple[str, str]:
    """``a::B::get`` -> (``a.B``, ``get``), ``A.B`` -> (``A``, ``B``), ``Cache<T>`` ->
    ('', ``Cache``); ``B::~B`` keeps the ``~`` and ``B::operator std::string`` its operator."""
    operator = re.search(r"\boperator\b", name)
    head, tail = (name[:operator.start()], name[operator.start():]) if operator else (name, "")
    if tail and not re.match(r"operator\s*\(\s*\)", tail):
        tail = tail.split("(", 1)[0]  # a conversion's node holds its `() const`
    stripped = _strip_type_arguments(head)
    separators = list(_QUALIFIER.finditer(stripped))
    if not separators:
        return "", (stripped + " ".join(tail.split())).strip() or name
    last = separators[-1]
    return (_dotted(stripped[:last.start()]),
            (stripped[last.end():] + " ".join(tail.split())).strip())


def module_name(path: str) -> str:
    """The name a module is imported by: the file's stem (``src/shapes.ts`` -> ``shapes``),
    or its directory's name for an ``index`` file (``Button/index.tsx`` -> ``Button``).
    Anonymous default exports are named so (``export default () => 0``)."""
    parts = [p for p in re.split(r"[\\/]", path) if p]
    stem = parts[-1].split(".", 1)[0] if parts else ""
    if stem == "index" and len(parts) > 1:
        return parts[-2]
    return stem or path


_IMPORT_KEYWORD = re.compile(r"^\s*import\s+(static\s+)?")
_BLANKS = re.compile(r"\s+")


def _import_name(text: str) -> str:
    """An import as written, without quotes, keyword or semicolon (``import a.b;`` -> ``a.b``)."""
    text = _IMPORT_KEYWORD.sub("", text).rstrip("; \n")
    return _BLANKS.sub("", text).strip("\"'`")


def _end_line(node: ts.Node) -> int:
    row, column = node.end_point
    if column == 0 and row > node.start_point[0]:
        return row  # the node ends with a newline: its last line is the one before
    return row + 1


def _text(node: ts.Node, source: bytes) -> str:
    """A node's text, sliced from ``source``: ``Node.text`` is slow on a tree parsed
    through a read callback (it reads the bytes back through the callback)."""
    return source[node.start_byte:node.end_byte].decode("utf-8", "replace")


def _line_count(source: bytes) -> int:
    if not source:
        return 0
    return source.count(b"\n") + (0 if source.endswith(b"\n") else 1)


# Body nodes of a grammar that names no ``body`` field (Kotlin's).
_BODY_TYPES = frozenset({"class_body", "enum_class_body", "function_body"})


def _find_body(node: ts.Node) -> ts.Node | None:
    """The node's body (field ``body``, or a child of ``_BODY_TYPES``), looking through
    wrappers such as decorators, exports and variable declarators, breadth first and at
    most three levels down."""
    frontier = [node]
    for _ in range(4):
        next_frontier = []
        for current in frontier:
            body = current.child_by_field_name("body")
            if body is not None:
                return body
            children = current.named_children
            for child in children:
                if child.type in _BODY_TYPES:
                    return child
            next_frontier.extend(children)
        frontier = next_frontier
    return None


def _python_docstring(body: ts.Node, source: bytes) -> str | None:
    """The first line of the docstring opening ``body``, re-quoted, or None."""
    first = body.named_child(0) if body.named_child_count else None
    if first is not None and first.type == "expression_statement" and first.named_child_count:
        first = first.named_child(0)
    if first is None or first.type != "string":
        return None
    text = source[first.start_byte:first.end_byte].decode("utf-8", "replace").strip()
    # A prefix of r, b, u, f, then the opening quote, the text, the closing quote: what
    # the pattern (?is)^([rbuf]*)("""|'''|"|')(.*?)(\2)?$ matched, without its
    # backtracking (long docstrings made it slow).
    start = 0
    while start < len(text) and text[start] in "rbufRBUF":
        start += 1
    prefix = text[:start]
    for quote in ('"""', "'''", '"', "'"):
        if text.startswith(quote, start):
            break
    else:
        return None
    inner = text[start + len(quote):]
    for _ in range(2):  # the closing quote (the pattern's group 4), then once more
        inner = inner.removesuffix(quote)
    lines: list[str] = []  # the first two non-blank lines
    for line in inner.splitlines():
        if line.strip():
            lines.append(line.strip())
            if len(lines) == 2:
                break
    if not lines:
        return None
    more = " ..." if len(lines) > 1 else ""
    return f"{prefix}{quote}{lines[0]}{more}{quote}"


def signature_of(node: ts.Node, source: bytes, language: str, start: int | None = None) -> str:
    """The header of a definition with its body replaced by a placeholder, so that it
    reads as code of its language.

    Python keeps the docstring's first line and puts ``...`` where the body was; a brace
    body becomes ``{ ... }``, in C and C++ followed by what closes the definition on the
    body's last line (``typedef struct { ... } T;``; the ``;`` after a class, struct, union
    or enum), on a line of its own below a header that ends in a ``where`` clause's comma,
    as rustfmt writes it; a Ruby body becomes ``... end``. The header is everything from the
    definition's first byte to its body's first byte, so decorators, modifiers and
    multi-line parameter lists are kept whole. A definition whose body is not a block (a
    Rust tuple struct or variant, ``B(u8)``) or that has no body (a Go struct type, a field,
    a type alias) is shown in full when short, else by its first line and ``...``, with the
    bracket that line opens closed (``type S struct { ... }``). ``start`` (a byte offset,
    the node's start by default) is where the header begins: at the first decorator or
    attribute that precedes the node.
    """
    body = _find_body(node)
    start = node.start_byte if start is None else start
    line_start = source.rfind(b"\n", 0, start) + 1
    indent = source[line_start:start]
    indent = indent if not indent.strip() else b""
    lead = indent.decode("utf-8", "replace")
    body_text = b"" if body is None else source[body.start_byte:body.start_byte + 1]
    if body is None or body.start_byte <= start or body.type in _LIST_BODIES:
        text = source[start:node.end_byte].decode("utf-8", "replace").rstrip()
        lines = text.splitlines()
        if len(lines) <= _SHORT_DEFINITION_LINES:
            return lead + text
        return lead + _first_line_cut(lines[0].rstrip())
    header = (indent + source[start:body.start_byte]).decode("utf-8", "replace").rstrip()
    if language == "python":
        body_line_start = source.rfind(b"\n", 0, body.start_byte) + 1
        body_indent = source[body_line_start:body.start_byte].decode("utf-8", "replace")
        if body_indent.strip():  # body on the header's line: `def f(): return 1`
            body_indent = lead + "    "
        lines = [header]
        docstring = _python_docstring(body, source)
        if docstring:
            lines.append(body_indent + docstring)
        lines.append(body_indent + "...")
        return "\n".join(lines)
    if body_text == b"{":
        if "\n" in header and header.endswith(","):  # `where\n    T: Clone,`
            return f"{header}\n{lead}{{ ... }}{_closing(node, body, source, language)}"
        return f"{header} {{ ... }}{_closing(node, body, source, language)}"
    if language == "ruby":  # a Ruby body ends at `end`: `def m(a) ... end`
        return header + " ... end"
    return header + " ..."


# Bodies that are a list, not a block (a Rust tuple struct's or variant's fields): the
# definition is shown whole when short, as one without a body is.
_LIST_BODIES = frozenset(("ordered_field_declaration_list",))
_BRACKETS = {"{": "}", "(": ")", "[": "]"}
# C and C++ definitions whose declaration ends in a `;` after the body's brace.
_C_TYPE_NODES = frozenset(("class_specifier", "struct_specifier", "union_specifier",
                           "enum_specifier"))


def _first_line_cut(line: str) -> str:
    """A long definition's first line with ``...`` for the rest, closing the bracket the
    line ends by opening (``type S struct {`` -> ``type S struct { ... }``)."""
    closer = _BRACKETS.get(line[-1:])
    return f"{line} ... {closer}" if closer else f"{line} ..."


def _closing(node: ts.Node, body: ts.Node, source: bytes, language: str) -> str:
    """What follows a C or C++ definition's brace body on its last line and ends it: the
    rest of the node there (`` T;`` of a ``typedef struct {...} T;``), and the ``;`` that
    ends a class, struct, union or enum declaration. Other languages need none (a
    JavaScript ``const f = () => { ... }`` is whole without its ``;``)."""
    if language not in ("c", "cpp"):
        return ""
    rest = source[body.end_byte:node.end_byte].decode("utf-8", "replace")
    tail = rest.rstrip() if "\n" not in rest.strip() and len(rest.strip()) <= 80 else ""
    if node.type in _C_TYPE_NODES and not tail.endswith(";"):
        after = source[node.end_byte:node.end_byte + 81].split(b"\n", 1)[0].lstrip()
        if after.startswith(b";"):
            tail += ";"
    return tail


# What a capture is, by its name (see the module docstring).
_DEFINITION, _REFERENCE, _IMPORT, _OTHER = range(4)


def _role(capture: str) -> tuple[int, str]:
    """(role, kind) of a capture name: ``name.definition.<kind>``, ``name.reference.<kind>``
    (``_IMPORT`` for kind ``import``, whose text is cleaned up), else ``_OTHER``."""
    if capture.startswith("name.definition."):
        return _DEFINITION, capture[len("name.definition."):]
    if capture.startswith("name.reference."):
        kind = capture[len("name.reference."):]
        return (_IMPORT if kind == "import" else _REFERENCE), kind
    return _OTHER, ""


# Source is handed to the parser in chunks of this many bytes when it can be cancelled.
_CHUNK_BYTES = 65536


def _parse(parser: Any, source: bytes, should_stop: Callable[[], bool] | None) -> ts.Tree:
    if should_stop is None:
        return parser.parse(source)
    # tree-sitter calls progress_callback only when it reads through a callback
    try:
        return parser.parse(lambda byte, _point: source[byte:byte + _CHUNK_BYTES],
                            progress_callback=lambda _offset, _has_error: should_stop())
    except ValueError as exc:  # "Parsing failed": the callback said stop
        parser.reset()  # else the next parse resumes this one
        raise ParseCancelled(str(exc)) from exc


def _error_rows(root: ts.Node) -> list[tuple[int, int]]:
    """The first and last 0-based rows of each ERROR or MISSING node under ``root`` (an
    ERROR node counts once, with what it holds)."""
    rows: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            rows.append((node.start_point[0], node.end_point[0]))
        else:
            stack.extend(child for child in node.children if child.has_error)
    return rows


def _c_blanked(source: bytes) -> bytes:
    return blank_macros(first_branches(source))


# An error this many lines from a blanked line may be the blanked text's doing.
_BLANKED_REACH = 3
# Languages whose parse errors often come from text the grammar cannot read, the functions
# that blank that text for a second parse (same offsets), each blanking more than the one
# before it and tried only for an error near what it adds, and whether the definitions'
# text is then read from the blanked source: C#'s dropped ``#else`` branches are no code,
# while a C or C++ macro is, so its signatures keep it. C and C++ blank macros alone first:
# tree-sitter-c reads most ``#ifdef`` branches, whose ``#else`` definitions would be lost.
_SECOND_PARSES: dict[str, tuple[tuple[Callable[[bytes], bytes], ...], bool]] = {
    "csharp": ((first_branches,), True), "c": ((blank_macros, _c_blanked), False),
    "cpp": ((blank_macros, _c_blanked), False)}


def _changed_rows(source: bytes, blanked: bytes) -> list[int]:
    """The 0-based rows where ``blanked`` differs from ``source`` (same length)."""
    return [row for row, (a, b) in enumerate(zip(source.split(b"\n"), blanked.split(b"\n")))
            if a != b]


def _row_count(spans: list[tuple[int, int]]) -> int:
    return sum(last - first + 1 for first, last in spans)


def _second_parse(parser: Any, errors: list[tuple[int, int]], before: bytes, blanked: bytes,
                  should_stop: Callable[[], bool] | None
                  ) -> tuple[ts.Tree, list[tuple[int, int]]] | None:
    """(the tree of ``blanked``, its ``_error_rows``) when one of ``errors`` (the rows of
    ``before``'s tree in errors) lies near a line where ``blanked`` differs from ``before``
    and the new tree has fewer lines in errors; else None (an unrelated error keeps what
    the blanking drops, such as C#'s ``#else`` members). Lines, not errors, are counted:
    one ERROR node can swallow a whole class, several small ones cannot."""
    changed = _changed_rows(before, blanked)
    if not any(bisect.bisect_left(changed, first - _BLANKED_REACH)
               < bisect.bisect_right(changed, last + _BLANKED_REACH)
               for first, last in errors):
        return None
    second = _parse(parser, blanked, should_stop)
    second_errors = _error_rows(second.root_node)
    if _row_count(second_errors) >= _row_count(errors):
        return None
    return second, second_errors


# Nodes that belong to the definition after them but lie outside its node: TypeScript and
# JavaScript decorators, Rust attributes, a C++ template's parameter list. (Python, Java, C#,
# Kotlin, Swift, PHP and Scala put decorators, annotations and attributes inside the node.)
_LEADING_TYPES = frozenset({"decorator", "attribute_item", "template_parameter_list"})
# Nodes whose children before the definition are its own, and whether the signature starts
# with them too: all do (`template <T>`, `@dec`, and `export`, `export default`: a
# signature says what a module exports, as Java's `public` and Rust's `pub` say).
_WRAPPER_TYPES = {"export_statement": True, "decorated_definition": True,
                  "template_declaration": True}


_WHITESPACE = frozenset(b" \t\r\n\f\v")
# First characters of the lines a comment can end on (`//`, `#`, `/*`, ` * ...`, `--`,
# Ruby's `=end`), besides any line ending a block comment (`*/`): a cheap filter before
# the tree is searched.
_COMMENT_STARTS = frozenset({b"/", b"#", b"*", b"-", b"="})


def _is_doc_comment(comment: ts.Node, below_row: int, source: bytes) -> bool:
    """A comment alone on its lines that ends on the line above ``below_row`` (0-based)."""
    if "comment" not in comment.type:
        return False
    row, column = comment.end_point
    last_row = row - 1 if column == 0 and row > comment.start_point[0] else row
    line_start = source.rfind(b"\n", 0, comment.start_byte) + 1
    return (last_row == below_row - 1 and not source[line_start:comment.start_byte].strip()
            and not source.startswith(b"#!", comment.start_byte))


def _decorated(node: ts.Node) -> ts.Node:
    """The first decorator or attribute before ``node`` (through wrappers such as
    ``export`` and ``template <T>``, comments between them skipped), or ``node``: where
    the signature starts."""
    current = decorated = node
    while True:
        sibling = current.prev_named_sibling
        while sibling is not None and (sibling.type in _LEADING_TYPES or "comment" in sibling.type):
            if sibling.type in _LEADING_TYPES:
                decorated = sibling
            sibling = sibling.prev_named_sibling
        parent = current.parent
        if sibling is not None or parent is None or parent.type not in _WRAPPER_TYPES:
            return decorated
        current = parent
        if _WRAPPER_TYPES[parent.type]:
            decorated = parent


def _comment_above(start: ts.Node, root: ts.Node, source: bytes,
                   definition_nodes: set[tuple[int, int]]) -> ts.Node | None:
    """The comment directly above ``start`` (see ``_leading``), or None. Tree-sitter hangs
    comments on whatever node it is building (Ruby's class, Kotlin's package header), so
    the comment is found by position, not as a sibling; one inside another definition
    (the last lines of the previous function's body) is that definition's."""
    end = start.start_byte
    while end > 0 and source[end - 1] in _WHITESPACE:
        end -= 1  # (not `source[:start].rstrip()`: a copy per definition is quadratic)
    if end == 0 or source.count(b"\n", end, start.start_byte) > 1:
        return None  # nothing above, or a blank line between
    line_start = source.rfind(b"\n", 0, end) + 1
    if source[line_start:end].lstrip()[:1] not in _COMMENT_STARTS and source[end - 2:end] != b"*/":
        return None  # a line of code above (most definitions): no need to search the tree
    comment: ts.Node | None = root.descendant_for_byte_range(end - 1, end)
    while comment is not None and "comment" not in comment.type:
        comment = comment.parent
    while comment is not None and comment.parent is not None and "comment" in comment.parent.type:
        comment = comment.parent  # Rust's `///` is a line_comment holding a doc_comment
    if comment is None or not _is_doc_comment(comment, start.start_point[0], source):
        return None
    ancestor = comment.parent
    while ancestor is not None and not (ancestor.start_byte <= start.start_byte
                                        and ancestor.end_byte >= start.end_byte):
        if (ancestor.start_byte, ancestor.end_byte) in definition_nodes:
            return None
        ancestor = ancestor.parent
    return comment


def _leading(node: ts.Node, root: ts.Node, source: bytes,
             definition_nodes: set[tuple[int, int]], language: str = ""
             ) -> tuple[ts.Node, ts.Node]:
    """(first decorator or attribute, first doc comment) of a definition: the nodes its
    signature and its range start at (``node`` itself when there is none).

    The rule, the same in every language: a definition's decorators, annotations and
    attributes are part of it, and so are the comments directly above it (or above its
    first decorator), each on lines of its own, up to the first blank line or code line
    (``///``, ``/** */``, ``//``, ``#`` alike). A trailing comment of the line above
    (``x = 1  # note``) is not, nor is a ``#!`` line. A PHP docblock holding an
    annotation that marks a test (``/** @test */``, ``_DOC_TEST_TAG``) is an attribute:
    the signature starts at it, so that ``rules.test_definitions`` reads it (review 35:
    PHPUnit's docblock form, as common as ``#[Test]``, marked no test).
    """
    decorated = documented = _decorated(node)
    if node.parent is not None and node.parent.type == "export_statement" \
            and node.parent.start_byte < documented.start_byte:
        documented = node.parent  # `export const x`: the range starts at `export`
    while (comment := _comment_above(documented, root, source, definition_nodes)) is not None:
        documented = comment
        if language in _DOC_ANNOTATED and _DOC_TEST_TAG.match(source, comment.start_byte, comment.end_byte):
            decorated = comment
    return decorated, documented


# Languages whose doc comments may hold annotations that mark a test (PHPUnit's ``@test``).
_DOC_ANNOTATED = frozenset({"php"})
# A docblock holding PHPUnit's ``@test`` annotation (not ``@testdox``, ``@tested``).
_DOC_TEST_TAG = re.compile(rb"/\*\*.*?(?<![\w@-])@test\b", re.DOTALL)


def _extents(nodes: list[ts.Node], kinds: list[str], source: bytes) -> list[tuple[int, int]]:
    """(end byte, 1-indexed end line) of each definition.

    A namespace declared without a body (C# ``namespace A.B;``, PHP ``namespace App;``)
    holds everything after it: it runs to the next such declaration or the end of file.
    """
    extents = [(node.end_byte, _end_line(node)) for node in nodes]
    open_ended = [i for i, (node, kind) in enumerate(zip(nodes, kinds))
                  if kind == "namespace" and node.child_by_field_name("body") is None]
    for position, i in enumerate(open_ended):
        if position + 1 < len(open_ended):
            following = nodes[open_ended[position + 1]]
            extents[i] = (following.start_byte, max(following.start_point[0], _end_line(nodes[i])))
        else:
            extents[i] = (len(source), max(_line_count(source), _end_line(nodes[i])))
    return extents


def extract_tags(path: str, language: str, source: bytes, *,
                 should_stop: Callable[[], bool] | None = None,
                 reference_tuples: bool = False) -> FileTags:
    """Parse ``source`` and return its definitions and references.

    Parameters
    ----------
    path : str
        Repository-relative path, stored in the result as given.
    language : str
        A name from ``languages.LANGUAGES``.
    source : bytes
        The file's content.
    should_stop : callable, optional
        Polled while parsing (every few hundred bytes); returning True cancels.
    reference_tuples : bool
        Give the references as plain ``(name, kind, line, enclosing)`` tuples rather than
        ``Reference`` objects (same order; the indexer stores them so, and saves the time).

    Returns
    -------
    FileTags
        Definitions sorted by position, each with its kind, qualified name, 1-indexed
        inclusive lines and signature; references sorted by line, each with the index of
        its innermost enclosing definition.

    Raises
    ------
    GrammarError
        When the language's query does not compile.
    ParseCancelled
        When ``should_stop`` returned True.
    """
    query, parser, singles = _query(language)
    tree = _parse(parser, source, should_stop)
    blanked = False
    if language in _SECOND_PARSES:
        blanks, read_blanked = _SECOND_PARSES[language]
        text = before = source
        errors = _error_rows(tree.root_node) if tree.root_node.has_error else []
        for blank in blanks:
            if not errors:
                break
            blanked_text = blank(source)
            second = _second_parse(parser, errors, before, blanked_text, should_stop)
            before = blanked_text
            if second:  # a directive or macro the grammar misread: the blanked text parses better
                (tree, errors), text = second, blanked_text
        if read_blanked and text is not source:
            source, blanked = text, True
    definitions, references = _collect(path, source, ts.QueryCursor(query).matches(tree.root_node),
                                       singles)
    result, spans, name_lines = _without_qualifiers(
        *_nest(definitions, tree.root_node, source, language))
    if blanked:  # (a header's directive lines are spaces now)
        result = [replace(d, signature=_SPACES_LINE.sub("", d.signature)) for d in result]
    refs = _enclosed(references, result, spans, name_lines)
    return FileTags(path=path, language=language, line_count=_line_count(source),
                    definitions=tuple(result),
                    references=cast("tuple[Reference, ...]", tuple(refs)) if reference_tuples
                    else tuple(Reference(name, kind, line, enclosing)
                               for name, kind, line, enclosing in refs))


# A captured definition: (definition node, name, kind, scope, query pattern, name's line)
_Captured = tuple[ts.Node, str, str, "str | None", int, int]


def _collect(path: str, source: bytes, matches: Any, singles: list[_Single | None]
             ) -> tuple[dict[tuple[int, int], _Captured], dict[tuple[str, int], tuple[int, str, int]]]:
    """The query's matches read into (definitions by their name's byte span, references:
    (name, line) -> (rank, kind, start byte) of the most telling capture there);
    ``singles``: the query's ``_single_references``."""
    definitions: dict[tuple[int, int], _Captured] = {}
    references: dict[tuple[str, int], tuple[int, str, int]] = {}
    not_names: set[tuple[int, int]] = set()
    roles: dict[str, tuple[int, str, int]] = {}  # capture name -> (role, kind, rank), see _role
    priority = _REFERENCE_PRIORITY

    def role_of(capture: str) -> tuple[int, str, int]:
        role = roles.get(capture)
        if role is None:
            role = roles[capture] = (*_role(capture), priority.get(_role(capture)[1], 9))
        return role

    def record(nodes: list[ts.Node], kind: str, rank: int, is_import: bool) -> None:
        """Keep, per (name, line), the most telling reference capture."""
        for node in nodes:
            start = node.start_byte
            name = source[start:node.end_byte].decode("utf-8", "replace")
            if is_import:
                name = _import_name(name)
            elif "::" in name or "<" in name:  # captured with its qualifier: `a::b::c`
                name = _split_qualified(name)[1]
            if not name:
                continue
            key = (name, node.start_point[0] + 1)
            known_ref = references.get(key)
            if known_ref is None or rank < known_ref[0]:
                references[key] = (rank, kind, start)

    keep = references.setdefault
    # an ASCII file's names are sliced from its text, without decoding each
    text = source.decode("ascii") if source.isascii() else None
    for pattern, captures in matches:
        single = singles[pattern]
        if single is not None:  # most matches: one use (``record``, inlined; a sixth faster
            capture, kind, rank, is_import = single  # than finding the one capture in each match)
            for node in captures.get(capture, ()):  # (an optional capture may be absent)
                start = node.start_byte
                if text is not None:
                    name = text[start:node.end_byte]
                else:
                    name = source[start:node.end_byte].decode("utf-8", "replace")
                if is_import:
                    name = _import_name(name)
                    if not name:
                        continue
                elif "::" in name or "<" in name:
                    name = _split_qualified(name)[1]
                    if not name:
                        continue
                elif not name:
                    continue
                found = (rank, kind, start)
                at = (name, node.start_point[0] + 1)
                if rank < keep(at, found)[0]:  # (one lookup for a new name and line)
                    references[at] = found
            continue
        if "not_a_name" in captures:
            not_names.update((n.start_byte, n.end_byte) for n in captures["not_a_name"])
        scope_nodes = captures.get("scope")
        scope = _dotted(_text(scope_nodes[0], source)) if scope_nodes else None
        for capture, nodes in captures.items():
            role = role_of(capture)
            if role[0] == _DEFINITION:
                _keep_definition(definitions, path, source, captures, nodes, role[1], scope,
                                 pattern)
            elif role[0] != _OTHER:
                record(nodes, role[1], role[2], role[0] == _IMPORT)
    for key in not_names:
        definitions.pop(key, None)
    return definitions, references


def _keep_definition(definitions: dict[tuple[int, int], _Captured], path: str, source: bytes,
                     captures: dict[str, list[ts.Node]], nodes: list[ts.Node], kind: str,
                     scope: str | None, pattern: int) -> None:
    """Record one ``@name.definition.<kind>`` capture, keeping the widest span for one
    name (a decorated definition over the bare one); on a tie, the pattern written first
    in the query."""
    outer = captures.get("definition." + kind) or nodes
    name_node, def_node = nodes[0], outer[0]
    key = (name_node.start_byte, name_node.end_byte)
    known = definitions.get(key)
    width = def_node.end_byte - def_node.start_byte
    if known is not None and (width, -pattern) <= (
            known[0].end_byte - known[0].start_byte, -known[4]):
        return
    if name_node.type == "default":
        name = module_name(path)
    elif name_node.type == "companion":  # Kotlin's unnamed companion object
        name = "Companion"
    else:
        name = _text(name_node, source)
    name_scope = scope
    if _QUALIFIER.search(name) or "<" in name or name.startswith("operator"):
        prefix, name = _split_qualified(name)
        name_scope = ".".join(p for p in (scope, prefix) if p) or None
    if name.isupper() and (kind == "variable" or (kind == "field" and len(name) > 1)):
        kind = "constant"
    definitions[key] = (def_node, name, kind, name_scope, pattern, name_node.start_point[0] + 1)


def _nest(definitions: dict[tuple[int, int], _Captured], root: ts.Node, source: bytes,
          language: str) -> tuple[list[Definition], list[tuple[int, int]], list[int]]:
    """The definitions in order of position, each with its parent, qualified name, lines
    and signature; their byte spans; their names' lines."""
    definition_nodes = {(d[0].start_byte, d[0].end_byte) for d in definitions.values()}
    leading = {key: _leading(d[0], root, source, definition_nodes, language)
               for key, d in definitions.items()}
    # (on one node a `type` first: it holds nothing, the struct it names holds the fields)
    keys = sorted(definitions, key=lambda k: (leading[k][1].start_byte, -definitions[k][0].end_byte,
                                              definitions[k][2] != "type"))
    ordered = [definitions[k] for k in keys]
    extents = _extents([d[0] for d in ordered], [d[2] for d in ordered], source)
    result: list[Definition] = []
    spans: list[tuple[int, int]] = []
    name_lines: list[int] = []
    stack: list[int] = []  # indexes of open definitions, innermost last
    for key, (node, name, kind, scope, _, name_line), (end_byte, end_line) in zip(keys, ordered, extents):
        decorated, documented = leading[key]
        start_byte = documented.start_byte
        while stack and spans[stack[-1]][1] <= start_byte:
            stack.pop()
        parent = stack[-1] if stack else None
        if parent is not None and spans[parent][1] < end_byte:
            parent = None  # overlapping but not nested: treat as top level
        if parent is not None and spans[parent] == (start_byte, end_byte):
            parent = result[parent].parent  # `case read, write`: one node, two names
        elif (parent is not None and spans[parent][0] == start_byte
              and result[parent].kind in CALLABLE_KINDS):
            # in a function's return type, not its body: `struct S {...} f() {...}`, or a
            # C++ class tree-sitter could not close, read as the type of the next function
            parent = result[parent].parent
        if kind == "function" and (scope is not None or (
                parent is not None and result[parent].kind in TYPE_KINDS)):
            kind = "method"
        qualified = ".".join(
            part for part in (result[parent].qualified_name if parent is not None else None,
                              scope, name) if part)
        result.append(Definition(
            name=name, kind=kind, qualified_name=qualified,
            start_line=documented.start_point[0] + 1, end_line=end_line,
            signature=signature_of(node, source, language, decorated.start_byte), parent=parent,
        ))
        spans.append((start_byte, end_byte))
        name_lines.append(name_line)
        if kind != "type":  # an alias has no members (`typedef struct s {...} s_t` is two)
            stack.append(len(result) - 1)
    return result, spans, name_lines


def _without_qualifiers(result: list[Definition], spans: list[tuple[int, int]],
                        name_lines: list[int]
                        ) -> tuple[list[Definition], list[tuple[int, int]], list[int]]:
    """``_nest``'s lists without the definitions of ``QUALIFIER_KINDS`` (namespaces), whose
    names stay in their members' qualified names; each parent is then the nearest kept one."""
    if not any(d.kind in QUALIFIER_KINDS for d in result):
        return result, spans, name_lines
    kept: list[int] = []
    new_index: dict[int, int | None] = {}
    for i, definition in enumerate(result):
        parent = definition.parent
        new_parent = None if parent is None else new_index[parent]
        if definition.kind in QUALIFIER_KINDS:
            new_index[i] = new_parent
            continue
        new_index[i] = len(kept)
        kept.append(i)
        if new_parent != parent:
            result[i] = replace(definition, parent=new_parent)
    return ([result[i] for i in kept], [spans[i] for i in kept], [name_lines[i] for i in kept])


def _enclosed(references: dict[tuple[str, int], tuple[int, str, int]],
              result: list[Definition], spans: list[tuple[int, int]], name_lines: list[int]
              ) -> list[tuple[str, str, int, int | None]]:
    """The references as (name, kind, line, innermost enclosing definition) sorted by
    line and name (one reference per name and line), without a definition's own name."""
    starts = [s for s, _ in spans]
    ends = [e for _, e in spans]
    parents = [-1 if d.parent is None else d.parent for d in result]
    names = [d.name for d in result]
    refs: list[tuple[str, str, int, int | None]] = []
    append = refs.append
    last_starting = bisect.bisect_right
    for (name, line), (_, kind, byte) in references.items():
        # the innermost definition around the byte: the last one starting at or before
        # it, else the nearest of its enclosing ones that ends after it (they all start
        # before it)
        i = last_starting(starts, byte) - 1
        while i >= 0 and byte >= ends[i]:
            i = parents[i]
        if i < 0:
            append((name, kind, line, None))
        elif names[i] != name or name_lines[i] != line or kind in IMPORT_KINDS:
            append((name, kind, line, i))
        # else the definition's own name (e.g. a Go type_identifier): not a use of it
    refs.sort(key=itemgetter(2, 0))  # by line, name (one reference per name and line)
    return refs
