"""CI snapshots: the manifest table, ``ctxopt snapshot`` and ``ctxopt diff`` on a real git
repository built here across two commits."""
import json
import subprocess
from pathlib import Path

import pytest

from ctxopt.cli import main
from ctxopt.snapshot import COLUMNS, manifest_name, parse_manifest, read_tasks

TASK = "fix Cart.total, compute_tax, apply_discount and refund_order"
CART = '''"""Shopping cart."""
import math


class Cart:
    """Items and their prices."""

    def __init__(self):
        self.items = []

    def add_item(self, name, price):
        self.items.append((name, price))

    def total(self):
        return math.fsum(price for _, price in self.items)
''' + "".join(f"\n\ndef shipping_zone_{n}(weight):\n    return {n} * weight + {n * 7 % 5}\n"
              for n in range(40))  # (a file too large to show whole: its definitions move)
TAX = '''"""Taxes."""


def compute_tax(amount, rate=0.2):
    """The tax on amount."""
    return round(amount * rate, 2)
'''
DISCOUNT = '''"""Discounts."""


def apply_discount(cart, rate):
    """Lower every price of cart by rate."""
    cart.items = [(n, p * (1 - rate)) for n, p in cart.items]
'''
REFUND = '''"""Refunds."""


def refund_order(order):
    """Give the money back: every item of the order, its taxes and its shipping, to the
    card or the account it was paid from, and mark the order refunded."""
    return -order.total()
'''


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


def write(root: Path, files: dict[str, str | None]) -> None:
    for name, text in files.items():
        path = root / name
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)


