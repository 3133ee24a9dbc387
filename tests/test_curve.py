"""``ctxopt curve``: the rows are gather's selections at the same budgets, they grow with
the budget, and the table, JSON and plots say so (issue 17)."""
import json
import os
import pty
import struct
import subprocess
import sys
import zlib
from xml.etree import ElementTree
from pathlib import Path

import matplotlib.image
import numpy
import pytest

from ctxopt.cli import main
from ctxopt.curve import budget_curve, budgets_between, parse_budgets, render_curve_plot
from ctxopt.errors import UsageError
from ctxopt.pipeline import GatherConfig, gather
from test_fit_monotone import assert_monotone

TASK = "fix Storage bug"
BUDGETS = (60, 150, 300, 600, 1200, 12000)


@pytest.fixture
def storage(fixture_repo, tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "index.db"))
    return fixture_repo("py_storage")


def test_rows_are_the_selections_of_separate_gathers_at_the_same_budgets(storage) -> None:
    curve = budget_curve(storage, TASK, BUDGETS)
    assert [row.budget for row in curve.rows] == list(BUDGETS)
    assert curve.rows[0].used is None and curve.results[0] is None  # 60: too small
    assert curve.rows[0].minimum is not None and curve.rows[0].minimum > 60
    for row, result in zip(curve.rows[1:], curve.results[1:]):
        alone = gather(storage, TASK, GatherConfig(budget=row.budget))
        assert result is not None
        assert result.selection == alone.selection and result.upcoming == alone.upcoming
        assert row.used == alone.used <= row.budget
        blocks = alone.selection.blocks
        assert (row.blocks, row.files) == (len(blocks), len({b.path for b in blocks}))
        assert row.full + row.truncated + row.signature == row.blocks
        assert row.relevance == round(sum(b.score for b in blocks), 3)


def test_each_row_shows_what_the_row_before_showed_and_says_what_it_adds(storage) -> None:
    curve = budget_curve(storage, TASK, (100, 200, 400, 800, 1600, 3200))
    fitted = [(row, result) for row, result in zip(curve.rows, curve.results) if result]
    for (before, small), (after, large) in zip(fitted, fitted[1:]):
        assert_monotone(small.selection, large.selection)
        assert after.relevance >= before.relevance and after.blocks >= before.blocks
        assert len(after.added) == after.blocks - before.blocks
        for change in after.upgraded:
            assert change.kind == "full" and change.was in ("signature", "truncated")
    assert sum(len(row.added) for row, _ in fitted) == fitted[-1][0].blocks


def test_budget_lists_and_ranges() -> None:
    assert parse_budgets("4000, 1000,2_000,1000") == (1000, 2000, 4000)
    assert budgets_between(1000, 32000, 6) == (1000, 2000, 4000, 8000, 16000, 32000)
    assert budgets_between(500, 500, 1) == (500,)
    for bad in ("0", "abc", "", "1000,-5", "1.5"):
        with pytest.raises(UsageError):
            parse_budgets(bad)
    for low, high, steps in ((5000, 1000, 4), (0, 1000, 4), (1000, 2000, 1), (1, 2, 65)):
        with pytest.raises(UsageError):
            budgets_between(low, high, steps)


@pytest.mark.parametrize("arguments", [
    ["--budgets", "0"], ["--budgets", "abc"], ["--budgets", "0,abc"], ["--budgets", ",,"],
    ["--from", "5000", "--to", "1000"], ["--from", "0", "--to", "1000"],
    ["--budgets", "1000", "--from", "1000", "--to", "2000"], ["--from", "1000"],
    ["--steps", "0"], ["--steps", "4"], ["--from", "1000", "--to", "4000", "--steps", "0"],
    ["--from", "1000", "--to", "4000", "--steps", "1"], ["--from", "abc", "--to", "4000"],
])
def test_bad_budgets_are_one_error_line_and_exit_2(runner, storage, arguments) -> None:
    result = runner.invoke(main, ["curve", TASK, "--root", str(storage), *arguments])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: ")


def test_table_and_json(runner, storage) -> None:
    table = runner.invoke(main, ["curve", TASK, "--root", str(storage), "--budgets",
                                 "300,1200,12000"], catch_exceptions=False)
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0] == f"# ctxopt curve for: {TASK}"
    assert [line.split()[0] for line in lines[3:]] == ["300", "1200", "12000"]
    assert "+" in lines[3] and "(named" in lines[3]
    # the JSON renderer is validated against ctxopt/schema/curve.schema.json (conftest)
    document = json.loads(runner.invoke(main, ["curve", TASK, "--root", str(storage),
                                               "--budgets", "300,1200,12000", "--format",
                                               "json"], catch_exceptions=False).stdout)
    assert [row["budget"] for row in document["rows"]] == [300, 1200, 12000]
    assert document["task"] == TASK and document["root"] == str(storage.resolve())
    shown = [[f"{c['file']}:{c['kind']}" for c in row["added"]] for row in document["rows"]]
    assert all(shown[0]) and sum(map(len, shown)) == document["rows"][-1]["blocks"]


def test_nothing_found_exits_1(runner, storage) -> None:
    result = runner.invoke(main, ["curve", "zzqx quux", "--root", str(storage)])
    assert result.exit_code == 1 and "nothing relevant found" in result.stderr


