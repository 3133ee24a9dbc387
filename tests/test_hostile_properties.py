"""Random bytes, random file names and random tasks thrown at index and gather.

Whatever the tree holds: no exception escapes, text output fits the budget, JSON output is
valid UTF-8, and the exit code is the documented one (0 context, 1 nothing found, 2 a
blank task).
"""
import json
import os
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from ctxopt.cli import main
from ctxopt.discover import discover_sources
from ctxopt.files.reasons import REASONS
from ctxopt.store import IndexOptions, open_index
from ctxopt.tokens import count_tokens

# Name bytes: anything but '/' and NUL; '.' and '..' are not file names.
_NAME_BYTES = st.binary(min_size=1, max_size=40).map(
    lambda b: b.replace(b"/", b"_").replace(b"\0", b"_")).filter(lambda b: b not in (b".", b".."))
_SUFFIXES = st.sampled_from([b".py", b".js", b".ts", b".go", b".tsx", b"", b".md", b".env"])
_CONTENT = st.one_of(
    st.binary(max_size=600),
    st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.text(alphabet="def class func ():{}\r\n\t\x0c\u2028'\"<|>_AKIAxoxb-0123", max_size=300)
      .map(lambda t: t.encode("utf-8")),
    st.text(max_size=200).map(lambda t: t.encode("utf-16")),
)
_FILES = st.lists(st.tuples(st.lists(_NAME_BYTES, min_size=1, max_size=3), _SUFFIXES, _CONTENT),
                  max_size=6)
_RANDOM_TASK = st.text(max_size=60).filter(lambda t: "\0" not in t)
_TASKS = st.one_of(_RANDOM_TASK, _RANDOM_TASK.map(lambda t: "fix Storage " + t),
                   st.sampled_from(["fix Storage", "<|endoftext|>", "  ", "def", "a.py"]))
# Always there, so that some tasks find something and the budget is exercised.
_ANCHOR = b"class Storage:\n    def get(self, key):\n        return key\n" * 3
_KNOWN_REASONS = REASONS


def _write_tree(root: Path, files) -> None:
    for parts, suffix, content in files:
        directory = root
        for part in parts[:-1]:
            candidate = directory / os.fsdecode(part)
            if candidate.exists() and not candidate.is_dir():
                break
            candidate.mkdir(exist_ok=True)
            directory = candidate
        path = directory / os.fsdecode(parts[-1] + suffix)
        if len(os.fsencode(path.name)) > 255 or path.is_dir():
            continue
        path.write_bytes(content)


@settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(files=_FILES, task=_TASKS, budget=st.integers(min_value=1, max_value=3000),
       output_format=st.sampled_from(["text", "json", "manifest"]))
def test_gather_survives_anything(files, task, budget, output_format) -> None:
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / "core.py").write_bytes(_ANCHOR)
        _write_tree(root, files)
        index, _ = open_index(root, IndexOptions(path=root / "index.db", jobs=1))
        with index:  # the index alone never raises either
            assert {d.reason for d in index.diagnostics} <= _KNOWN_REASONS
        result = CliRunner().invoke(main, ["gather", task, "--root", str(root), "--budget",
                                           str(budget), "--format", output_format])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    if not task.strip():
        assert result.exit_code == 2
        return
    assert result.exit_code in (0, 1, 2)
    if result.exit_code == 2:  # only for a budget below the header's size
        assert result.stderr.startswith(f"Error: budget of {budget} tokens is too small")
        return
    event(f"exit {result.exit_code}")
    stdout = result.stdout_bytes.decode("utf-8")  # valid UTF-8 in every format
    if result.exit_code == 1:
        assert stdout == ""
        return
    if output_format == "json":
        document = json.loads(stdout)
        assert document["used"] <= budget
    elif output_format == "text":
        assert count_tokens(stdout) <= budget


@settings(max_examples=30, deadline=None)
@given(files=_FILES)
def test_discovery_reports_every_file_once(files) -> None:
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        _write_tree(root, files)
        kept, diagnostics = discover_sources(root)
        on_disk = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
        assume(".gitignore" not in {p.rsplit("/", 1)[-1] for p in on_disk})
    skipped = {d.path for d in diagnostics if d.reason != "decoded with replacement"}
    assert sorted(set(kept) | skipped) == on_disk
    assert not set(kept) & skipped