@pytest.fixture
def history(tmp_path: Path, runner):
    """A repository with two commits and a snapshot of each: (repo, base dir, head dir).

    The second commit moves Cart (a comment line on top of cart.py), edits compute_tax,
    removes apply_discount and adds refund_order."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (tmp_path / "tasks.txt").write_text(f"# the tasks\n{TASK}\n\nfix Cart bug\n")
    write(repo, {"shop/cart.py": CART, "shop/tax.py": TAX, "shop/discount.py": DISCOUNT})
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    snapshots = []
    for name in ("base", "head"):
        if name == "head":
            write(repo, {"shop/cart.py": "# Copyright the shop authors\n" + CART,
                         "shop/tax.py": TAX.replace("round(amount * rate, 2)",
                                                    "round(amount * rate, 4)"),
                         "shop/discount.py": None, "shop/refund.py": REFUND})
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "-m", "head")
        result = runner.invoke(main, ["snapshot", "--tasks", str(tmp_path / "tasks.txt"),
                                      "--root", str(repo), "-o", str(tmp_path / name),
                                      "--index", str(tmp_path / "index.db")],
                               catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
        snapshots.append(tmp_path / name)
    return repo, snapshots[0], snapshots[1]


def test_manifest_is_a_documented_table(runner, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, {"shop/cart.py": CART, "shop/tax.py": TAX})
    result = runner.invoke(main, ["gather", TASK, "--root", str(repo), "--format", "manifest",
                                  "--index", str(tmp_path / "i.db")], catch_exceptions=False)
    lines = result.stdout.splitlines()
    assert lines[:3] == ["# ctxopt manifest 2", f"# task: {TASK}",
                         lines[2]] and lines[2].startswith("# budget 12000 tokens, used ")
    assert lines[3].split("\t") == list(COLUMNS)
    rows = {(r.file, r.symbol): r for r in parse_manifest(result.stdout).rows}
    tax = rows[("shop/tax.py", "compute_tax")]
    assert (tax.start_line, tax.end_line, tax.kind) == (1, 6, "full")  # small: whole
    assert all(line.count("\t") == len(COLUMNS) - 1 for line in lines[3:])
    assert "." not in "".join(line.split("\t")[5] for line in lines[4:])  # tokens, no scores


def test_one_comment_line_on_top_only_moves_entries(runner, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, {"shop/cart.py": CART, "shop/tax.py": TAX})
    index = str(tmp_path / "i.db")
    before = runner.invoke(main, ["gather", TASK, "--root", str(repo), "--format", "manifest",
                                  "--index", index]).stdout
    write(repo, {"shop/cart.py": "# one more line\n" + CART})
    after = runner.invoke(main, ["gather", TASK, "--root", str(repo), "--format", "manifest",
                                 "--index", index]).stdout
    (tmp_path / "old.tsv").write_text(before)
    (tmp_path / "new.tsv").write_text(after)
    result = runner.invoke(main, ["diff", str(tmp_path / "old.tsv"), str(tmp_path / "new.tsv"),
                                  "--format", "json"], catch_exceptions=False)
    changes = json.loads(result.stdout)["tasks"][0]["changes"]
    # every definition's block of cart.py (too large to show whole) moves one line down,
    # its hash the same; tax.py, shown whole, stays; the one change is the rest of
    # cart.py above its first definition (``Tier.FILL``), which shows the new line
    assert {(c["status"], c["file"], c["symbol"]) for c in changes if c["status"] != "moved"} \
        == {("changed", "shop/cart.py", "-")}
    assert {c["file"] for c in changes} == {"shop/cart.py"}
    for change in (c for c in changes if c["status"] == "moved"):
        assert (change["before"]["start_line"] + 1, change["before"]["hash"]) == (
            change["after"]["start_line"], change["after"]["hash"])


def test_snapshot_writes_one_manifest_per_task(history) -> None:
    _, base, _ = history
    names = sorted(p.name for p in base.iterdir())
    assert names == sorted([manifest_name(TASK), manifest_name("fix Cart bug")])
    manifest = parse_manifest((base / manifest_name(TASK)).read_text())
    assert manifest.task == TASK
    assert {r.symbol for r in manifest.rows} >= {"Cart", "compute_tax", "apply_discount"}


def test_diff_reports_added_removed_changed_and_moved(runner, history, contract) -> None:
    _, base, head = history
    result = runner.invoke(main, ["diff", str(base), str(head), "--format", "json"],
                           catch_exceptions=False)
    assert result.exit_code == 0
    document = contract("diff", json.loads(result.stdout))
    tasks = {t["task"]: t for t in document["tasks"]}
    statuses = {(c["file"], c["symbol"]): c["status"] for c in tasks[TASK]["changes"]}
    # (Cart.total is named: Cart's header and its other members are blocks of their own)
    assert statuses == {("shop/cart.py", "Cart"): "moved", ("shop/cart.py", "Cart.total"): "moved",
                        ("shop/cart.py", "Cart.__init__"): "moved",
                        ("shop/tax.py", "compute_tax"): "changed",
                        ("shop/discount.py", "apply_discount"): "removed",
                        # (a small file is one block, whole: its other lines are in it)
                        ("shop/refund.py", "refund_order"): "added",
                        # the rest of cart.py: its top holds the new line, the rest moves
                        ("shop/cart.py", "-"): "changed",
                        ("shop/cart.py", "shipping_zone_0"): "moved"}
    assert tasks[TASK]["tokens_before"] > 0 and tasks[TASK]["tokens_after"] > 0
    # the other task saw Cart move (and its callers come and go), nothing change but the
    # rest of cart.py above its first definition, which holds the new comment
    other = {(c["file"], c["symbol"]): c["status"] for c in tasks["fix Cart bug"]["changes"]}
    assert other[("shop/cart.py", "Cart")] == "moved"
    assert [key for key, status in other.items() if status == "changed"] == [("shop/cart.py", "-")]


def test_diff_text_and_markdown(runner, history) -> None:
    _, base, head = history
    text = runner.invoke(main, ["diff", str(base), str(head)], catch_exceptions=False).stdout
    assert f"{TASK}: 1 added, 1 removed, 0 reshown, 2 changed, 4 moved; tokens " in text
    assert "  changed  shop/tax.py  compute_tax  lines 1-6 -> 1-6" in text
    markdown = runner.invoke(main, ["diff", str(base), str(head), "--format", "markdown"],
                             catch_exceptions=False).stdout
    assert markdown.startswith("## ctxopt context diff\n")
    assert "| removed | `shop/discount.py` | `apply_discount` | full | 1-6 |" in markdown


@pytest.mark.parametrize(("gates", "code"), [
    ("added", 1), ("removed", 1), ("changed", 1), ("moved", 1), ("changed,moved", 1),
    ("tokens>{grown_less_1}", 1), ("tokens>{grown}", 0), ("", 0),
])
def test_fail_on_gates_the_exit_code(runner, history, gates: str, code: int) -> None:
    _, base, head = history
    grown = max(parse_manifest((head / name).read_text()).used
                - parse_manifest((base / name).read_text()).used
                for name in (manifest_name(TASK), manifest_name("fix Cart bug")))
    assert grown > 0  # refund_order's docstring is longer than apply_discount's
    gates = gates.format(grown=grown, grown_less_1=grown - 1)
    result = runner.invoke(main, ["diff", str(base), str(head), "--fail-on", gates])
    assert result.exit_code == code, result.stderr
    if code:
        assert result.stderr.startswith("ctxopt: diff failed --fail-on ")


def test_fail_on_passes_when_nothing_changed(runner, history) -> None:
    _, base, _ = history
    result = runner.invoke(main, ["diff", str(base), str(base), "--fail-on",
                                  "added,removed,reshown,changed,moved,tokens>0"])
    assert result.exit_code == 0
    assert "0 added, 0 removed, 0 reshown, 0 changed, 0 moved" in result.stdout


@pytest.mark.parametrize("args", [
    ["--fail-on", "bogus"], ["--fail-on", "tokens>x"],
])
def test_bad_fail_on_is_a_usage_error(runner, history, args) -> None:
    _, base, head = history
    result = runner.invoke(main, ["diff", str(base), str(head), *args])
    assert result.exit_code == 2 and "unknown --fail-on condition" in result.stderr


def test_diff_of_a_file_that_is_not_a_manifest(runner, tmp_path: Path) -> None:
    (tmp_path / "a.tsv").write_text("hello\n")
    result = runner.invoke(main, ["diff", str(tmp_path / "a.tsv"), str(tmp_path / "a.tsv")])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"Error: {tmp_path / 'a.tsv'}:1: not a ctxopt manifest " \
        "(expected the header line 'file symbol hash lines kind tokens reason')"


@pytest.mark.parametrize("empty", ["old", "both", "new"])
def test_diff_of_a_directory_without_manifests_is_not_a_snapshot(runner, tmp_path: Path,
                                                                 empty: str) -> None:
    """Two empty directories passed with exit 0: a CI job comparing snapshots that were
    never written would never fail."""
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir(), new.mkdir()
    manifest = "# ctxopt manifest 2\nfile\tsymbol\thash\tlines\tkind\ttokens\treason\n"
    full = {"old": new, "new": old, "both": None}[empty]  # the side that holds a manifest
    if full is not None:
        (full / "a.tsv").write_text(manifest)
    bad = new if empty == "new" else old
    result = runner.invoke(main, ["diff", str(old), str(new)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert result.stderr == f"Error: {bad}: not a ctxopt snapshot (no *.tsv manifest in it)\n"


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("tasks.txt", "# c\nfix a\n\nfix b\n", [("fix a", None), ("fix b", None)]),
    ("tasks.json", '["fix a", {"task": "fix b", "budget": 900}]', [("fix a", None), ("fix b", 900)]),
    ("tasks.toml", '[[task]]\ntext = "fix a"\nbudget = 500\n[[task]]\ntext = "fix b"\n',
     [("fix a", 500), ("fix b", None)]),
])
def test_tasks_files(tmp_path: Path, name: str, text: str, expected) -> None:
    (tmp_path / name).write_text(text)
    assert [(t.text, t.budget) for t in read_tasks(tmp_path / name)] == expected


def test_a_tasks_file_saved_on_windows_reads_as_its_tasks(tmp_path: Path) -> None:
    for encoding in ("utf-16", "utf-8-sig"):
        (tmp_path / "tasks.txt").write_bytes("fix a\r\nfix b\r\n".encode(encoding))
        assert [t.text for t in read_tasks(tmp_path / "tasks.txt")] == ["fix a", "fix b"]


@pytest.mark.parametrize(("data", "message"), [
    (b"fix a\x00\x01\n", "binary (NUL or control bytes), not a tasks file"),
    (b"fix caf\xe9\n", "not UTF-8 text (nor UTF-16 or UTF-32 with a BOM)"),
])
def test_a_tasks_file_that_is_not_text_exits_2(runner, tmp_path: Path, data: bytes,
                                               message: str) -> None:
    (tmp_path / "tasks.txt").write_bytes(data)
    result = runner.invoke(main, ["snapshot", "--tasks", str(tmp_path / "tasks.txt"), "--root",
                                  str(tmp_path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {tmp_path / 'tasks.txt'}: {message}\n"


@pytest.mark.parametrize(("name", "text", "message"), [
    ("tasks.txt", "\n# only a comment\n", "no task in the file"),
    ("tasks.json", '{"task": "x"}', "expected a list of tasks"),
    ("tasks.json", '["a", {"task": "b", "budget": 0}]', "must be a positive integer"),
    ("tasks.toml", "[[task]]\nbudget = 5\n", "needs its text"),
    ("tasks.txt", "fix a\nfix a\n", "task given twice"),
])
def test_bad_tasks_files_exit_2(runner, tmp_path: Path, name: str, text: str, message: str) -> None:
    (tmp_path / name).write_text(text)
    result = runner.invoke(main, ["snapshot", "--tasks", str(tmp_path / name), "--root", str(tmp_path),
                                  "-o", str(tmp_path / "out")])
    assert result.exit_code == 2 and message in result.stderr
    assert not (tmp_path / "out").exists()


def test_per_task_budget_is_used(runner, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, {"shop/cart.py": CART, "shop/tax.py": TAX})
    (tmp_path / "tasks.json").write_text(json.dumps([{"task": TASK, "budget": 150}]))
    result = runner.invoke(main, ["snapshot", "--tasks", str(tmp_path / "tasks.json"), "--root",
                                  str(repo), "-o", str(tmp_path / "out"), "--index",
                                  str(tmp_path / "i.db")], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    manifest = parse_manifest((tmp_path / "out" / manifest_name(TASK)).read_text())
    assert manifest.budget == 150 and manifest.used <= 150
    assert result.stderr.endswith(f"wrote 1 manifest to {tmp_path / 'out'}\n")  # not "1 manifests"


def test_a_snapshot_removes_the_manifests_no_task_names_and_keeps_other_files(
        runner, tmp_path: Path) -> None:
    # README: a directory of snapshots stays one; other files there are left alone
    repo = tmp_path / "repo"
    write(repo, {"shop/cart.py": CART, "shop/tax.py": TAX})
    out = tmp_path / "out"

    def snapshot(*tasks: str) -> None:
        (tmp_path / "tasks.txt").write_text("\n".join(tasks) + "\n")
        result = runner.invoke(main, ["snapshot", "--tasks", str(tmp_path / "tasks.txt"),
                                      "--root", str(repo), "-o", str(out), "--index",
                                      str(tmp_path / "i.db")], catch_exceptions=False)
        assert result.exit_code == 0, result.stderr

    snapshot(TASK, "fix Cart bug")
    (out / "notes.txt").write_text("mine")
    snapshot(TASK)
    assert sorted(p.name for p in out.iterdir()) == sorted([manifest_name(TASK), "notes.txt"])
    assert (out / "notes.txt").read_text() == "mine"


def test_a_snapshot_neither_replaces_a_file_of_the_user_nor_removes_their_manifests(
        runner, tmp_path: Path) -> None:
    # trial 7: a manifest the user wrote into the directory (gather -o) was removed, and a
    # file of theirs with a manifest's name was replaced
    repo = tmp_path / "repo"
    write(repo, {"shop/cart.py": CART, "shop/tax.py": TAX})
    out = tmp_path / "out"
    (tmp_path / "tasks.txt").write_text(f"{TASK}\n")
    args = ["snapshot", "--tasks", str(tmp_path / "tasks.txt"), "--root", str(repo), "-o",
            str(out), "--index", str(tmp_path / "i.db")]
    out.mkdir()
    (out / manifest_name(TASK)).write_text("my notes\n")
    refused = runner.invoke(main, args)
    assert refused.exit_code == 2 and "is not a ctxopt manifest" in refused.stderr
    assert (out / manifest_name(TASK)).read_text() == "my notes\n"
    (out / manifest_name(TASK)).unlink()
    mine = runner.invoke(main, ["gather", "fix Cart bug", "--root", str(repo), "--format",
                                "manifest", "-o", str(out / "baseline.tsv"), "--index",
                                str(tmp_path / "i.db")])
    assert mine.exit_code == 0, mine.stderr
    assert runner.invoke(main, args).exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted([manifest_name(TASK), "baseline.tsv"])


def test_a_budget_too_small_names_its_task(runner, tmp_path: Path) -> None:
    # trial 38: "budget of 50 tokens is too small..." did not say which task's
    repo = tmp_path / "repo"
    write(repo, {"shop/tax.py": TAX})
    (tmp_path / "tasks.json").write_text(json.dumps(["fix compute_tax", {"task": "b", "budget": 5}]))
    result = runner.invoke(main, ["snapshot", "--tasks", str(tmp_path / "tasks.json"), "--root",
                                  str(repo), "-o", str(tmp_path / "out"), "--index",
                                  str(tmp_path / "i.db")])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: task 'b': budget of 5 tokens is too small")
    assert len(result.stderr.splitlines()) == 1 and not (tmp_path / "out").exists()


def _manifest(*rows: str) -> str:
    return "# ctxopt manifest 2\n# task: t\n# budget 900 tokens, used 90 (text rendering)\n" \
        "file\tsymbol\thash\tlines\tkind\ttokens\treason\n" + "".join(f"{r}\n" for r in rows)


def test_diff_of_a_block_cut_to_its_signature_says_reshown_and_the_kinds(runner,
                                                                       tmp_path: Path) -> None:
    # trial 39: a block shown whole and then as its signature, its source the same, was
    # reported `changed ... tokens 160 -> 38`, the kinds only in the JSON
    (tmp_path / "old.tsv").write_text(_manifest("a.py\tf\taaaaaaaaaaaa\t3-9\tfull\t160\tr"))
    (tmp_path / "new.tsv").write_text(_manifest("a.py\tf\tbbbbbbbbbbbb\t3-9\tsignature\t38\tr"))
    args = ["diff", str(tmp_path / "old.tsv"), str(tmp_path / "new.tsv")]
    text = runner.invoke(main, args, catch_exceptions=False).stdout
    assert "0 changed" in text
    assert "  reshown  a.py  f  full -> signature  lines 3-9 -> 3-9  tokens 160 -> 38" in text
    assert runner.invoke(main, [*args, "--fail-on", "changed"]).exit_code == 0
    assert runner.invoke(main, [*args, "--fail-on", "reshown"]).exit_code == 1
    markdown = runner.invoke(main, [*args, "--format", "markdown"]).stdout
    assert "| reshown | `a.py` | `f` | full → signature | 3-9 → 3-9 | 160 → 38 |" in markdown


def test_diff_refuses_a_manifest_of_an_unknown_version(runner, tmp_path: Path) -> None:
    # trial 39: `# ctxopt manifest 9` was diffed as if this ctxopt knew what it meant
    (tmp_path / "a.tsv").write_text(_manifest("a.py\tf\taaaaaaaaaaaa\t3-9\tfull\t160\tr"))
    (tmp_path / "b.tsv").write_text(_manifest().replace("manifest 2", "manifest 9"))
    result = runner.invoke(main, ["diff", str(tmp_path / "a.tsv"), str(tmp_path / "b.tsv")])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert result.stderr == f"Error: {tmp_path / 'b.tsv'}:1: manifest version '9' is not " \
        "one this ctxopt reads (it reads version 2)\n"


def test_a_manifest_saved_with_a_bom_is_read(runner, tmp_path: Path) -> None:
    # trial 39: a manifest an editor saved on Windows, a UTF-8 BOM first, was "not a
    # ctxopt manifest"
    text = _manifest("a.py\tf\taaaaaaaaaaaa\t3-9\tfull\t160\tr")
    (tmp_path / "a.tsv").write_text(text)
    (tmp_path / "b.tsv").write_bytes(text.encode("utf-8-sig"))
    result = runner.invoke(main, ["diff", str(tmp_path / "a.tsv"), str(tmp_path / "b.tsv")],
                           catch_exceptions=False)
    assert result.exit_code == 0 and "0 added, 0 removed" in result.stdout


def test_a_snapshot_replaces_its_manifest_saved_with_a_bom(runner, tmp_path: Path) -> None:
    # a manifest of the snapshot's, saved again by an editor on Windows, reads as one
    repo = tmp_path / "repo"
    write(repo, {"shop/tax.py": TAX})
    out = tmp_path / "out"
    out.mkdir()
    (out / manifest_name("fix tax")).write_bytes(_manifest().encode("utf-8-sig"))
    (tmp_path / "tasks.txt").write_text("fix tax\n")
    result = runner.invoke(main, ["snapshot", "--tasks", str(tmp_path / "tasks.txt"), "--root",
                                  str(repo), "-o", str(out), "--index", str(tmp_path / "i.db")])
    assert result.exit_code == 0, result.stderr
