"""Shared fixtures: copies of the fixture repositories, a file-table repo factory, a runner."""
from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from ctxopt.store import IndexOptions, StoredIndex, open_index

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60)
settings.register_profile("dev", deadline=None, max_examples=60)
settings.load_profile("ci")


@pytest.fixture
def fixture_repo(tmp_path: Path) -> Callable[[str], Path]:
    """Copy ``fixtures/<name>`` into a temporary directory and return its absolute path."""

    def copy(name: str) -> Path:
        destination = tmp_path / name
        shutil.copytree(FIXTURES / name, destination, ignore=shutil.ignore_patterns(".ctxopt"))
        return destination

    return copy


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[[dict[str, str | bytes]], Path]:
    """Write a {relative path: content} table under a temporary root and return the root."""

    def make(files: dict[str, str | bytes]) -> Path:
        root = tmp_path / "repo"
        for relative, content in files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        root.mkdir(exist_ok=True)
        return root

    return make


@pytest.fixture
def build_index(tmp_path: Path) -> Iterator[Callable[..., StoredIndex]]:
    """Open the stored index of a root, its database under ``tmp_path`` (so that fixtures
    read in place are never written); every index opened is closed after the test."""
    opened: list[StoredIndex] = []

    def build(root: Path, **options: object) -> StoredIndex:
        database = tmp_path / "indexes" / f"{len(opened)}.db"
        index, _ = open_index(root, IndexOptions(path=database, jobs=1, **options))
        opened.append(index)
        return index

    yield build
    for index in opened:
        index.close()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
