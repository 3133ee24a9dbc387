"""Every tag query compiles, and the installed package carries the queries."""
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ctxopt.errors import GrammarError
from ctxopt.parsing.languages import (LANGUAGES, grammars_dir, language_for_file,
                                       language_for_path, load_query)
from ctxopt.parsing.treesitter import extract_tags

PROJECT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("language", [lang.name for lang in LANGUAGES])
def test_query_compiles(language: str) -> None:
    assert "@name.definition." in load_query(language)
    extract_tags("x", language, b"")  # compiles the query against the grammar


def test_tsx_query_inherits_typescript() -> None:
    assert load_query("typescript") in load_query("tsx")


def test_javascript_and_typescript_share_the_ecma_patterns_written_once() -> None:
    shared = (grammars_dir() / "ecma.scm").read_text(encoding="utf-8")
    for language in ("javascript", "typescript", "tsx"):
        assert shared in load_query(language)
    blocks = ["\n".join(line for line in block.splitlines() if not line.startswith(";"))
              for block in shared.split("\n\n")[1:]]  # after the header comment
    for own in ("javascript.scm", "typescript.scm"):
        text = (grammars_dir() / own).read_text(encoding="utf-8")
        assert not [block for block in blocks if block in text], own
    # the shared patterns work in both: a prototype method, an object literal's method
    source = b"Hash.prototype.get = function () {};\nconst api = { post: () => 1 };\n"
    for language in ("javascript", "typescript"):
        names = {d.qualified_name for d in extract_tags("x", language, source).definitions}
        assert {"Hash.get", "api.post"} <= names, language


def test_query_inheritance_in_a_cycle_is_a_grammar_error(tmp_path, monkeypatch) -> None:
    from ctxopt.parsing import languages

    (tmp_path / "a.scm").write_text("; inherits: b\n(identifier) @name.reference.call\n")
    (tmp_path / "b.scm").write_text("; inherits: a\n")
    monkeypatch.setattr(languages, "grammars_dir", lambda: tmp_path)
    with pytest.raises(GrammarError, match="cycle: a.scm -> b.scm -> a.scm"):
        languages._query_text("a.scm", ())


@pytest.mark.parametrize(("path", "language"), [
    ("a/b.py", "python"), ("x.GO", "go"), ("c.tsx", "tsx"), ("d.mjs", "javascript"),
    ("e.ts", "typescript"), ("README.md", None),
])
def test_language_for_path(path: str, language: str | None) -> None:
    found = language_for_path(path)
    assert (found.name if found else None) == language


def test_installed_wheel_loads_every_query(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path / "dist"), str(PROJECT)], check=True)
    wheel = next((tmp_path / "dist").glob("ctxopt-*.whl"))
    target = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    code = (
        "import ctxopt.parsing.languages as L, sys;"
        "assert L.grammars_dir().parent == __import__('pathlib').Path(L.__file__).parent.parent, L.grammars_dir();"
        "[L.load_query(x.name) for x in L.LANGUAGES];"
        "from ctxopt.parsing.treesitter import extract_tags;"
        "[extract_tags('x', x.name, b'') for x in L.LANGUAGES];"
        "from ctxopt.contract import SCHEMAS, load_schema;"
        "assert all(load_schema(n)['$schema'] for n in SCHEMAS);"
        "print(L.grammars_dir())"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True,
                         capture_output=True, text=True,
                         env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == str(target / "ctxopt" / "grammars")


@pytest.mark.parametrize(("path", "head", "language"), [
    ("bin/tool", b"#!/usr/bin/env python3\nimport os\n", "python"),
    ("bin/tool", b"#!/usr/bin/python3.12 -u\n", "python"),
    ("scripts/run", b"#!/usr/bin/env -S node --no-warnings\n", "javascript"),
    ("scripts/run", b"#! /usr/bin/ruby\n", "ruby"),
    ("scripts/run", b"#!/bin/sh\necho hi\n", None),
    ("scripts/run", b"no shebang\n", None),
    ("Rakefile", b"task :default\n", "ruby"),
    ("notes.txt", b"#!/usr/bin/env python3\n", None),
    ("include/a.h", b"int f(void);\n", "c"),
    ("include/a.h", b"#pragma once\nnamespace kv {\n", "cpp"),
    ("include/a.h", b"class Storage : public Base {\n", "cpp"),
    ("src/a.cc", b"", "cpp"),
    ("A.kt", b"", "kotlin"),
])
def test_language_for_file(path: str, head: bytes, language: str | None) -> None:
    found = language_for_file(path, head)
    assert (found.name if found else None) == language
