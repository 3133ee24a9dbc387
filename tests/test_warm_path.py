"""The warm gather's shortcuts answer exactly as the plain queries they replace."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ctxopt import calibration, seeds
from ctxopt.store import IndexOptions, edges, open_index, schema

KINDS = ("references", "inherits", "tests")


def _reference_any_case(index, name: str) -> list[str]:
    """The case-insensitive lookup as the whole name table gives it."""
    found: list[str] = []
    for known in index.name_counts():
        if known.lower() == name.lower():
            found += index.definitions_named(known)
    return found


def test_definitions_named_any_case_matches_the_name_table(make_repo, build_index) -> None:
    root = make_repo({
        "b/late.py": "class Blueprint:\n    pass\n\nBLUEPRINT = 1\n",
        "a/early.py": "def blueprint():\n    pass\n\nclass BluePrint:\n    pass\n",
        "a/other.py": "def unrelated():\n    pass\n",
    })
    index = build_index(root)
    found = index.definitions_named_any_case("BLUEPRINT")
    assert sorted(found) == sorted(index.definitions_named("Blueprint") + index.definitions_named("blueprint")
                                   + index.definitions_named("BluePrint")
                                   + index.definitions_named("BLUEPRINT"))
    assert index.definitions_named_any_case("nothing") == []
    fresh = build_index(root)
    assert _reference_any_case(fresh, "BLUEPRINT") == found  # names in first-definition order
    assert fresh.definitions_named_any_case("blueprint") == found  # with the table loaded


def test_edges_in_of_one_kind_are_those_of_all_kinds(fixture_repo, build_index) -> None:
    """Incoming edges are resolved once per name and shared by the definitions of that
    name: asking for one kind, or for a namesake first, changes nothing."""
    root = fixture_repo("py_storage")
    index = build_index(root)
    nodes = [n for name in sorted(index.name_counts()) for n in index.definitions_named(name)]
    every = {node: index.edges_in(node, KINDS) for node in reversed(nodes)}
    fresh = build_index(root)
    for node in nodes:
        for kind in KINDS:
            assert fresh.edges_in(node, (kind,)) == [e for e in every[node] if e[1] == kind]
    assert any(every.values())


def test_import_ctxopt_loads_no_pipeline() -> None:
    code = ("import sys, ctxopt\n"
            "assert 'ctxopt.pipeline' not in sys.modules and 'ctxopt.store' not in sys.modules\n"
            "assert callable(ctxopt.gather) and ctxopt.GatherConfig().budget > 0\n"
            "assert 'gather' in dir(ctxopt)\n"
            "try:\n    ctxopt.no_such_name\nexcept AttributeError:\n    pass\n"
            "else:\n    raise SystemExit('no AttributeError')\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_warm_gather_loads_nothing_only_an_update_needs(fixture_repo, tmp_path) -> None:
    """A gather on a current index imports no parser, scanner, worker or thread pool
    machinery, no import resolver, no gitignore compiler (the tree has no ignore file) and
    no TOML reader (nor a configuration file), and compiles no Unicode pattern its ASCII
    text does not need (import time is a fifth of a warm gather's cost)."""
    root = fixture_repo("py_storage")
    (root / ".gitignore").unlink()  # (with it, the walk compiles its patterns)
    database = tmp_path / "index.db"
    command = ["gather", "storage backend error", "--root", str(root), "--index", str(database),
               "--parse-cache", "off", "--budget", "2000", "-o", str(tmp_path / "out.txt")]
    code = ("import sys\nfrom ctxopt.cli import main\nfrom ctxopt import lexical\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
            "loaded = [m for m in ('tree_sitter', 'multiprocessing', 'concurrent.futures',"
            " 'pickle', 'detect_secrets', 'pathspec', 'tomllib', 'queue', 'ctxopt.store.scan',"
            " 'ctxopt.store.workers', 'ctxopt.parsing.parse', 'ctxopt.graph.imports',"
            " 'ctxopt.graph.manifests') if m in sys.modules]\n"
            "compiled = lexical._unicode.cache_info().currsize\n"
            "print(loaded, compiled)\n")
    subprocess.run([sys.executable, "-c", code, *command], check=True, capture_output=True)  # cold
    warm = subprocess.run([sys.executable, "-c", code, *command], check=True,
                          capture_output=True, text=True)
    assert warm.stdout.split("\n")[-2] == "[] 0"


def test_user_config_dir_follows_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv(calibration.CONFIG_DIR_ENV, raising=False)
    if not sys.platform.startswith("linux"):
        pytest.skip("platformdirs reads XDG_CONFIG_HOME on Linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "one"))
    first = calibration.user_config_dir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "two"))
    second = calibration.user_config_dir()
    assert first.is_relative_to(tmp_path / "one") and second.is_relative_to(tmp_path / "two")
    monkeypatch.setenv(calibration.CONFIG_DIR_ENV, str(tmp_path / "own"))
    assert calibration.user_config_dir() == tmp_path / "own"


def _every_edge_in(index) -> dict:
    return {node: index.edges_in(node, KINDS) for name in sorted(index.name_counts())
            for node in index.definitions_named(name)}


