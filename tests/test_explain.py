"""``gather --explain``: a line per walker candidate and what the fitter did with it, off
the token-counted context (issue 17)."""
import json
import os
import re
from pathlib import Path

import pytest

from ctxopt.cli import main
from ctxopt.pipeline import GatherConfig, fit_prepared, gather, prepare

TASK = "fix Storage bug"
_LINE = re.compile(r"^ *(\d+\.\d+)  ring (\d)  (\S+):(\d+)-(\d+).* -> "
                   r"(full|truncated|signature|excluded|not read)(: .*)?$")


@pytest.fixture
def storage(fixture_repo, tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "index.db"))
    return fixture_repo("py_storage")


def test_explain_goes_to_stderr_and_leaves_the_context_alone(runner, storage) -> None:
    plain = runner.invoke(main, ["gather", TASK, "--root", str(storage), "--budget", "500"],
                          catch_exceptions=False)
    explained = runner.invoke(main, ["gather", TASK, "--root", str(storage), "--budget", "500",
                                     "--explain"], catch_exceptions=False)
    assert explained.exit_code == plain.exit_code == 0
    assert explained.stdout == plain.stdout
    lines = explained.stderr.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("# explain: "))
    entries = [_LINE.match(line) for line in lines[start + 1:]]
    assert all(entries), lines[start + 1:]
    items = prepare(storage, TASK, GatherConfig(budget=500)).items
    assert len(entries) == len(items) and lines[start].startswith(f"# explain: {len(items)} ")
    scores = [float(m.group(1)) for m in entries if m]
    assert scores == sorted(scores, reverse=True)
    assert {m.group(6) for m in entries if m} >= {"full", "excluded"}


def test_each_action_is_what_the_selection_did(storage) -> None:
    prepared = prepare(storage, TASK, GatherConfig(budget=300))
    result = fit_prepared(prepared, 300, explain=True)
    assert result.explained is not None
    shown = {(b.path, b.start_line, b.end_line): b for b in result.selection.blocks}
    dropped = {(d.path, d.start_line, d.end_line): d
               for d in (*result.selection.truncated, *result.selection.excluded)}
    for entry in result.explained:
        assert entry.block is not None
        if entry.action == "full":
            assert entry.block in shown and entry.block not in dropped
        else:
            assert dropped[entry.block].action == entry.action
            assert dropped[entry.block].reason == entry.detail
    # an excluded definition says which budget shows it, and that budget does
    excluded = next(e for e in result.explained if e.action == "excluded")
    budget = int(re.search(r"shown from a budget of (\d+)", excluded.detail).group(1))
    larger = gather(storage, TASK, GatherConfig(budget=budget))
    assert any(b.path == excluded.block[0] and b.start_line >= excluded.block[1]
               and b.end_line <= excluded.block[2] for b in larger.selection.blocks)


def test_a_block_the_walker_shows_as_its_signature_says_signature(storage) -> None:
    # trial: tests and word matches the walker asks for as signatures, shown so, read
    # 'full' (the fitter had not reduced them, so no record of its own said otherwise);
    # at 640 tokens a test is still its signature (all of it shown whole takes 677)
    result = fit_prepared(prepare(storage, TASK, GatherConfig(budget=640)), 640,
                          explain=True)
    shown = {(b.path, b.start_line, b.end_line): b.kind.value for b in result.selection.blocks}
    assert "signature" in shown.values()
    kept = [e for e in result.explained if e.block in shown]
    assert kept and all(e.action == shown[e.block] for e in kept)


def test_explain_in_json_is_under_its_own_key(runner, storage) -> None:
    def document(*extra: str) -> dict:
        result = runner.invoke(main, ["gather", TASK, "--root", str(storage), "--budget", "300",
                                      "--format", "json", *extra], catch_exceptions=False)
        assert result.exit_code == 0
        return json.loads(result.stdout)  # validated against the schema (conftest)

    plain, explained = document(), document("--explain")
    assert "explain" not in plain
    assert explained.pop("explain")[0]["action"] in ("full", "truncated")
    assert explained == plain


def test_names_not_utf8_or_with_a_newline_are_escaped_and_found_shown(runner, make_repo,
                                                                     tmp_path) -> None:
    # trial F7: src/caf\xe9.py read "not read" with a \udce9 surrogate, src/new<LF>line.py
    # took two lines, though both blocks were shown
    root = make_repo({"app.py": "x = 1\n"})
    (root / os.fsdecode(b"caf\xe9.py")).write_text("def latin():\n    return 1\n")
    (root / "new\nline.py").write_text("def nl():\n    return 2\n")
    args = ["gather", "fix latin and nl", "--root", str(root), "--explain",
            "--index", str(tmp_path / "index.db")]
    text = runner.invoke(main, args, catch_exceptions=False)
    lines = text.stderr.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("# explain: 2 "))
    assert sorted(line.split()[3].split(":")[0] for line in lines[start + 1:]) == [
        "caf\\xe9.py", "new\\x0aline.py"]
    assert all(line.endswith(" -> full") for line in lines[start + 1:])
    document = json.loads(runner.invoke(main, [*args, "--format", "json"]).stdout)
    assert {e["file"] for e in document["explain"]} == {b["file"] for b in document["blocks"]} \
        == {"caf\\xe9.py", "new\\x0aline.py"}
    assert {e["action"] for e in document["explain"]} == {"full"}


def test_a_header_moved_below_its_doc_comment_is_explained_by_the_block_that_shows_it(
        make_repo) -> None:
    # trial 13: gson's class header item (the walker's range: the Javadoc's first lines)
    # was explained by the rest of its file, lines 1-139, never shown, and read "full"
    doc = "".join(f" * Line {i} of the prose about the writer.\n" for i in range(30))
    body = "".join(f"  int field{i} = {i};\n" for i in range(200))
    source = (f"package w;\n\n/**\n{doc} */\npublic class Writer {{\n{body}"
              "  public void flushAll() {\n    field0 = 1;\n  }\n}\n")
    root = make_repo({"src/Writer.java": source})
    prepared = prepare(root, "fix flushAll", GatherConfig(budget=600))
    for budget, action in ((200, "signature"), (600, "full")):  # the rest not shown, shown
        result = fit_prepared(prepared, budget, explain=True)
        shown = {(b.path, b.start_line, b.end_line): b for b in result.selection.blocks}
        header = next(e for e in result.explained if e.item.reason.startswith("contains"))
        assert header.block in shown and header.action == shown[header.block].kind.value == action
        assert "public class Writer {" in shown[header.block].content