def _png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of a PNG, each checked against its CRC; the file ends with IEND."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + body) == crc, kind
        chunks.append((kind, body))
        at += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1] == (b"IEND", b"")
    return chunks


def test_png_and_svg_plots_have_a_point_per_fitted_budget(runner, storage, tmp_path) -> None:
    png, svg = tmp_path / "curve.png", tmp_path / "curve.svg"
    for path in (png, svg):
        result = runner.invoke(main, ["curve", TASK, "--root", str(storage), "--budgets",
                                      ",".join(map(str, BUDGETS)), "-o", str(path),
                                      "--format", path.suffix[1:]], catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
    points = len(BUDGETS) - 1  # 60 tokens is too small: no point
    chunks = dict(_png_chunks(png.read_bytes()))
    assert struct.unpack(">II", chunks[b"IHDR"][:8]) == (700, 420)
    pixels = matplotlib.image.imread(png)  # decodes every row
    assert pixels.shape == (420, 700, 4) and len(numpy.unique(pixels.reshape(-1, 4), axis=0)) > 8
    keyword, text = chunks[b"tEXt"].split(b"\0")
    assert keyword == b"Description" and text.decode().startswith(f"{points} points (budget")
    assert text.decode().count(";") == points - 1
    tree = ElementTree.parse(svg)
    groups = {g.get("id"): g for g in tree.iter("{http://www.w3.org/2000/svg}g")}
    for gid in ("relevance", "relevance-full"):
        markers = list(groups[gid].iter("{http://www.w3.org/2000/svg}use"))
        assert len(markers) == points
    described = "".join(tree.getroot().itertext())
    assert f"{points} points (budget" in described


def test_o_replaces_a_file_as_gathers_o_does_and_a_png_is_not_for_a_terminal(
        runner, storage, tmp_path) -> None:
    target = tmp_path / "curve.txt"
    target.write_text("")  # (empty: a file not ctxopt's that holds text is refused)
    target.chmod(0o640)
    result = runner.invoke(main, ["curve", TASK, "--root", str(storage), "-o", str(target)])
    assert result.exit_code == 0 and result.stdout == ""
    assert target.read_text().startswith("# ctxopt curve for:")
    assert target.stat().st_mode & 0o777 == 0o640
    missing = runner.invoke(main, ["curve", TASK, "--root", str(storage), "-o",
                                   str(tmp_path / "no" / "such.png"), "--format", "png"])
    assert missing.exit_code == 2 and "does not exist" in missing.stderr


def test_a_plot_without_matplotlib_is_one_error_line(runner, storage, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    result = runner.invoke(main, ["curve", TASK, "--root", str(storage), "--format", "svg"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --format svg needs matplotlib")
    assert result.stderr.count("\n") == 1
    with pytest.raises(UsageError):
        render_curve_plot(budget_curve(storage, TASK, (1200,)), "svg")


def test_a_png_is_not_written_to_a_terminal(storage) -> None:
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "ctxopt", "curve", TASK, "--root",
                               str(storage), "--format", "png"], stdout=follower,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
        os.set_blocking(leader, False)
        try:
            written = os.read(leader, 4096)
        except BlockingIOError:
            written = b""
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 2 and written == b""
    assert done.stderr == "Error: a PNG is not for a terminal: write it with -o FILE\n"


@pytest.mark.parametrize("output_format", ["text", "png"])
def test_o_onto_a_directory_is_one_error_line_and_leaves_it(
        runner, storage, tmp_path, output_format) -> None:
    target = tmp_path / "out"
    target.mkdir()
    (target / "kept.txt").write_text("kept\n")
    result = runner.invoke(main, ["curve", TASK, "--root", str(storage), "-o", str(target),
                                  "--format", output_format])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "is a directory" in result.stderr
    assert [p.name for p in target.iterdir()] == ["kept.txt"]


def test_a_plot_without_matplotlib_leaves_the_output_file(runner, storage, tmp_path,
                                                          monkeypatch) -> None:
    target = tmp_path / "curve.png"
    target.write_bytes(b"old picture")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = runner.invoke(main, ["curve", TASK, "--root", str(storage), "--format", "png",
                                  "-o", str(target)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert target.read_bytes() == b"old picture"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".curve")] == []


def test_a_cut_then_whole_is_one_block_grown_not_a_new_one(make_repo, build_index) -> None:
    # trial 39: a cut names only the definitions it shows, so ripgrep's `Glob.ext` cut at
    # 1,000 tokens and whole at 2,000 was keyed anew: "+2 (named 2)", the block count the same
    from ctxopt.curve import candidate_key
    from ctxopt.fit import truncate_block
    from ctxopt.model import Item
    from ctxopt.source import read_blocks
    from ctxopt.tokens import Cl100kCounter, count_tokens

    body = "".join(f"    total = total + {n}\n" for n in range(20))
    root = make_repo({"a.py": f"def first():\n    total = 0\n{body}    return total\n"
                              "def second():\n    return 2\n"})
    items = [Item("a.py", 1, 23, 130.0, 0, "definition of first", "first"),
             Item("a.py", 24, 25, 120.0, 0, "definition of second", "second")]
    (whole,) = read_blocks(root, items, build_index(root), Cl100kCounter(), whole_files=False,
                           context_lines=0)
    cut = truncate_block(whole, 3, count_tokens)
    assert whole.symbols == ("first", "second") and cut.symbols == ("first",)
    key = candidate_key((whole,))
    assert key(cut) == key(whole)