def test_a_warm_index_reads_the_uses_it_resolved_before(fixture_repo, tmp_path, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    options = IndexOptions(path=tmp_path / "index.db", jobs=1)
    index, _ = open_index(root, options)
    with index:
        expected = _every_edge_in(index)
    assert any(expected.values())

    def no_resolving(*args: object) -> None:
        raise AssertionError("resolved again")

    monkeypatch.setattr(edges, "resolve", no_resolving)
    index, _ = open_index(root, options)
    with index:
        assert _every_edge_in(index) == expected


def test_uses_resolved_in_an_outdated_snapshot_are_not_kept(fixture_repo, tmp_path) -> None:
    root = fixture_repo("py_storage")
    database = tmp_path / "index.db"
    index, _ = open_index(root, IndexOptions(path=database, jobs=1))
    with index:
        _every_edge_in(index)
        with sqlite3.connect(database) as other:  # an update commits meanwhile
            other.execute(schema.BUMP_GENERATION)
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT COUNT(*) FROM resolved").fetchone() == (0,)


class _Lines:
    """An index stand-in that counts the first lines read."""

    def __init__(self, lines: dict[str, int]) -> None:
        self.lines, self.read = lines, 0

    def is_file(self, node: str) -> bool:
        return "#" not in node

    def path_of(self, node: str) -> str:
        return node.rpartition("#")[0] or node

    def start_line(self, node: str) -> int:
        self.read += 1
        return self.lines[node]


@pytest.mark.parametrize("limit", [0, 1, 3, 5, 50])
def test_best_first_is_the_head_of_the_full_order(limit: int) -> None:
    lines = {f"{path}#{i}": (7 * i) % 5 + 1 for path in ("a.py", "b.py", "c.py") for i in range(6)}
    nodes = [*lines, "a.py", "b.py"]
    score = {node: (len(node) + i) % 3 / 2 for i, node in enumerate(nodes)}
    index = _Lines(lines)
    full = sorted(nodes, key=lambda n: (-score[n], seeds.node_order(index, n)))[:limit]
    index.read = 0
    assert seeds.best_first(index, nodes, score.__getitem__, limit) == full
    if limit < 5:
        assert index.read < len(lines) // 2  # only the ties at the cut are ordered by line


def test_start_lines_read_in_bulk_are_those_of_the_definitions(fixture_repo, build_index) -> None:
    root = fixture_repo("py_storage")
    nodes = [n for name in sorted(build_index(root).name_counts())
             for n in build_index(root).definitions_named(name)]
    bulk, plain = build_index(root), build_index(root)
    bulk.prefetch_start_lines([*nodes, "storage/db.py"])
    assert [bulk.start_line(n) for n in nodes] == [plain.definition(n).start_line for n in nodes]


def test_first_lines_deferred_together_are_read_once(fixture_repo, build_index,
                                                     monkeypatch) -> None:
    """The first lines of the nodes deferred together are read when the first of them is
    asked for, once: a node whose file's definitions were read meanwhile (not in that
    read) does not read them all again (the first gather of a task on sympy read a batch
    of 5,000 callers 2,374 times)."""
    root = fixture_repo("py_storage")
    index = build_index(root)
    nodes = [n for name in sorted(index.name_counts()) for n in index.definitions_named(name)]
    deferred = build_index(root)
    reads = []
    real = type(deferred).prefetch_start_lines
    monkeypatch.setattr(type(deferred), "prefetch_start_lines",
                        lambda self, batch: (reads.append(len(batch)), real(self, batch))[1])
    deferred.defer_start_lines(nodes)
    deferred.file_definitions(nodes[-1].rpartition("#")[0])  # (read whole: skipped below)
    assert [deferred.start_line(n) for n in nodes] == [index.definition(n).start_line
                                                       for n in nodes]
    assert reads == [len(nodes)]


def test_the_console_script_ends_after_its_exit_handlers_with_the_command_status(tmp_path) -> None:
    """``entry.run`` ends the process without the interpreter's teardown, but as the
    interpreter would end it: exit handlers run (the memo is written at exit), output
    flushed, the command's exit status kept."""
    mark = tmp_path / "handled"
    code = ("import atexit, sys\nfrom ctxopt.entry import run\n"
            f"atexit.register(lambda: open({str(mark)!r}, 'w').write('x'))\n"
            "sys.argv = ['ctxopt', *sys.argv[1:]]\nrun()\n")
    done = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout.startswith("ctxopt "), mark.read_text()) == (0, True, "x")
    mark.unlink()
    failed = subprocess.run([sys.executable, "-c", code, "--no-such-option"],
                            capture_output=True, text=True)
    assert failed.returncode == 2 and failed.stderr.strip() and mark.exists()


def test_opening_an_index_asks_git_about_the_root_once(make_repo, monkeypatch, tmp_path) -> None:
    """``open_index`` checks that the root is no git directory (``discover.check_root``,
    a git process) and the listing does not check it again."""
    from ctxopt import gitrepo

    root = make_repo({"a.py": "def f():\n    return 1\n"})
    asked = []
    real = gitrepo.git_directory_problem
    monkeypatch.setattr(gitrepo, "git_directory_problem", lambda at: asked.append(at) or real(at))
    index, _ = open_index(root, IndexOptions(path=tmp_path / "index.db", parse_cache=False))
    index.close()
    assert len(asked) == 1 and index.files == ["a.py"]


def test_the_console_script_collects_cycles_less_often(tmp_path) -> None:
    """``entry.run`` sets the collector's thresholds and freezes what loading made before
    the command runs (a warm gather spent 4.3% of its instructions collecting)."""
    code = ("import atexit, gc, sys\nfrom ctxopt.entry import run\n"
            "atexit.register(lambda: print(gc.get_threshold(), gc.get_freeze_count() > 0,"
            " file=sys.stderr))\n"
            "sys.argv = ['ctxopt', *sys.argv[1:]]\nrun()\n")
    done = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True)
    from ctxopt.entry import COLLECTOR_THRESHOLDS
    assert done.returncode == 0
    assert done.stderr.strip() == f"{COLLECTOR_THRESHOLDS} True"
