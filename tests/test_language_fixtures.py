"""Every language's fixture (fixtures/languages/<lang>/) yields exactly these tags.

Each entry: definitions as (name, kind, qualified name, start line, end line), in file
order, and the set of references as (name, kind, line). The fixtures hold each
language's hard cases (decorators, receivers, impl blocks, out-of-line methods,
extensions, namespaces); see fixtures/languages/README.md.
"""
from pathlib import Path

import pytest

from ctxopt.parsing.languages import LANGUAGES, language_for_path
from ctxopt.parsing.macros import blank_macros
from ctxopt.parsing.preprocessor import first_branches
from ctxopt.parsing.treesitter import extract_tags

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "languages"

EXPECTED = {
    "c/storage.c": ('c', [
        ('counter', 'variable', 'counter', 5, 5),
        ('hash', 'function', 'hash', 7, 9),
        ('storage_new', 'function', 'storage_new', 11, 15),
        ('storage_get', 'function', 'storage_get', 17, 20),
    ], {
        ('<stdlib.h>', 'import', 2),
        ('storage.h', 'import', 3),
        ('storage_t', 'type', 11),
        ('malloc', 'call', 12),
        ('storage_t', 'type', 12),
        ('storage_t', 'type', 17),
        ('hash', 'call', 19),
    }),
    "c/storage.h": ('c', [
        ('STORAGE_H', 'constant', 'STORAGE_H', 3, 3),
        ('MAX_KEYS', 'constant', 'MAX_KEYS', 5, 5),
        ('storage_t', 'type', 'storage_t', 7, 10),
        ('storage', 'struct', 'storage', 7, 10),
        ('count', 'field', 'storage.count', 8, 8),
        ('keys', 'field', 'storage.keys', 9, 9),
        ('mode', 'enum', 'mode', 12, 12),
        ('MODE_READ', 'constant', 'mode.MODE_READ', 12, 12),
        ('MODE_WRITE', 'constant', 'mode.MODE_WRITE', 12, 12),
        ('storage_new', 'function', 'storage_new', 14, 14),
        ('storage_get', 'function', 'storage_get', 15, 15),
    ], {
        ('storage_t', 'type', 10),
        ('storage_t', 'type', 14),
        ('storage_t', 'type', 15),
    }),
    "cpp/storage.cpp": ('cpp', [
        ('Storage', 'method', 'kv.Storage.Storage', 6, 6),
        ('get', 'method', 'kv.Storage.get', 8, 10),
        ('helper', 'function', 'helper', 14, 16),
    ], {
        ('storage.hpp', 'import', 2),
        ('Storage', 'type', 8),
        ('string', 'type', 8),
        ('lookup', 'call', 9),
        ('Storage', 'type', 14),
        ('size', 'call', 15),
    }),
    "cpp/storage.hpp": ('cpp', [
        ('Storage', 'class', 'kv.Storage', 8, 16),
        ('Storage', 'method', 'kv.Storage.Storage', 10, 10),
        ('get', 'method', 'kv.Storage.get', 11, 11),
        ('size', 'method', 'kv.Storage.size', 12, 12),
        ('count_', 'field', 'kv.Storage.count_', 15, 15),
        ('Cache', 'struct', 'kv.Cache', 18, 21),
        ('value', 'field', 'kv.Cache.value', 20, 20),
    ], {
        ('<string>', 'import', 3),
        ('base.hpp', 'import', 4),
        ('Base', 'inherit', 8),
        ('string', 'type', 11),
        ('T', 'type', 18),
        ('T', 'type', 20),
    }),
    "csharp/Storage.cs": ('csharp', [
        ('IStore', 'interface', 'Example.Storage.IStore', 7, 10),
        ('Get', 'method', 'Example.Storage.IStore.Get', 9, 9),
        ('Storage', 'class', 'Example.Storage.Storage', 12, 33),
        ('MaxKeys', 'constant', 'Example.Storage.Storage.MaxKeys', 14, 14),
        ('data', 'field', 'Example.Storage.Storage.data', 15, 15),
        ('Count', 'field', 'Example.Storage.Storage.Count', 17, 17),
        ('Entry', 'class', 'Example.Storage.Storage.Entry', 19, 22),
        ('Value', 'field', 'Example.Storage.Storage.Entry.Value', 21, 21),
        ('Storage', 'method', 'Example.Storage.Storage.Storage', 24, 27),
        ('Get', 'method', 'Example.Storage.Storage.Get', 29, 32),
        ('Mode', 'enum', 'Example.Storage.Mode', 35, 35),
        ('Read', 'constant', 'Example.Storage.Mode.Read', 35, 35),
        ('Write', 'constant', 'Example.Storage.Mode.Write', 35, 35),
        ('Point', 'struct', 'Example.Storage.Point', 37, 37),
        ('X', 'field', 'Example.Storage.Point.X', 37, 37),
    ], {
        ('System.Collections.Generic', 'import', 2),
        ('Example.Codec', 'import', 3),
        ('Base', 'inherit', 12),
        ('IStore', 'inherit', 12),
        ('Entry', 'type', 15),
        ('Dictionary', 'call', 26),
        ('Entry', 'type', 26),
        ('Decode', 'call', 31),
        ('Decoder', 'reference', 31),
    }),
    "go/storage.go": ('go', [
        ('MaxKeys', 'constant', 'MaxKeys', 10, 10),
        ('Reader', 'interface', 'Reader', 12, 14),
        ('Get', 'method', 'Reader.Get', 13, 13),
        ('Base', 'struct', 'Base', 16, 16),
        ('Storage', 'struct', 'Storage', 18, 22),
        ('data', 'field', 'Storage.data', 20, 20),
        ('log', 'field', 'Storage.log', 21, 21),
        ('Cache', 'struct', 'Cache', 24, 26),
        ('items', 'field', 'Cache.items', 25, 25),
        ('New', 'function', 'New', 28, 30),
        ('Get', 'method', 'Storage.Get', 32, 38),
        ('Len', 'method', 'Cache.Len', 40, 42),
    ], {
        ('fmt', 'import', 5),
        ('example.com/kv/codec', 'import', 7),
        ('error', 'type', 13),
        ('string', 'type', 13),
        ('Base', 'inherit', 19),
        ('string', 'type', 20),
        ('Logger', 'type', 21),
        ('any', 'type', 24),
        ('T', 'type', 25),
        ('Storage', 'type', 28),
        ('Storage', 'type', 29),
        ('string', 'type', 29),
        ('Storage', 'type', 32),
        ('error', 'type', 32),
        ('string', 'type', 32),
        ('data', 'reference', 33),
        ('Errorf', 'call', 35),
        ('Decode', 'call', 37),
        ('Cache', 'type', 40),
        ('T', 'type', 40),
        ('int', 'type', 40),
        ('items', 'reference', 41),
        ('len', 'call', 41),
    }),
    "java/Storage.java": ('java', [
        ('Storage', 'class', 'Storage', 7, 29),
        ('MAX_KEYS', 'constant', 'Storage.MAX_KEYS', 8, 8),
        ('data', 'field', 'Storage.data', 9, 9),
        ('Listener', 'interface', 'Storage.Listener', 11, 13),
        ('changed', 'method', 'Storage.Listener.changed', 12, 12),
        ('Entry', 'class', 'Storage.Entry', 15, 17),
        ('value', 'field', 'Storage.Entry.value', 16, 16),
        ('Mode', 'enum', 'Storage.Mode', 19, 19),
        ('READ', 'constant', 'Storage.Mode.READ', 19, 19),
        ('WRITE', 'constant', 'Storage.Mode.WRITE', 19, 19),
        ('Storage', 'method', 'Storage.Storage', 21, 23),
        ('get', 'method', 'Storage.get', 25, 28),
        ('Store', 'interface', 'Store', 31, 33),
        ('get', 'method', 'Store.get', 32, 32),
    ], {
        ('com.example.codec.Decoder', 'import', 4),
        ('java.util.Map', 'import', 5),
        ('Base', 'inherit', 7),
        ('Store', 'inherit', 7),
        ('Entry', 'type', 9),
        ('Map', 'type', 9),
        ('String', 'type', 9),
        ('String', 'type', 12),
        ('String', 'type', 16),
        ('Entry', 'type', 21),
        ('Map', 'type', 21),
        ('String', 'type', 21),
        ('Override', 'type', 25),
        ('String', 'type', 26),
        ('Decoder', 'reference', 27),
        ('decode', 'call', 27),
        ('get', 'call', 27),
        ('String', 'type', 32),
    }),
    "javascript/legacy.js": ('javascript', [
        ('Cache', 'function', 'Cache', 4, 6),
        ('add', 'method', 'Cache.add', 8, 8),
        ('push', 'method', 'Cache.push', 8, 8),
        ('castArray', 'method', 'castArray', 11, 13),
        ('baseCreate', 'function', 'baseCreate', 16, 21),
        ('object', 'function', 'baseCreate.object', 17, 17),
        ('runInContext', 'function', 'runInContext', 27, 29),
        ('getTag', 'function', 'getTag', 33, 35),
        ('size', 'function', 'size', 38, 40),
        ('getrouter', 'method', 'getrouter', 43, 45),
        ('set', 'method', 'set', 46, 48),
        ('etag', 'function', 'etag', 51, 55),
        ('generateETag', 'function', 'etag.generateETag', 52, 54),
    ], {
        ('./define', 'import', 2),
        ('require', 'call', 2),
        ('object', 'call', 19),
        ('binding', 'call', 24),
        ('defineGetter', 'call', 38),
        ('defineProperty', 'call', 42),
    }),
    "javascript/storage.js": ('javascript', [
        ('LIMIT', 'constant', 'LIMIT', 5, 5),
        ('load', 'function', 'load', 7, 9),
        ('save', 'function', 'save', 11, 13),
        ('Storage', 'class', 'Storage', 15, 28),
        ('count', 'field', 'Storage.count', 16, 16),
        ('onChange', 'method', 'Storage.onChange', 17, 19),
        ('get', 'method', 'Storage.get', 21, 23),
        ('create', 'method', 'Storage.create', 25, 27),
        ('makeStorage', 'function', 'makeStorage', 30, 32),
        ('helper', 'function', 'helper', 34, 36),
    ], {
        ('./base.js', 'import', 2),
        ('./util', 'import', 3),
        ('require', 'call', 3),
        ('read', 'call', 8),
        ('write', 'call', 12),
        ('Base', 'inherit', 15),
        ('load', 'call', 22),
        ('Storage', 'call', 26),
        ('create', 'call', 31),
        ('save', 'call', 35),
    }),
    "kotlin/Storage.kt": ('kotlin', [
        ('MAX_KEYS', 'constant', 'MAX_KEYS', 6, 6),
        ('Store', 'interface', 'Store', 8, 10),
        ('get', 'method', 'Store.get', 9, 9),
        ('Entry', 'class', 'Entry', 12, 12),
        ('value', 'field', 'Entry.value', 12, 12),
        ('Storage', 'class', 'Storage', 14, 24),
        ('data', 'field', 'Storage.data', 15, 15),
        ('get', 'method', 'Storage.get', 17, 19),
        ('Companion', 'class', 'Storage.Companion', 21, 23),
        ('create', 'method', 'Storage.Companion.create', 22, 22),
        ('Registry', 'class', 'Registry', 26, 28),
        ('register', 'method', 'Registry.register', 27, 27),
        ('size', 'method', 'Storage.size', 30, 30),
    ], {
        ('com.example.codec.Decoder', 'import', 4),
        ('String', 'type', 9),
        ('String', 'type', 12),
        ('Base', 'inherit', 14),
        ('Store', 'inherit', 14),
        ('Entry', 'type', 15),
        ('String', 'type', 15),
        ('mutableMapOf', 'call', 15),
        ('String', 'type', 17),
        ('Decoder', 'reference', 18),
        ('decode', 'call', 18),
        ('Storage', 'call', 22),
        ('Store', 'type', 27),
        ('Int', 'type', 30),
        ('Storage', 'type', 30),
    }),
    "php/Storage.php": ('php', [
        ('MAX_KEYS', 'constant', 'App.Storage.MAX_KEYS', 7, 7),
        ('Store', 'interface', 'App.Storage.Store', 9, 12),
        ('get', 'method', 'App.Storage.Store.get', 11, 11),
        ('Logs', 'trait', 'App.Storage.Logs', 14, 20),
        ('log', 'method', 'App.Storage.Logs.log', 16, 19),
        ('Storage', 'class', 'App.Storage.Storage', 22, 37),
        ('data', 'field', 'App.Storage.Storage.data', 26, 26),
        ('get', 'method', 'App.Storage.Storage.get', 28, 31),
        ('create', 'method', 'App.Storage.Storage.create', 33, 36),
        ('helper', 'function', 'App.Storage.helper', 39, 42),
    ], {
        ('App\\Codec\\Decoder', 'import', 5),
        ('error_log', 'call', 18),
        ('Base', 'inherit', 22),
        ('Store', 'inherit', 22),
        ('Logs', 'inherit', 24),
        ('Decoder', 'reference', 30),
        ('decode', 'call', 30),
        ('Storage', 'call', 35),
        ('Storage', 'type', 39),
        ('get', 'call', 41),
    }),
    "python/storage.py": ('python', [
        ('MAX_SIZE', 'constant', 'MAX_SIZE', 5, 5),
        ('cached', 'function', 'cached', 8, 10),
        ('Storage', 'class', 'Storage', 13, 29),
        ('limit', 'field', 'Storage.limit', 16, 16),
        ('Entry', 'class', 'Storage.Entry', 18, 20),
        ('value', 'method', 'Storage.Entry.value', 19, 20),
        ('size', 'method', 'Storage.size', 22, 24),
        ('make', 'method', 'Storage.make', 26, 29),
        ('run', 'function', 'run', 32, 36),
        ('inner', 'function', 'run.inner', 33, 34),
    ], {
        ('functools', 'import', 2),
        ('.base', 'import', 3),
        ('Base', 'import_member', 3),
        ('helper', 'import_member', 3),
        ('lru_cache', 'call', 8),
        ('str', 'type', 9),
        ('Entry', 'call', 10),
        ('key', 'reference', 10),
        ('Base', 'inherit', 13),
        ('int', 'type', 16),
        ('int', 'type', 19),
        ('property', 'call', 22),
        ('int', 'type', 23),
        ('items', 'call', 24),
        ('len', 'call', 24),
        ('staticmethod', 'call', 26),
        ('Entry', 'type', 27),
        ('entry', 'reference', 28),
        ('helper', 'call', 28),
        ('Storage', 'call', 29),
        ('Storage', 'type', 32),
        ('size', 'reference', 34),
        ('inner', 'call', 36),
    }),
    "ruby/storage.rb": ('ruby', [
        ('KV', 'module', 'KV', 5, 23),
        ('MAX_KEYS', 'constant', 'KV.MAX_KEYS', 6, 6),
        ('Storage', 'class', 'KV.Storage', 8, 22),
        ('create', 'method', 'KV.Storage.create', 11, 13),
        ('get', 'method', 'KV.Storage.get', 15, 17),
        ('Entry', 'class', 'KV.Storage.Entry', 19, 21),
        (':value', 'field', 'KV.Storage.Entry.:value', 20, 20),
    ], {
        ('json', 'import', 2),
        ('codec', 'import', 3),
        ('Base', 'inherit', 8),
        ('Enumerable', 'inherit', 9),
        ('Codec', 'reference', 16),
        ('decode', 'call', 16),
    }),
    "rust/lib.rs": ('rust', [
        ('MAX_KEYS', 'constant', 'MAX_KEYS', 7, 7),
        ('Store', 'trait', 'Store', 9, 11),
        ('get', 'method', 'Store.get', 10, 10),
        ('Storage', 'struct', 'Storage', 13, 16),
        ('data', 'field', 'Storage.data', 15, 15),
        ('Mode', 'enum', 'Mode', 18, 21),
        ('Read', 'constant', 'Mode.Read', 19, 19),
        ('Write', 'constant', 'Mode.Write', 20, 20),
        ('Key', 'type', 'Key', 23, 23),
        ('new', 'method', 'Storage.new', 26, 28),
        ('get', 'method', 'Storage.get', 32, 34),
        ('util', 'module', 'util', 37, 41),
        ('hash', 'function', 'util.hash', 38, 40),
        ('store', 'macro', 'store', 43, 47),
    ], {
        ('codec', 'import', 2),
        ('crate::codec::Decoder', 'import', 4),
        ('std::collections::HashMap', 'import', 5),
        ('Option', 'type', 10),
        ('String', 'type', 10),
        ('HashMap', 'type', 15),
        ('String', 'type', 15),
        ('String', 'type', 23),
        ('Storage', 'type', 25),
        ('Self', 'type', 26),
        ('HashMap', 'reference', 27),
        ('Storage', 'call', 27),
        ('new', 'call', 27),
        ('Storage', 'type', 31),
        ('Store', 'inherit', 31),
        ('Option', 'type', 32),
        ('String', 'type', 32),
        ('Decoder', 'reference', 33),
        ('decode', 'call', 33),
        ('get', 'call', 33),
        ('map', 'call', 33),
        ('len', 'call', 39),
    }),
    "scala/Storage.scala": ('scala', [
        ('Store', 'trait', 'Store', 6, 8),
        ('get', 'method', 'Store.get', 7, 7),
        ('Entry', 'class', 'Entry', 10, 10),
        ('value', 'field', 'Entry.value', 10, 10),
        ('Storage', 'class', 'Storage', 12, 17),
        ('data', 'field', 'Storage.data', 13, 13),
        ('get', 'method', 'Storage.get', 15, 16),
        ('Storage', 'class', 'Storage', 19, 23),
        ('MaxKeys', 'field', 'Storage.MaxKeys', 20, 20),
        ('create', 'method', 'Storage.create', 21, 21),
        ('++', 'method', 'Storage.++', 22, 22),
    ], {
        ('com.example.codec.Decoder', 'import', 4),
        ('Option', 'type', 7),
        ('String', 'type', 7),
        ('String', 'type', 10),
        ('Base', 'inherit', 12),
        ('Store', 'inherit', 12),
        ('Entry', 'type', 13),
        ('Map', 'reference', 13),
        ('String', 'type', 13),
        ('Option', 'type', 15),
        ('String', 'type', 15),
        ('Decoder', 'reference', 16),
        ('decode', 'call', 16),
        ('get', 'call', 16),
        ('map', 'call', 16),
        ('Storage', 'call', 21),
        ('Storage', 'type', 22),
    }),
    "swift/Storage.swift": ('swift', [
        ('Store', 'interface', 'Store', 4, 6),
        ('get', 'method', 'Store.get', 5, 5),
        ('Storage', 'class', 'Storage', 8, 22),
        ('data', 'field', 'Storage.data', 9, 9),
        ('Entry', 'struct', 'Storage.Entry', 11, 13),
        ('value', 'field', 'Storage.Entry.value', 12, 12),
        ('init', 'method', 'Storage.init', 15, 17),
        ('get', 'method', 'Storage.get', 19, 21),
        ('Mode', 'enum', 'Mode', 24, 26),
        ('read', 'constant', 'Mode.read', 25, 25),
        ('write', 'constant', 'Mode.write', 25, 25),
        ('size', 'method', 'Storage.size', 29, 31),
        ('makeStorage', 'function', 'makeStorage', 34, 36),
        ('Kind', 'enum', 'Storage.Kind', 39, 41),
        ('memory', 'constant', 'Storage.Kind.memory', 40, 40),
        ('==', 'method', 'Storage.==', 43, 45),
    ], {
        ('Foundation', 'import', 2),
        ('String', 'type', 5),
        ('Base', 'inherit', 8),
        ('Store', 'inherit', 8),
        ('Entry', 'type', 9),
        ('String', 'type', 9),
        ('String', 'type', 12),
        ('init', 'call', 16),
        ('String', 'type', 19),
        ('Decoder', 'reference', 20),
        ('data', 'call', 20),
        ('decode', 'call', 20),
        ('Storage', 'type', 28),
        ('Int', 'type', 29),
        ('Storage', 'type', 34),
        ('Storage', 'call', 35),
        ('Storage', 'type', 38),
        ('Equatable', 'inherit', 38),
        ('Storage', 'type', 43),
        ('Bool', 'type', 43),
        ('size', 'call', 44),
    }),
    "tsx/Card.tsx": ('tsx', [
        ('CardProps', 'interface', 'CardProps', 5, 7),
        ('title', 'field', 'CardProps.title', 6, 6),
        ('Card', 'function', 'Card', 9, 16),
        ('List', 'function', 'List', 18, 20),
    ], {
        ('react', 'import', 2),
        ('./Badge', 'import', 3),
        ('CardProps', 'type', 9),
        ('Badge', 'call', 12),
        ('Card', 'call', 19),
        ('map', 'call', 19),
    }),
    "typescript/storage.ts": ('typescript', [
        ('Entry', 'interface', 'Entry', 5, 9),
        ('key', 'field', 'Entry.key', 6, 6),
        ('value', 'field', 'Entry.value', 7, 7),
        ('touch', 'method', 'Entry.touch', 8, 8),
        ('Loader', 'type', 'Loader', 11, 11),
        ('Mode', 'enum', 'Mode', 13, 16),
        ('Read', 'constant', 'Mode.Read', 14, 14),
        ('Write', 'constant', 'Mode.Write', 15, 15),
        ('Storage', 'class', 'Storage', 18, 29),
        ('items', 'field', 'Storage.items', 19, 19),
        ('handler', 'method', 'Storage.handler', 20, 22),
        ('flush', 'method', 'Storage.flush', 24, 24),
        ('get', 'method', 'Storage.get', 26, 28),
        ('load', 'function', 'load', 31, 33),
        ('encode', 'function', 'Codec.encode', 36, 38),
        ('MemoryStorage', 'class', 'MemoryStorage', 41, 43),
        ('flush', 'method', 'MemoryStorage.flush', 42, 42),
    ], {
        ('./base', 'import', 2),
        ('@app/options', 'import', 3),
        ('T', 'type', 5),
        ('Key', 'type', 6),
        ('T', 'type', 7),
        ('Entry', 'type', 11),
        ('Key', 'type', 11),
        ('Promise', 'type', 11),
        ('Base', 'inherit', 18),
        ('Iterable', 'inherit', 18),
        ('T', 'type', 18),
        ('Entry', 'type', 19),
        ('Key', 'type', 19),
        ('Map', 'call', 19),
        ('T', 'type', 19),
        ('Entry', 'type', 20),
        ('T', 'type', 20),
        ('set', 'call', 21),
        ('Options', 'type', 24),
        ('Promise', 'type', 24),
        ('Entry', 'type', 26),
        ('Key', 'type', 26),
        ('T', 'type', 26),
        ('get', 'call', 27),
        ('Loader', 'type', 31),
        ('fetchEntry', 'call', 32),
        ('Entry', 'type', 36),
        ('stringify', 'call', 37),
        ('Storage', 'inherit', 41),
        ('Promise', 'type', 42),
    }),
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_fixture_definitions(relative: str) -> None:
    language, definitions, _ = EXPECTED[relative]
    tags = extract_tags(relative, language, (FIXTURES / relative).read_bytes())
    assert [(d.name, d.kind, d.qualified_name, d.start_line, d.end_line)
            for d in tags.definitions] == definitions


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_fixture_references(relative: str) -> None:
    language, _, references = EXPECTED[relative]
    tags = extract_tags(relative, language, (FIXTURES / relative).read_bytes())
    assert {(r.name, r.kind, r.line) for r in tags.references} == references


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_fixture_language_is_detected_from_its_extension(relative: str) -> None:
    assert language_for_path(relative).name == EXPECTED[relative][0]


def test_every_language_has_a_fixture() -> None:
    assert {lang.name for lang in LANGUAGES} == {language for language, _, _ in EXPECTED.values()}


BROKEN = {
    "python": (b"class Storage:\n    def get(self):\n        return (\n\ndef put(x):\n    pass\n",
               {"Storage", "get", "put"}),
    "go": (b"package p\n\nfunc A() {\n\treturn 1 +\n}\n\nfunc B() {}\n", {"A", "B"}),
    "rust": (b"struct S {\n    a: u8,\n}\nimpl S {\n    fn f(&self) { let x = ; }\n}\nfn g() {}\n",
             {"S", "a", "f", "g"}),
    "java": (b"class A {\n  void f() { int x = ; }\n  void g() {}\n}\n", {"A", "f", "g"}),
    "cpp": (b"class A {\n  int f() { return ; }\n};\nint A::g() { return 1 + ; }\n",
            {"A", "f", "g"}),
    "typescript": (b"class A {\n  f(): void { let x = ; }\n}\nfunction g() {}\n", {"A", "f", "g"}),
    "ruby": (b"class A\n  def f\n    x = 1 +* 2\n  end\nend\ndef g; end\n", {"f", "g"}),
    "php": (b"<?php\nclass A {\n  function f() { $x = ; }\n}\nfunction g() {}\n", {"A", "f", "g"}),
}


@pytest.mark.parametrize("language", sorted(BROKEN))
def test_syntax_errors_keep_the_definitions_tree_sitter_recovered(language: str) -> None:
    source, names = BROKEN[language]
    tags = extract_tags("broken", language, source)
    assert names <= {d.name for d in tags.definitions}


@pytest.mark.parametrize("language", [lang.name for lang in LANGUAGES])
@pytest.mark.parametrize("source", [b"\xff\xfe\x00garbage {{{ ((( \"unterminated", b"}}}\n)))\n",
                                    b"class\n", b"\x00" * 64])
def test_garbage_never_crashes_the_parser(language: str, source: bytes) -> None:
    tags = extract_tags("garbage", language, source)
    assert tags.line_count == source.count(b"\n") + (0 if source.endswith(b"\n") else 1)


@pytest.mark.parametrize(("source", "expected"), [
    (b"template <> void swap<a::b>(a::b &x) {}\n", [("swap", "function", "swap")]),
    (b"template <> struct handle<bytes> {};\n", [("handle", "struct", "handle")]),
    (b"A::operator std::string() const { return s; }\n",
     [("operator std::string", "method", "A.operator std::string")]),
    (b"bool A::operator<=>(const A &o) const { return 1; }\n", [("operator<=>", "method", "A.operator<=>")]),
    (b"struct A {\n  A();\n  MACRO(x, y);\n};\n", [("A", "struct", "A"), ("A", "method", "A.A")]),
    (b"int f() {\n  Vector<char> buffer(data, size);\n  return 0;\n}\n", [("f", "function", "f")]),
    (b"int ns::Cache<T>::get() { return 0; }\n", [("get", "method", "ns.Cache.get")]),
    (b"Storage::~Storage() {}\n", [("~Storage", "method", "Storage.~Storage")]),
])
def test_cpp_qualified_names_are_split_at_the_last_separator(source: bytes, expected: list) -> None:
    tags = extract_tags("x.cpp", "cpp", source)
    assert [(d.name, d.kind, d.qualified_name) for d in tags.definitions] == expected


def test_a_macro_before_a_c_function_name_is_not_the_name() -> None:
    source = b"static FASTCALL_ATTR PyObject *FASTCALL_MSVC decode_true(struct S *ds)\n{\n  return 0;\n}\n"
    tags = extract_tags("decode.c", "c", source)
    assert [(d.name, d.kind, d.start_line, d.end_line) for d in tags.definitions] == [
        ("decode_true", "function", 1, 4)]


def test_javascript_prototype_members_and_object_literal_functions() -> None:
    source = (b"function Hash() {}\nHash.prototype.clear = hashClear;\n"
              b"Hash.prototype.get = function (k) { return 1; };\n"
              b"module.exports = { load: function () {}, save: () => 1, run() {} };\n")
    tags = extract_tags("hash.js", "javascript", source)
    assert [(d.kind, d.qualified_name, d.start_line) for d in tags.definitions] == [
        ("function", "Hash", 1), ("method", "Hash.clear", 2), ("method", "Hash.get", 3),
        ("method", "load", 4), ("method", "save", 4), ("method", "run", 4)]


@pytest.mark.parametrize(("language", "source", "expected"), [
    ("csharp", b"namespace A.B;\nclass C { void M() {} }\n",
     [("class", "A.B.C", 2, 2), ("method", "A.B.C.M", 2, 2)]),
    ("swift", b"enum Mode {\n  case read, write\n}\n",
     [("enum", "Mode", 1, 3), ("constant", "Mode.read", 2, 2), ("constant", "Mode.write", 2, 2)]),
    ("c", b"typedef struct node {\n  int v;\n} node_t;\n",
     [("type", "node_t", 1, 3), ("struct", "node", 1, 3), ("field", "node.v", 2, 2)]),
])
def test_scoping_rules(language: str, source: bytes, expected: list) -> None:
    """File-scoped namespaces hold the rest of the file (their name qualifies it); several
    names on one node are siblings; a typedef does not contain the struct it names."""
    tags = extract_tags("x", language, source)
    assert [(d.kind, d.qualified_name, d.start_line, d.end_line) for d in tags.definitions] == expected


@pytest.mark.parametrize(("language", "source", "expected"), [
    ("php", b"<?php\nnamespace Slim\\Routing;\n\nuse A\\B;\n\nclass RouteParser {\n  function urlFor() {}\n}\n",
     [("class", "Slim.Routing.RouteParser", None), ("method", "Slim.Routing.RouteParser.urlFor", 0)]),
    ("csharp", b"namespace Serilog;\n\nusing System;\n\nclass Logger { void Write() {} }\n",
     [("class", "Serilog.Logger", None), ("method", "Serilog.Logger.Write", 0)]),
    ("csharp", b"namespace A {\n  namespace B {\n    class C { }\n  }\n}\n", [("class", "A.B.C", None)]),
    ("cpp", b"namespace kv {\nint helper() { return 0; }\nclass S { };\n}\n",
     [("function", "kv.helper", None), ("class", "kv.S", None)]),
    ("typescript", b"namespace Palette {\n  export function mix() {}\n}\n",
     [("function", "Palette.mix", None)]),
])
def test_a_namespace_only_qualifies_the_names_in_it(language: str, source: bytes,
                                                     expected: list) -> None:
    """Trial 12: a namespace was a definition, so a task's word (``Routing``, ``Serilog``)
    seeded whole files through it, its ``use`` lists and license headers; its members keep
    the qualified names it gives them."""
    tags = extract_tags("x", language, source)
    assert [(d.kind, d.qualified_name, d.parent) for d in tags.definitions] == expected


def test_csharp_directives_inside_a_declaration_keep_the_type() -> None:
    """Trial 12: `#if` between a method's header and its body broke serilog's ILogger: no
    interface, its methods qualified by the namespace, `if` and the condition's name as
    definitions. The first branch of each conditional is parsed (lines and bytes kept)."""
    source = (b"namespace Serilog;\n\npublic interface ILogger\n{\n"
              b"    ILogger ForContext(string name)\n#if FEATURE\n    {\n        return this;\n    }\n"
              b"#else\n        ;\n#endif\n\n    void Write(int level);\n}\n")
    tags = extract_tags("ILogger.cs", "csharp", source)
    assert [(d.kind, d.qualified_name, d.start_line, d.end_line, d.signature)
            for d in tags.definitions] == [
        ("interface", "Serilog.ILogger", 3, 15, "public interface ILogger { ... }"),
        ("method", "Serilog.ILogger.ForContext", 5, 9, "    ILogger ForContext(string name) { ... }"),
        ("method", "Serilog.ILogger.Write", 14, 14, "    void Write(int level);")]


def test_csharp_else_branches_between_members_are_kept() -> None:
    # where the grammar parses the directives (between members), both branches are tagged
    source = (b"class T\n{\n#if A\n    void OnA() { }\n#else\n    void OnB() { }\n#endif\n}\n")
    tags = extract_tags("T.cs", "csharp", source)
    assert [d.qualified_name for d in tags.definitions] == ["T", "T.OnA", "T.OnB"]


@pytest.mark.parametrize("gap", [b"\n\n\n", b""])
def test_csharp_an_unrelated_error_keeps_the_else_members(gap: bytes) -> None:
    """Review 31 #2: any parse error in a file with a `#` re-parsed it with the `#else`
    branches blanked, and kept that tree: `SlowPath` was lost to `var x = ;`. The first
    branches are parsed only for an error near a directive (``gap``: lines between them),
    and kept only with fewer errors (next to the directive, blanking `#else` mends
    nothing)."""
    source = (b"class C\n{\n    void Broken() { var x = ; }\n" + gap
              + b"#if NET8\n    void FastPath() { }\n#else\n    void SlowPath() { }\n#endif\n}\n")
    tags = extract_tags("C.cs", "csharp", source)
    assert [d.qualified_name for d in tags.definitions] == [
        "C", "C.Broken", "C.FastPath", "C.SlowPath"]


def test_csharp_if_false_takes_the_else_branch() -> None:
    """Review 31 #3: `#if false` (code commented out) kept the dead branch, here `Old` and
    a block body, and blanked the live one."""
    source = (b"class C\n{\n    int F()\n#if false\n    { return 1; }\n    void Old() { }\n"
              b"#else\n    => 2;\n    void New() { }\n#endif\n}\n")
    tags = extract_tags("C.cs", "csharp", source)
    assert [(d.qualified_name, d.signature) for d in tags.definitions] == [
        ("C", "class C { ... }"), ("C.F", "    int F() ..."), ("C.New", "    void New() { ... }")]


def test_cpp_macros_before_declarations_are_not_types() -> None:
    """Trial 13: nlohmann/json's `NLOHMANN_BASIC_JSON_TPL_DECLARATION class basic_json`
    was no class, a `JSON_HEDLEY_*` attribute glued onto a member's name (`basic_json
    parse`), `sax_parse` after `JSON_HEDLEY_NON_NULL(3)` was lost and `JSON_INLINE_VARIABLE`
    made `npos` a field named `std`. Such macros are read as blank for a second parse;
    signatures keep them."""
    source = (b"JSON_TPL_DECLARATION\nclass basic_json\n{\n  JSON_PRIVATE_UNLESS_TESTED:\n"
              b"    JSON_HEDLEY_WARN_UNUSED_RESULT\n    static basic_json parse(int i)\n"
              b"    {\n        JSON_TRY\n        {\n            return basic_json();\n        }\n"
              b"        JSON_CATCH(...) {}\n    }\n"
              b"    static JSON_INLINE_VARIABLE constexpr std::size_t npos = 0;\n"
              b"    JSON_HEDLEY_NON_NULL(3)\n    bool sax_parse(int* sax)\n    {\n"
              b"        return true;\n    }\n};\n")
    tags = extract_tags("json.hpp", "cpp", source)
    assert [(d.kind, d.qualified_name, d.start_line, d.end_line, d.signature)
            for d in tags.definitions] == [
        ("class", "basic_json", 2, 20, "class basic_json { ... };"),
        ("method", "basic_json.parse", 6, 13, "    static basic_json parse(int i) { ... }"),
        ("field", "basic_json.npos", 14, 14,
         "    static JSON_INLINE_VARIABLE constexpr std::size_t npos = 0;"),
        ("method", "basic_json.sax_parse", 16, 19, "    bool sax_parse(int* sax) { ... }")]


@pytest.mark.parametrize("source", [
    b"DWORD count = 0;\nHANDLE Open(int mode);\n",
    b"TEST(Suite, Name)\n{\n    int x = 1;\n}\n",
    b"LOG_LEVEL\n    + 1;\n",
    b"NTSTATUS\nDriverEntry(PDRIVER_OBJECT d)\n{\n}\n",
    b"HRESULT\nWidget::Draw(int x)\n{\n}\n",
    b"VEC3 operator+(VEC3 a, VEC3 b);\n",
    b"enum Color {\n    RED,\n    GREEN\n};\n",
    b"int f(void) {\nFAIL:\n    return 1;\n}\n",
    b"int x = c ?\n    FOO :\n    bar();\n",
    b"const char *s =\n    PREFIX\n    \"abc\";\n",
])
def test_blank_macros_keeps_a_macro_that_is_the_type_or_opens_a_body(source: bytes) -> None:
    """Review 32 #1, #2: a macro alone on its line was blanked unless an operator followed,
    so a return type above its function's name, the last enumerator, a goto label, a
    ternary's operand and a string's prefix were blanked."""
    assert blank_macros(source) == source


@pytest.mark.parametrize(("source", "expected"), [
    (b"BOOL\nWINAPI\nDllMain(int h);\n", b"BOOL\n      \nDllMain(int h);\n"),
    (b"JSON_A\nJSON_B(1)\nstatic bool f();\n", b"      \n         \nstatic bool f();\n"),
    (b"  JSON_NON_NULL(3)\n  exception(int id);\n", b" " * 18 + b"\n  exception(int id);\n"),
    (b"  JSON_PRIVATE:\n    // c\n    json_pointer top() const;\n",
     b"               \n    // c\n    json_pointer top() const;\n"),
    (b"JSON_EXPLICIT operator T() const;\n", b"              operator T() const;\n"),
])
def test_blank_macros_blanks_a_macro_before_a_declaration(source: bytes, expected: bytes) -> None:
    # the first of two macros above a name is its type, the next an attribute; a
    # function-like macro is no type (so not a constructor's); comments are skipped
    assert blank_macros(source) == expected


def test_blank_macros_reads_the_shapes_that_were_quadratic() -> None:
    """Review 32 #4: each macro alone on its line copied the rest of the file (7 s on 1 MB),
    the declaration pattern backtracked on `a::a::...` (7 s on one 64 KB line), a search
    for `*/` ran per macro in comments. What they give; their time on 1 MB is measured by
    benchmarks/bench_macros.py."""
    assert blank_macros(b"FOO\n" * 3) == b"   \n   \nFOO\n"  # the last continues nothing
    assert blank_macros(b"FOO " + b"a::" * 3 + b";\n") == b"FOO a::a::a::;\n"
    assert blank_macros(b"FOO\n/*\n" * 2 + b"*/\n") == b"FOO\n/*\nFOO\n/*\n*/\n"


def test_c_return_types_and_enumerators_survive_the_macro_parse() -> None:
    """Review 32 #1, #2: with the second parse taken for `JSON_API`, `DriverEntry` lost its
    first line and return type, and `Color.GREEN` was lost."""
    source = (b"JSON_API\nstruct Config {\n    int a;\n};\nNTSTATUS\nDriverEntry(int d)\n{\n"
              b"    return 0;\n}\nenum Color {\n    RED,\n    GREEN\n};\n")
    tags = extract_tags("drv.c", "c", source)
    assert [(d.qualified_name, d.start_line, d.signature) for d in tags.definitions] == [
        ("Config", 2, "struct Config { ... };"), ("Config.a", 3, "    int a;"),
        ("DriverEntry", 5, "NTSTATUS\nDriverEntry(int d) { ... }"),
        ("Color", 10, "enum Color { ... };"), ("Color.RED", 11, "    RED"),
        ("Color.GREEN", 12, "    GREEN")]


def test_c_else_branches_are_kept_when_macros_mend_the_parse() -> None:
    """Review 32 #3: the C second parse blanked macros and `#else` branches together, so a
    file with one macro error lost `posix_only`. Macros alone are blanked first."""
    source = (b"JSON_API\nstruct Config {\n    int a;\n};\n#ifdef _WIN32\nint win_only(void);\n"
              b"#else\nint posix_only(void);\n#endif\n")
    tags = extract_tags("p.c", "c", source)
    assert [d.qualified_name for d in tags.definitions] == [
        "Config", "Config.a", "win_only", "posix_only"]


def test_cpp_second_parse_is_kept_for_fewer_lines_in_errors() -> None:
    """Review 32 #10: one ERROR node swallows the class and the lines after it; blanked,
    two small errors are left: more errors, fewer lines (counting errors lost `A`)."""
    source = (b"TPL_DECL\ntemplate <class T>\nclass A\n{\n  int a;\n};\n"
              b"int f() { x = ; }\nint g() { y = ; }\n")
    tags = extract_tags("a.hpp", "cpp", source)
    assert [d.qualified_name for d in tags.definitions] == ["A", "A.a", "f", "g"]


def test_a_struct_in_a_return_type_is_no_member_of_the_function() -> None:
    # review 32 #10: the node of `f` starts where `S` does, but `S` is not in its body
    tags = extract_tags("s.c", "c", b"struct S { int a; } f(void) { return s; }\n")
    assert [(d.qualified_name, d.parent) for d in tags.definitions] == [
        ("f", None), ("S", None), ("S.a", 1)]


@pytest.mark.parametrize(("source", "kept"), [
    (b"#if false\nold\n#else\nnew\n#endif\n", [b"new"]),
    (b"#if 0 // off\nold\n#elif X\nnew\n#else\nother\n#endif\n", [b"new"]),
    (b"#if false\nold\n#elif false\nolder\n#else\nnew\n#endif\n", [b"new"]),
    (b"#if true\nnew\n#else\nold\n#endif\n", [b"new"]),
    (b"#if 1\nnew\n#elif X\nold\n#endif\n", [b"new"]),
    (b"#if falsey\nnew\n#else\nold\n#endif\n", [b"new"]),
    (b"#if false\n#if A\nold\n#endif\n#else\nnew\n#endif\n", [b"new"]),
    (b"#ifndef X\nnew\n#else\nold\n#endif\n", [b"new"]),
    (b"#ifdef X\nnew\n#elif Y\nold\n#endif\n", [b"new"]),
])
def test_first_branches_takes_the_first_live_branch(source: bytes, kept: list[bytes]) -> None:
    # a condition that is literally false or 0 is dead; any other is taken as true
    assert first_branches(source).split() == kept
    assert len(first_branches(source)) == len(source)


@pytest.mark.parametrize(("source", "expected"), [
    (b"typedef struct redisReadTask {\n    int type;\n} redisReadTask;\n",
     [("struct", "redisReadTask", "typedef struct redisReadTask { ... } redisReadTask;", None),
      ("field", "redisReadTask.type", "    int type;", 0)]),
    (b"typedef struct node {\n    int v;\n} node_t;\n",
     [("type", "node_t", "typedef struct node { ... } node_t;", None),
      ("struct", "node", "typedef struct node { ... } node_t;", None),
      ("field", "node.v", "    int v;", 1)]),
    (b"typedef enum mode { READ } mode;\n",
     [("enum", "mode", "typedef enum mode { ... } mode;", None), ("constant", "mode.READ", "READ", 0)]),
])
def test_a_typedef_struct_is_one_declaration_as_written(source: bytes, expected: list) -> None:
    """Trial 12: `typedef struct X {...} X;` was a typedef and an invented `struct X { ... }`
    (no `;`), two declarations in a signature block."""
    tags = extract_tags("read.h", "c", source)
    assert [(d.kind, d.qualified_name, d.signature, d.parent) for d in tags.definitions] == expected


@pytest.mark.parametrize(("source", "expected"), [
    (b"class M {\n  companion object : Factory<M> {\n    fun parse() = 1\n  }\n}\n",
     [("class", "M"), ("class", "M.Companion"), ("method", "M.Companion.parse")]),
    (b"class M {\n  private companion object Named : F { fun parse() = 1 }\n}\n",
     [("class", "M"), ("class", "M.Named"), ("method", "M.Named.parse")]),
    (b"class M {\n  companion object\n}\n", [("class", "M"), ("class", "M.Companion")]),
])
def test_kotlin_unnamed_companion_object_with_a_supertype(source: bytes, expected: list) -> None:
    """Review 31 #6: the unnamed companion was captured only when `{` followed `object`, so
    `companion object : Factory<M> {` (kotlinx.serialization, KLogging) gave `M.parse`."""
    tags = extract_tags("M.kt", "kotlin", source)
    assert [(d.kind, d.qualified_name) for d in tags.definitions] == expected


def test_kotlin_data_class_companion_and_extension_property() -> None:
    """Trial 12: `data class Money(...)` had the signature `data class Money( ... )` (the
    grammar names no `body` field), the unnamed companion object was no definition, and
    the extension property `val Money.isZero` was a variable without its receiver."""
    source = (b"data class Money(\n  val amount: Long,\n  val currency: String,\n) {\n"
              b"  companion object {\n    fun parse(t: String): Money = Money(0, t)\n  }\n}\n\n"
              b"val Money.isZero: Boolean\n  get() = amount == 0L\n")
    tags = extract_tags("Money.kt", "kotlin", source)
    assert [(d.kind, d.qualified_name, d.start_line, d.end_line, d.signature)
            for d in tags.definitions] == [
        ("class", "Money", 1, 8,
         "data class Money(\n  val amount: Long,\n  val currency: String,\n) { ... }"),
        ("field", "Money.amount", 2, 2, "  val amount: Long"),
        ("field", "Money.currency", 3, 3, "  val currency: String"),
        ("class", "Money.Companion", 5, 7, "  companion object { ... }"),
        ("method", "Money.Companion.parse", 6, 6, "    fun parse(t: String): Money ..."),
        ("field", "Money.isZero", 10, 10, "val Money.isZero: Boolean")]
