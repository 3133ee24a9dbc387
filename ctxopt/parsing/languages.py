"""Language registry and tag-query loading (edge: reads ``grammars/*.scm``).

A file's language comes from its extension (``language_for_path``); ``language_for_file``
also looks at its first bytes, for extensionless scripts (the shebang's interpreter) and
for ``.h`` headers that are C++ rather than C.

Installed, the queries live in ``ctxopt/grammars`` (the wheel maps the top-level
``grammars/`` there); in a source checkout they are read from ``grammars/`` beside the
package. ``grammars_dir`` is the one lookup both use.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..errors import GrammarError

__all__ = ["Language", "LANGUAGES", "language_for_path", "language_for_file", "grammars_dir",
           "load_query", "HEAD_BYTES", "comment_syntax", "comment_opener"]


@dataclass(frozen=True, slots=True)
class Language:
    """A supported language: its name (also the tree-sitter grammar's name in
    tree-sitter-language-pack and the fence tag), its file extensions and its query file."""

    name: str
    extensions: tuple[str, ...]
    query_file: str


LANGUAGES: tuple[Language, ...] = (
    Language("python", (".py", ".pyi", ".ipynb"), "python.scm"),  # notebooks: files.notebook
    Language("go", (".go",), "go.scm"),
    Language("javascript", (".js", ".jsx", ".mjs", ".cjs"), "javascript.scm"),
    Language("typescript", (".ts", ".mts", ".cts"), "typescript.scm"),
    Language("tsx", (".tsx",), "tsx.scm"),
    Language("rust", (".rs",), "rust.scm"),
    Language("java", (".java",), "java.scm"),
    Language("c", (".c", ".h"), "c.scm"),
    Language("cpp", (".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp",
                     ".tpp", ".inl"), "cpp.scm"),
    Language("csharp", (".cs",), "csharp.scm"),
    Language("ruby", (".rb", ".rake", ".gemspec"), "ruby.scm"),
    Language("php", (".php",), "php.scm"),
    Language("kotlin", (".kt", ".kts"), "kotlin.scm"),
    Language("swift", (".swift",), "swift.scm"),
    Language("scala", (".scala", ".sc"), "scala.scm"),
)
_BY_EXTENSION = {ext: lang for lang in LANGUAGES for ext in lang.extensions}
_BY_NAME = {lang.name: lang for lang in LANGUAGES}
# Extensionless files known by their name.
_BY_FILENAME = {"Rakefile": "ruby", "Gemfile": "ruby", "Guardfile": "ruby", "Podfile": "ruby",
                "Vagrantfile": "ruby"}
# Shebang interpreter (version digits stripped) -> language.
_BY_INTERPRETER = {"python": "python", "pypy": "python", "node": "javascript",
                   "nodejs": "javascript", "deno": "typescript", "ts-node": "typescript",
                   "tsx": "typescript", "bun": "javascript", "ruby": "ruby", "php": "php",
                   "swift": "swift", "scala": "scala", "kotlin": "kotlin"}
_SHEBANG = re.compile(rb"^#![ \t]*(\S+)(?:[ \t]+(.*))?")
# A ``.h`` header holding any of these is C++, not C.
_CPP_HEADER = re.compile(rb"^\s*(?:class\s+\w+\s*[:{]|namespace\s+\w*\s*\{|template\s*<"
                         rb"|(?:public|private|protected)\s*:)", re.MULTILINE)
# How much of a file's start ``language_for_file`` needs: a shebang or a header's first class.
HEAD_BYTES = 65536

# Fence tags for files we show but do not parse.
_FENCE_TAGS = {".md": "markdown", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml",
               ".json": "json", ".cfg": "ini", ".ini": "ini", ".sh": "bash", ".rst": "rst"}


# A line comment in each fence language whose comments do not start with ``#``; a
# language without line comments has its block comment, closed on the line; None: a
# language with no comments at all.
_COMMENTS: dict[str, tuple[str, str] | None] = {
    **dict.fromkeys(("c", "cpp", "csharp", "go", "java", "javascript", "kotlin", "php", "rust",
                     "scala", "swift", "tsx", "typescript"), ("//", "")),
    "markdown": ("<!--", " -->"), "rst": ("..", ""), "ini": (";", ""), "json": None}


def comment_syntax(tag: str) -> tuple[str, str] | None:
    """(opener, closer) of a one-line comment in the language of fence tag ``tag``
    (``("//", "")`` for Rust, ``("<!--", " -->")`` for Markdown); ``("#", "")`` for
    Python, shell, TOML, YAML and any tag not known; None for JSON, which has no comments."""
    return _COMMENTS.get(tag, ("#", ""))


def comment_opener(tag: str) -> str | None:
    """What opens a one-line comment in the language of fence tag ``tag``
    (``comment_syntax``), None when it has no comments."""
    syntax = comment_syntax(tag)
    return None if syntax is None else syntax[0]


def language_for_path(path: str) -> Language | None:
    """The language whose extension ``path`` has (case-insensitive), or None."""
    return _BY_EXTENSION.get(os.path.splitext(path)[1].lower())


def _interpreter_language(first_line: bytes) -> str | None:
    match = _SHEBANG.match(first_line)
    if not match:
        return None
    program = match.group(1).rsplit(b"/", 1)[-1]
    if program == b"env" and match.group(2):
        words = [w for w in match.group(2).split() if not w.startswith(b"-")]
        program = words[0].rsplit(b"/", 1)[-1] if words else b""
    name = re.sub(r"[\d.]+$", "", program.decode("ascii", "replace"))
    return _BY_INTERPRETER.get(name)


def language_for_file(path: str, head: bytes) -> Language | None:
    """The language of the file at ``path`` whose content starts with ``head``, or None.

    The extension decides, except that a ``.h`` header with C++ constructs (a class,
    namespace, template or access specifier) is C++. A file without an extension is
    known by its name (``Rakefile``) or by the interpreter on its ``#!`` line
    (``#!/usr/bin/env python3``). Pure; ``head`` may be any prefix of the content
    (``HEAD_BYTES`` is enough).
    """
    lang = language_for_path(path)
    if lang is not None:
        if lang.name == "c" and path.lower().endswith(".h") and _CPP_HEADER.search(head):
            return _BY_NAME["cpp"]
        return lang
    base = path.rsplit("/", 1)[-1]
    if base in _BY_FILENAME:
        return _BY_NAME[_BY_FILENAME[base]]
    if "." in base.lstrip("."):
        return None
    name = _interpreter_language(head.split(b"\n", 1)[0])
    return _BY_NAME[name] if name else None


def fence_tag(path: str) -> str:
    """The Markdown code-fence tag for ``path`` ('' when unknown)."""
    lang = language_for_path(path)
    if lang is not None:
        return lang.name
    return _FENCE_TAGS.get(os.path.splitext(path)[1].lower(), "")


def grammars_dir() -> Path:
    """The directory holding the ``.scm`` tag queries.

    Raises
    ------
    GrammarError
        When neither the installed copy nor the source checkout's copy exists.
    """
    package = Path(__file__).resolve().parent.parent  # ctxopt/, above parsing/
    installed, checkout = package / "grammars", package.parent / "grammars"
    for candidate in (installed, checkout):
        if candidate.is_dir():
            return candidate
    raise GrammarError(f"tag queries not found in {installed} or {checkout}")


@cache
def load_query(language: str) -> str:
    """The tag query text for ``language``, with ``; inherits: other`` lines expanded.

    ``other`` is a language, whose query is read the same way, or the stem of a query
    file that holds patterns several languages share (``ecma.scm``: JavaScript and
    TypeScript). The inherited text comes before the file's own patterns.

    Raises
    ------
    GrammarError
        For an unknown language, a missing query file, or inheritance in a cycle.
    """
    lang = _BY_NAME.get(language)
    if lang is None:
        raise GrammarError(f"no tag query for language {language!r}")
    return _query_text(lang.query_file, ())


def _query_text(file_name: str, chain: tuple[str, ...]) -> str:
    """The text of the query file ``file_name`` after the files it inherits from
    (``chain``: the files inheriting from it, to catch a cycle)."""
    if file_name in chain:
        raise GrammarError(f"tag queries inherit in a cycle: {' -> '.join(chain + (file_name,))}")
    path = grammars_dir() / file_name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GrammarError(f"cannot read tag query {path}: {exc.strerror}") from exc
    parts = []
    for line in text.splitlines():
        if line.startswith("; inherits:"):
            for parent in line.split(":", 1)[1].split(","):
                name = parent.strip()
                inherited = _BY_NAME[name].query_file if name in _BY_NAME else f"{name}.scm"
                parts.append(_query_text(inherited, chain + (file_name,)))
    parts.append(text)
    return "\n".join(parts)
