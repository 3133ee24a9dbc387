"""The JSON contract: provenance fields, the shipped schema, ``ctxopt schema``."""
import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

import ctxopt.render
from ctxopt import __version__
from ctxopt.cli import main
from ctxopt.contract import SCHEMAS, git_commit, load_schema
from ctxopt.curve import CURVE_SCHEMA_VERSION
from ctxopt.diff import DIFF_SCHEMA_VERSION


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


def gather_json(runner, root: Path) -> dict:
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root),
                                  "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_shipped_schemas_are_valid_draft_2020_12(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(load_schema(name))


@pytest.mark.parametrize(("name", "version"), [
    ("gather", ctxopt.render.SCHEMA_VERSION), ("diff", DIFF_SCHEMA_VERSION),
    ("curve", CURVE_SCHEMA_VERSION)])
def test_schema_version_matches_the_renderer(name: str, version: int) -> None:
    assert load_schema(name)["properties"]["schema_version"]["const"] == version


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_id_names_the_schema_and_its_version(name: str) -> None:
    # trial 38: gather's $id said version 2 while its schema_version was 3; an output
    # that carries no schema_version is at version 1
    schema = load_schema(name)
    version = schema.get("properties", {}).get("schema_version", {}).get("const", 1)
    assert schema["$id"] == f"urn:ctxopt:schema:{name}:{version}"


def test_provenance_outside_git(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    document = gather_json(runner, root)
    assert document["root"] == str(root.resolve())
    assert document["ctxopt_version"] == __version__
    assert document["commit"] is None
    files = sorted(p for p in root.rglob("*") if p.is_file() and ".ctxopt" not in p.parts)
    assert document["index"]["files"] == len(files)
    assert 0 < document["index"]["parsed"] <= len(files)
    assert document["calibrated_for"] is None


def test_commit_and_dirty_in_a_git_work_tree(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "one")
    head = git(root, "rev-parse", "HEAD")
    assert gather_json(runner, root)["commit"] == {"id": head, "dirty": False}
    (root / "notes.txt").write_text("untracked\n")  # untracked files (and .ctxopt/) do not count
    assert gather_json(runner, root)["commit"] == {"id": head, "dirty": False}
    db = root / "storage" / "db.py"
    db.write_text(db.read_text() + "\n# edited\n")
    assert gather_json(runner, root)["commit"] == {"id": head, "dirty": True}


def test_git_commit_is_none_before_the_first_commit(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    assert git_commit(tmp_path) is None


def test_schema_command_prints_the_shipped_schema(runner) -> None:
    result = runner.invoke(main, ["schema"], catch_exceptions=False)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == load_schema("gather")


def test_schema_command_rejects_an_unknown_name(runner) -> None:
    result = runner.invoke(main, ["schema", "nope"])
    assert result.exit_code == 2 and "nope" in result.stderr


def test_every_rendered_json_is_validated(runner, fixture_repo, monkeypatch) -> None:
    # the hook in conftest.py wraps render_json; a document off the contract fails the test
    import ctxopt.cli
    import ctxopt.diff
    import ctxopt.tags

    for render in (ctxopt.render.RENDERERS["json"], ctxopt.diff.DIFF_RENDERERS["json"],
                   ctxopt.tags.TAG_RENDERERS["json"], ctxopt.cli.render_index_json):
        assert getattr(render, "validates_contract", False), render
    monkeypatch.setattr(ctxopt.render, "SCHEMA_VERSION", 99)
    with pytest.raises(jsonschema.ValidationError):
        runner.invoke(main, ["gather", "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                             "--format", "json"], catch_exceptions=False)


def _json_blocks(runner, make_repo, code: str) -> list[dict]:
    root = make_repo({"p.go": code})
    result = runner.invoke(main, ["gather", "fix exclusiveAnnotation", "--root", str(root),
                                  "--budget", "8000", "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["blocks"]


# a `const (` group, then functions enough that the file is not shown whole
_GROUPED = ('package p\n\nconst (\n\tother = 1\n\texclusiveAnnotation = "x"\n)\n\n'
            + "".join(f"func Step{n}(x int) int {{\n\treturn x * {n}\n}}\n\n" for n in range(40))
            + "func Mark() string {\n\treturn exclusiveAnnotation\n}\n")


def test_a_json_block_is_never_only_the_closing_of_a_group(runner, make_repo) -> None:
    # trial 37: cobra's JSON had a block of lines [[29, 30]], content ")\n", the `)` of a
    # `const (` group below the block of one of its constants
    blocks = _json_blocks(runner, make_repo, _GROUPED)
    assert [b["lines"] for b in blocks if b["content"].strip() == ")"] == []
    assert any(b["content"].rstrip("\n").endswith('exclusiveAnnotation = "x"\n)') for b in blocks)


def test_json_lines_are_exactly_the_file_lines_of_the_content(runner, make_repo) -> None:
    # trial 37 read jotai's atom.ts [[86, 92]] over content ending in a newline as a range
    # one line too long: line 92 is blank, and the content split at newlines is lines 86-92
    # (a blank line at a block's end is kept, as the text shows it)
    lines = _GROUPED.split("\n")
    blocks = _json_blocks(runner, make_repo, _GROUPED)
    assert any(block["kind"] == "full" for block in blocks)
    for block in blocks:
        if block["kind"] == "full":
            (first, last), = block["lines"]
            assert block["content"].split("\n") == lines[first - 1:last]
