"""Import specifiers of each language resolve to the repository's files."""
from pathlib import Path

import pytest

from ctxopt.graph.imports import ImportResolver, TsPaths
from ctxopt.graph.manifests import parse_jsonc, read_ts_paths

RUST = ["Cargo.toml", "src/lib.rs", "src/codec.rs", "src/net/mod.rs", "src/net/tcp.rs",
        "src/net/tcp/frame.rs", "src/util.rs"]


@pytest.mark.parametrize(("importer", "specifier", "expected"), [
    ("src/lib.rs", "codec", ["src/codec.rs"]),                      # mod codec;
    ("src/lib.rs", "net", ["src/net/mod.rs"]),                      # mod net;
    ("src/net/mod.rs", "tcp", ["src/net/tcp.rs"]),                  # mod tcp; beside mod.rs
    ("src/net/tcp.rs", "frame", ["src/net/tcp/frame.rs"]),          # mod frame; in tcp/
    ("src/net/tcp.rs", "crate::codec::Decoder", ["src/codec.rs"]),  # an item of a module
    ("src/lib.rs", "crate::net::tcp", ["src/net/tcp.rs"]),
    ("src/net/tcp.rs", "super::Listener", ["src/net/mod.rs"]),
    ("src/net/tcp.rs", "self::frame::Frame", ["src/net/tcp/frame.rs"]),
    ("src/lib.rs", "std::collections::HashMap", []),
])
def test_rust(importer: str, specifier: str, expected: list[str]) -> None:
    assert ImportResolver(RUST).resolve("rust", importer, specifier) == expected


JVM = ["app/src/main/java/com/example/storage/Storage.java",
       "app/src/main/java/com/example/codec/Decoder.java",
       "app/src/main/kotlin/com/example/codec/Encoder.kt",
       "app/src/main/kotlin/com/example/codec/Util.kt"]


@pytest.mark.parametrize(("language", "specifier", "expected"), [
    ("java", "com.example.codec.Decoder", [JVM[1]]),
    ("java", "com.example.codec.Decoder.decode", [JVM[1]]),   # static import
    ("kotlin", "com.example.codec.Encoder", [JVM[2]]),
    ("kotlin", "com.example.codec.Decoder", [JVM[1]]),        # Kotlin importing Java
    ("kotlin", "com.example.codec.*", [JVM[1], JVM[2], JVM[3]]),
    ("java", "java.util.Map", []),
])
def test_java_and_kotlin_packages(language: str, specifier: str, expected: list[str]) -> None:
    assert sorted(ImportResolver(JVM).resolve(language, JVM[0], specifier)) == expected


C = ["include/kv/storage.h", "src/storage.c", "src/internal.h", "lib/other/internal.h"]


@pytest.mark.parametrize(("specifier", "expected"), [
    ("internal.h", ["src/internal.h"]),        # beside the including file first
    ("kv/storage.h", ["include/kv/storage.h"]),  # an include directory, found by suffix
    ("../include/kv/storage.h", ["include/kv/storage.h"]),
    ("stdio.h", []),
])
def test_c_includes(specifier: str, expected: list[str]) -> None:
    assert ImportResolver(C).resolve("c", "src/storage.c", specifier) == expected


def test_ruby_require_and_require_relative() -> None:
    resolver = ImportResolver(["lib/kv.rb", "lib/kv/codec.rb", "lib/kv/storage.rb"])
    assert resolver.resolve("ruby", "lib/kv/storage.rb", "codec") == ["lib/kv/codec.rb"]
    assert resolver.resolve("ruby", "lib/kv.rb", "kv/codec") == ["lib/kv/codec.rb"]
    assert resolver.resolve("ruby", "lib/kv.rb", "json") == []


def test_php_use_by_namespace_path() -> None:
    resolver = ImportResolver(["src/Codec/Decoder.php", "src/Storage/Storage.php", "bootstrap.php"])
    assert resolver.resolve("php", "src/Storage/Storage.php", "App\\Codec\\Decoder") == \
        ["src/Codec/Decoder.php"]
    assert resolver.resolve("php", "src/Storage/Storage.php", "../../bootstrap.php") == ["bootstrap.php"]
    assert resolver.resolve("php", "src/Storage/Storage.php", "Psr\\Log\\Logger") == []


def test_tsconfig_paths_and_base_url() -> None:
    files = ["web/src/app/options.ts", "web/src/lib/util/index.ts", "web/src/main.ts", "other/x.ts"]
    config = TsPaths(directory="web", base_url="web/src",
                     paths=(("@app/*", ("web/src/app/*",)),))
    resolver = ImportResolver(files, ts_paths=[config])
    assert resolver.resolve("typescript", "web/src/main.ts", "@app/options") == [files[0]]
    assert resolver.resolve("typescript", "web/src/main.ts", "lib/util") == [files[1]]
    assert resolver.resolve("typescript", "other/x.ts", "@app/options") == []  # outside web/
    assert resolver.resolve("typescript", "web/src/main.ts", "react") == []


def test_read_ts_paths_accepts_comments_and_trailing_commas(tmp_path: Path) -> None:
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "tsconfig.json").write_text(
        '{\n  // aliases\n  "compilerOptions": {\n    "baseUrl": "./src", /* root */\n'
        '    "paths": {"@app/*": ["app/*"],},\n  },\n}\n', encoding="utf-8")
    (tmp_path / "tsconfig.json").write_text("{ not json", encoding="utf-8")
    assert read_ts_paths(tmp_path, ["tsconfig.json", "web/tsconfig.json"]) == [
        TsPaths(directory="web", base_url="web/src", paths=(("@app/*", ("web/src/app/*",)),))]


def test_parse_jsonc_keeps_comment_markers_inside_strings() -> None:
    assert parse_jsonc('{"url": "http://x/*y*/", // c\n "n": [1,]}') == {"url": "http://x/*y*/", "n": [1]}
