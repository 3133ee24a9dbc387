"""The indexer: discovery, and the graph's nodes and edges on the fixtures."""
from pathlib import Path

import pytest

from ctxopt.discover import discover_sources
from ctxopt.imports import ImportResolver
from ctxopt.index import build_index, is_test_path


def _edges(index, kind):
    """{(source label, target label)} for edges of ``kind``; symbols labelled by qualified name."""
    def label(node):
        data = index.graph.nodes[node]
        return node if data["type"] == "file" else f"{data['path']}:{index.definition(node).qualified_name}"
    return {(label(u), label(v)) for u, v, k in index.graph.edges(keys=True) if k == kind}


@pytest.fixture
def py_index(fixture_repo):
    return build_index(fixture_repo("py_storage"))


def test_contains_edges(py_index) -> None:
    contains = _edges(py_index, "contains")
    assert ("storage/db.py", "storage/db.py:Storage") in contains
    assert ("storage/db.py:Storage", "storage/db.py:Storage.get") in contains
    assert ("storage/db.py", "storage/db.py:Storage.get") not in contains


def test_reference_edges_resolve_through_imports(py_index) -> None:
    references = _edges(py_index, "references")
    assert ("app/service.py:make_service", "storage/db.py:Storage") in references
    # `self.storage.get(...)` resolves to the only `get` methods in the repository
    assert ("app/service.py:UserService.rename_user", "storage/db.py:Storage.get") in references
    assert ("storage/db.py:Storage.get", "storage/db.py:_check_key") in references


def test_import_edges(py_index) -> None:
    imports = _edges(py_index, "imports")
    assert {("app/service.py", "storage/db.py"), ("app/cli.py", "app/service.py"),
            ("storage/__init__.py", "storage/db.py"), ("storage/cache.py", "storage/db.py"),
            ("tests/test_storage.py", "storage/db.py")} <= imports


def test_inherits_and_tests_edges(py_index) -> None:
    assert ("storage/cache.py:CountingStorage", "storage/db.py:Storage") in _edges(py_index, "inherits")
    tests = _edges(py_index, "tests")
    assert ("tests/test_storage.py:test_put_then_get", "storage/db.py:Storage.put") in tests
    assert ("tests/test_storage.py:test_delete_missing_key_raises", "storage/db.py:StorageError") in tests


def test_go_methods_belong_to_their_receiver_type(fixture_repo) -> None:
    index = build_index(fixture_repo("go_storage"))
    assert ("storage/db.go:Storage", "storage/db.go:Storage.Get") in _edges(index, "contains")
    assert ("server/server.go", "storage/db.go") in _edges(index, "imports")
    assert ("server/server.go:Handler.ServeHTTP", "storage/db.go:Storage.Get") in _edges(index, "references")


def test_typescript_imports_resolve_extension_and_index(fixture_repo) -> None:
    index = build_index(fixture_repo("web_ts"))
    imports = _edges(index, "imports")
    assert {("src/components/UserCard.tsx", "src/api/index.ts"),
            ("src/components/UserCard.tsx", "src/legacy.js"),
            ("src/api/index.ts", "src/api/client.ts"),
            ("src/legacy.js", "src/strings.js")} <= imports


def test_gitignore_is_honoured_at_every_level(make_repo) -> None:
    root = make_repo({
        ".gitignore": "*.log\nbuild/\n",
        "a.py": "x = 1\n",
        "debug.log": "Storage\n",
        "build/gen.py": "y = 2\n",
        "pkg/.gitignore": "secret.py\n!keep.log\n",
        "pkg/secret.py": "z = 3\n",
        "pkg/keep.log": "kept\n",
        "pkg/mod.py": "w = 4\n",
        ".git/config": "[core]\n",
        "node_modules/lib/index.js": "module.exports = 1\n",
        "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00",
    })
    files, diagnostics = discover_sources(root)
    assert files == [".gitignore", "a.py", "pkg/.gitignore", "pkg/keep.log", "pkg/mod.py"]
    assert [(d.path, d.reason) for d in diagnostics] == [("logo.png", "binary")]


def test_oversized_file_is_reported(make_repo) -> None:
    root = make_repo({"big.py": "x = 1\n" * 10, "small.py": "y = 2\n"})
    files, diagnostics = discover_sources(root, max_file_bytes=30)
    assert files == ["small.py"]
    assert [(d.path, d.reason) for d in diagnostics] == [("big.py", "too large")]


@pytest.mark.parametrize(("path", "expected"), [
    ("tests/test_a.py", True), ("pkg/test_a.py", True), ("a_test.go", True),
    ("src/x.spec.ts", True), ("src/__tests__/x.js", True), ("conftest.py", True),
    ("src/testing_utils.py", False), ("src/contest.py", False), ("latest.py", False),
])
def test_is_test_path(path: str, expected: bool) -> None:
    assert is_test_path(path) is expected


def test_python_relative_imports() -> None:
    resolver = ImportResolver(["pkg/__init__.py", "pkg/a.py", "pkg/sub/b.py", "pkg/sub/__init__.py"])
    assert resolver.resolve("python", "pkg/sub/b.py", "..a") == ["pkg/a.py"]
    assert resolver.resolve("python", "pkg/sub/b.py", ".") == ["pkg/sub/__init__.py"]
    assert resolver.resolve("python", "pkg/__init__.py", ".a") == ["pkg/a.py"]
    assert resolver.resolve("python", "x.py", "pkg.sub") == ["pkg/sub/__init__.py"]


def test_python_src_layout_resolves_by_suffix() -> None:
    resolver = ImportResolver(["src/app/core.py", "src/app/__init__.py"])
    assert resolver.resolve("python", "tests/test_core.py", "app.core") == ["src/app/core.py"]
