"""The scaling benchmark's generated repositories (benchmarks/gentree.py) have the shapes
the benchmark claims: both languages, packages, imports that resolve, classes, calls."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from gentree import generate, unresolved

from ctxopt.task import parse_task
from ctxopt.walk import walk_rings


def test_every_imported_name_is_defined_in_both_languages(tmp_path: Path) -> None:
    assert generate(tmp_path, 400) == 400
    python, typescript = list(tmp_path.rglob("*.py")), list(tmp_path.rglob("*.ts"))
    assert len(python) > 150 and len(typescript) > 150
    assert unresolved(tmp_path) == []
    texts = [p.read_text() for p in python + typescript]
    assert sum("\nclass " in t or "\nexport class " in t for t in texts) > 200
    assert sum("self._peer." in t or "this.peer." in t for t in texts) > 100  # member calls
    assert any('from "../' in t and "/" not in t.split('from "../')[1].split('"')[0]
               for t in texts)  # an import through a package's index.ts


def test_the_checker_reports_an_import_of_a_name_not_defined(tmp_path: Path) -> None:
    generate(tmp_path, 60)
    victim = next(p for p in sorted(tmp_path.rglob("*.py")) if "from ." in p.read_text())
    victim.write_text(victim.read_text().replace("from .", "from .missing_module_", 1))
    assert len(unresolved(tmp_path)) == 1


def test_output_is_a_pure_function_of_size_and_seed(tmp_path: Path) -> None:
    generate(tmp_path / "a", 80, seed=3)
    generate(tmp_path / "b", 80, seed=3)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*"))
    assert files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*"))
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
               for f in files if (tmp_path / "a" / f).is_file())


def test_ctxopt_walks_from_a_class_to_its_users_in_other_modules(tmp_path: Path,
                                                                   build_index) -> None:
    generate(tmp_path / "repo", 120)
    index = build_index(tmp_path / "repo")
    for language in ("py", "ts"):
        used = next(p for p in sorted((tmp_path / "repo").rglob(f"*.{language}"))
                    if p.name != "index.ts" and any(
                        f"{cls}(" in q.read_text() for q in (tmp_path / "repo").rglob(f"*.{language}")
                        if q != p for cls in _classes(p)))
        cls = next(c for c in _classes(used) if any(
            f"{c}(" in q.read_text() for q in (tmp_path / "repo").rglob(f"*.{language}") if q != used))
        items = walk_rings(index, parse_task(f"fix the {cls} bug"))
        files = {item.path for item in items if item.ring > 0}
        assert any(f != str(used.relative_to(tmp_path / "repo")) for f in files), (language, cls)


def _classes(path: Path) -> list[str]:
    return [line.split()[-2 if line.startswith("export") else 1].split("(")[0]
            for line in path.read_text().splitlines()
            if line.startswith(("class ", "export class "))]
