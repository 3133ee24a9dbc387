"""Shared fixtures: copies of the fixture repositories, a file-table repo factory, a runner.

Every JSON document the tests make ctxopt render (gather's, diff's, tags' and index's,
however they are reached: the library, the renderer tables, the CLI) is validated against
the shipped JSON Schema: the
renderer is wrapped here, before any test module imports it. Output made in another
process (the MCP server) is checked with ``validate_contract``.
"""
from __future__ import annotations

import contextlib
import functools
import json
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import settings

import ctxopt
import ctxopt.cli
import ctxopt.contract
import ctxopt.curve
import ctxopt.diff
import ctxopt.render
import ctxopt.tags
from ctxopt.contract import SCHEMAS, load_schema
from ctxopt.store import IndexOptions, StoredIndex, open_index

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60)
settings.register_profile("dev", deadline=None, max_examples=60)
settings.load_profile("ci")

_VALIDATORS = {name: jsonschema.Draft202012Validator(load_schema(name), format_checker=None)
               for name in SCHEMAS}


def validate_contract(name: str, document: Any) -> Any:
    """Raise ``jsonschema.ValidationError`` unless ``document`` follows schema ``name``."""
    _VALIDATORS[name].validate(document)
    return document


def _validated(render: Callable[..., str], schema: str = "gather") -> Callable[..., str]:
    @functools.wraps(render)
    def render_and_validate(*args: Any, **kwargs: Any) -> str:
        text = render(*args, **kwargs)
        validate_contract(schema, json.loads(text))
        return text

    render_and_validate.validates_contract = True  # type: ignore[attr-defined]
    return render_and_validate


ctxopt.render.render_json = ctxopt.render.RENDERERS["json"] = _validated(ctxopt.render.render_json)
ctxopt.render_json = ctxopt.render.render_json
ctxopt.diff.render_json = ctxopt.diff.DIFF_RENDERERS["json"] = _validated(ctxopt.diff.render_json,
                                                                          "diff")
ctxopt.tags.render_tags_json = ctxopt.tags.TAG_RENDERERS["json"] = _validated(
    ctxopt.tags.render_tags_json, "tags")
ctxopt.contract.render_index_json = ctxopt.cli.render_index_json = _validated(
    ctxopt.contract.render_index_json, "index")
ctxopt.curve.render_curve_json = _validated(ctxopt.curve.render_curve_json, "curve")


@pytest.fixture
def fixture_repo(tmp_path: Path) -> Callable[[str], Path]:
    """Copy ``fixtures/<name>`` into a temporary directory and return its absolute path."""

    def copy(name: str) -> Path:
        destination = tmp_path / name
        shutil.copytree(FIXTURES / name, destination, ignore=shutil.ignore_patterns(".ctxopt"))
        return destination

    return copy


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., Path]:
    """Write a {relative path: content} table under a temporary root (``tmp_path / name``,
    name ``repo`` unless given) and return the root."""

    def make(files: dict[str, str | bytes], name: str = "repo") -> Path:
        root = tmp_path / name
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


@pytest.fixture
def contract() -> Callable[[str, Any], Any]:
    """``validate_contract``: check a document made elsewhere (another process)."""
    return validate_contract


@pytest.fixture(autouse=True)
def _parse_cache_in_tmp(monkeypatch: pytest.MonkeyPatch,
                        tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every test's parse cache (``store.parsecache``) in a directory of its own, never
    the user's cache directory; a test that wants it elsewhere sets its own."""
    directory = tmp_path_factory.mktemp("parse-cache")
    monkeypatch.setenv("CTXOPT_PARSE_CACHE", str(directory))
    return directory


@pytest.fixture(scope="session", autouse=True)
def _config_dir_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The suite's ctxopt configuration directory (token table cache, calibration:
    ``calibration.user_config_dir``) and cache directory (the memo:
    ``calibration.user_cache_dir``) are directories of their own, never the user's: the
    suite wrote hundreds of MB of memo there, shared with every other run on the machine.
    A test that wants them elsewhere sets its own."""
    directory = tmp_path_factory.mktemp("config")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CTXOPT_CONFIG_DIR", str(directory))
        patch.setenv("CTXOPT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield directory


@contextlib.contextmanager
def sigint_caught() -> Iterator[None]:
    """SIGINT caught by Python in this process inside the block, so that the processes
    it starts begin with SIGINT at its default and raise ``KeyboardInterrupt`` on it.

    A process started with SIGINT ignored keeps it ignored (Python and the shells agree:
    that is how a background job ``cmd &`` of a shell without job control is shielded
    from Ctrl-C). The test run itself may have been started that way, and then a
    process it starts could not be interrupted at all."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def fenced_text(blocks: list) -> str:
    """The text ``render_text`` gives for ``blocks`` (of one file) from below its fence line,
    checked to be what the fitter measures (``render.Layout``: the text's token count)."""
    from ctxopt.model import Intent, Result, Selection
    from ctxopt.tokens import count_tokens

    result = Result(task="t", intent=Intent.GENERAL, budget=1000,
                    selection=Selection(blocks=tuple(blocks)))
    rendered = ctxopt.render.render_text(result, count_tokens)
    assert ctxopt.render.Layout(result, count_tokens, additive=True).tokens(
        result.selection) == count_tokens(rendered)
    return rendered.split("```", 1)[1].split("\n", 1)[1]

