"""The indexer: discovery, and the stored graph's nodes and edges on the fixtures."""

import pytest

from indexes import edges as _edges

from ctxopt.discover import discover_sources
from ctxopt.graph.imports import ImportResolver
from ctxopt.graph.rules import is_test_path


@pytest.fixture
def py_index(fixture_repo, build_index):
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


def test_go_methods_belong_to_their_receiver_type(fixture_repo, build_index) -> None:
    index = build_index(fixture_repo("go_storage"))
    assert ("storage/db.go:Storage", "storage/db.go:Storage.Get") in _edges(index, "contains")
    assert ("server/server.go", "storage/db.go") in _edges(index, "imports")
    assert ("server/server.go:Handler.ServeHTTP", "storage/db.go:Storage.Get") in _edges(index, "references")


def test_typescript_imports_resolve_extension_and_index(fixture_repo, build_index) -> None:
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
    assert [(d.path, d.reason) for d in diagnostics] == [
        ("logo.png", "binary"), ("node_modules/", "vendored")]


def test_oversized_file_is_reported(make_repo) -> None:
    root = make_repo({"big.py": "x = 1\n" * 10, "small.py": "y = 2\n"})
    files, diagnostics = discover_sources(root, max_file_bytes=30)
    assert files == ["small.py"]
    assert [(d.path, d.reason) for d in diagnostics] == [("big.py", "too large")]


@pytest.mark.parametrize(("path", "expected"), [
    ("tests/test_a.py", True), ("pkg/test_a.py", True), ("a_test.go", True),
    ("src/x.spec.ts", True), ("src/__tests__/x.js", True), ("conftest.py", True),
    ("src/testing_utils.py", False), ("src/contest.py", False), ("latest.py", False),
    ("src/test/java/StoreTest.java", True), ("App.Tests/StoreTests.cs", True),
    ("Tests/AppTests/Store.swift", True), ("lib/store_spec.rb", True),
    ("src/Contest.java", False), ("src/Latest.kt", False), ("Sources/Store.swift", False),
    # trial 7: JavaPoet's MethodSpec.java, TypeSpec.java... were tests, so a stack frame's
    # `MethodSpec$Builder.build` seeded every other `Builder.build`
    ("src/main/java/com/squareup/javapoet/MethodSpec.java", False),
    ("src/main/kotlin/FunSpec.kt", False), ("src/test/scala/StoreSpec.scala", True),
    # trial 19: PHPUnit tests kept beside the code (league/csv)
    ("src/ReaderTest.php", True), ("src/TabularDataReaderTestCase.php", True),
    ("src/Reader.php", False), ("src/Contest.php", False),
    # trial 39: Gradle's test source sets (okio's MockSink.kt in src/commonTest/)
    ("okio/src/commonTest/kotlin/okio/MockSink.kt", True),
    ("src/jvmTest/kotlin/JvmTesting.kt", True), ("src/androidTest/java/A.java", True),
    ("okio/src/commonMain/kotlin/okio/Timeout.kt", False), ("src/latest/a.kt", False),
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


def test_out_of_line_methods_belong_to_their_type(make_repo, build_index) -> None:
    root = make_repo({
        "include/storage.hpp": "namespace kv {\nclass Storage {\n  int get();\n};\n}\n",
        "src/storage.cpp": '#include "storage.hpp"\nnamespace kv {\nint Storage::get() { return 1; }\n}\n',
        "src/lib.rs": "struct Store;\nimpl Store {\n    fn new() -> Self { Store }\n}\n",
        "ext.kt": "class Box\nfun Box.size(): Int = 0\n",
    })
    index = build_index(root)
    contains = _edges(index, "contains")
    assert ("include/storage.hpp:kv.Storage", "src/storage.cpp:kv.Storage.get") in contains
    assert ("src/lib.rs:Store", "src/lib.rs:Store.new") in contains
    assert ("ext.kt:Box", "ext.kt:Box.size") in contains


def test_imports_resolve_in_every_language_family(make_repo, build_index) -> None:
    root = make_repo({
        "Cargo.toml": "[package]\n", "src/lib.rs": "mod codec;\nuse crate::codec::Decoder;\n",
        "src/codec.rs": "pub struct Decoder;\n",
        "java/com/x/A.java": "package com.x;\nimport com.y.B;\nclass A {}\n",
        "java/com/y/B.java": "package com.y;\npublic class B {}\n",
        "c/main.c": '#include "util.h"\nint main(void) { return 0; }\n', "c/util.h": "int u(void);\n",
        "web/tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["src/*"]}}}',
        "web/src/main.ts": 'import { f } from "@/lib";\n', "web/src/lib.ts": "export function f() {}\n",
    })
    imports = _edges(build_index(root), "imports")
    assert {("src/lib.rs", "src/codec.rs"), ("java/com/x/A.java", "java/com/y/B.java"),
            ("c/main.c", "c/util.h"), ("web/src/main.ts", "web/src/lib.ts")} <= imports


def test_an_extensionless_script_is_indexed(make_repo, build_index) -> None:
    root = make_repo({"bin/serve": "#!/usr/bin/env node\nfunction serve() {}\n"})
    index = build_index(root)
    assert [d.qualified_name for d in index.file_definitions("bin/serve")] == ["serve"]
