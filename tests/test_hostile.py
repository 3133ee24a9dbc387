"""Hostile repositories, built in a temporary directory: links, submodules, encodings and
line endings, pathological files, odd names, secrets, control tokens. Every case checks
the exact outcome, line numbers included."""
import codecs
import json
import os
import subprocess
from pathlib import Path

import pytest

from ctxopt.cli import main
from ctxopt.discover import discover_sources
from ctxopt.files.safety import HygieneConfig
from ctxopt.model import Diagnostic
from ctxopt.source import read_lines
from ctxopt.tokens import count_tokens

STORAGE = "class Storage:\n    def get(self, key):\n        return key\n"


def gather_json(runner, root: Path, task: str, *args: str) -> dict:
    result = runner.invoke(main, ["gather", task, "--root", str(root), "--format", "json", *args])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return json.loads(result.stdout_bytes.decode("utf-8"))


def blocks_of(document: dict) -> dict[str, tuple[int, int, str]]:
    return {b["file"]: (b["start_line"], b["end_line"], b["content"]) for b in document["blocks"]}


# --- links -------------------------------------------------------------------------------

@pytest.fixture
def linked_repo(make_repo, tmp_path):
    root = make_repo({"app.py": STORAGE, "pkg/mod.py": "def helper():\n    return 1\n"})
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("def leaked():\n    return 'outside'\n")
    os.symlink("loop", root / "loop")
    os.symlink("a", root / "b")
    os.symlink("b", root / "a")
    os.symlink("..", root / "pkg" / "up")
    os.symlink(".", root / "here")
    os.symlink(str(outside), root / "elsewhere")
    os.symlink(str(outside / "secret.py"), root / "leak.py")
    os.symlink("missing.py", root / "broken.py")
    os.symlink("pkg", root / "pkg_alias")
    os.symlink("app.py", root / "alias.py")
    return root


def test_links_are_never_followed_out_or_round(linked_repo) -> None:
    files, diagnostics = discover_sources(linked_repo)
    assert files == ["app.py", "pkg/mod.py"]
    assert diagnostics == [
        Diagnostic("a", "link loop"),
        Diagnostic("alias.py", "duplicate link", "same file as app.py"),
        Diagnostic("b", "link loop"),
        Diagnostic("broken.py", "broken link"),
        Diagnostic("elsewhere", "outside root", "the link points outside the root"),
        Diagnostic("here", "link loop", "points to the root, which contains it"),
        Diagnostic("leak.py", "outside root", "the link points outside the root"),
        Diagnostic("loop", "link loop"),
        Diagnostic("pkg/up", "link loop", "points to the root, which contains it"),
        Diagnostic("pkg_alias", "directory link", "not followed; pkg is indexed at its own path"),
    ]


def test_a_link_to_a_file_inside_the_root_is_read(make_repo) -> None:
    root = make_repo({"real/impl.py": STORAGE, ".gitignore": "real/\n"})
    os.symlink("real/impl.py", root / "storage.py")
    files, diagnostics = discover_sources(root)
    assert (files, diagnostics) == ([".gitignore", "storage.py"], [])


def test_gather_on_linked_repo_reads_nothing_outside(runner, linked_repo) -> None:
    document = gather_json(runner, linked_repo, "fix leaked Storage")
    assert list(blocks_of(document)) == ["app.py"]
    assert "leaked" not in json.dumps(document["blocks"])


@pytest.mark.parametrize("scope", ["elsewhere", "..", "pkg/up/.."])
def test_scope_outside_the_root_is_a_usage_error(runner, linked_repo, scope) -> None:
    result = runner.invoke(main, ["gather", "fix Storage", "--root", str(linked_repo),
                                  "--scope", scope])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: Invalid value for '--scope': {scope!r} is "
                                    "outside the root")
    assert "Traceback" not in result.stderr


def test_root_through_a_link_is_the_link_target(runner, linked_repo, tmp_path) -> None:
    os.symlink(linked_repo, tmp_path / "via_link")
    document = gather_json(runner, tmp_path / "via_link", "fix Storage")
    assert list(blocks_of(document)) == ["app.py"]


# --- submodules and nested repositories --------------------------------------------------

def _git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    subprocess.run(["git", "-c", "protocol.file.allow=always", "-c", "init.defaultBranch=main",
                    *args], cwd=cwd, env=env, check=True, capture_output=True)


@pytest.fixture
def super_repo(tmp_path):
    library = tmp_path / "library"
    library.mkdir()
    (library / "vendor_lib.py").write_text("class Storage:\n    pass\n")
    _git(library, "init", "-q")
    _git(library, "add", ".")
    _git(library, "commit", "-q", "-m", "lib")
    root = tmp_path / "super"
    root.mkdir()
    (root / "app.py").write_text(STORAGE)
    _git(root, "init", "-q")
    _git(root, "submodule", "add", "-q", str(library), "libs/library")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "super")
    return root


def test_submodule_is_skipped_with_one_diagnostic(super_repo) -> None:
    files, diagnostics = discover_sources(super_repo)
    assert files == [".gitmodules", "app.py"]
    assert diagnostics == [Diagnostic("libs/library", "submodule",
                                      "nested repository, not indexed (use --submodules)")]


def test_submodules_option_indexes_it(runner, super_repo) -> None:
    files, diagnostics = discover_sources(super_repo, config=HygieneConfig(submodules=True))
    assert files == [".gitmodules", "app.py", "libs/library/vendor_lib.py"]
    assert diagnostics == []
    document = gather_json(runner, super_repo, "fix Storage", "--submodules")
    assert sorted(blocks_of(document)) == ["app.py", "libs/library/vendor_lib.py"]


def test_uninitialised_submodule_costs_nothing(super_repo, tmp_path) -> None:
    clone = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", str(super_repo), str(clone))
    assert (clone / "libs" / "library").is_dir() and not any((clone / "libs" / "library").iterdir())
    files, diagnostics = discover_sources(clone)
    assert (files, diagnostics) == ([".gitmodules", "app.py"], [])


def test_nested_clone_is_skipped_like_a_submodule(make_repo) -> None:
    # (not under third_party/: that is skipped whole as vendored code)
    root = make_repo({"app.py": STORAGE, "deps/dep/.git/HEAD": "ref: refs/heads/main\n",
                      "deps/dep/dep.py": "def dep():\n    pass\n"})
    files, diagnostics = discover_sources(root)
    assert files == ["app.py"]
    assert [(d.path, d.reason) for d in diagnostics] == [("deps/dep", "submodule")]


# --- encodings and line endings ----------------------------------------------------------

ENCODED = {
    "crlf.py": b"def crlf_one():\r\n    return 1\r\n\r\ndef crlf_two():\r\n    return 2\r\n",
    "cr.py": b"def cr_one():\r    return 1\r\rdef cr_two():\r    return 2\r",
    "mixed.py": b"def mixed_one():\n    return 1\r\n\rdef mixed_two():\r    return 2\n",
    "bom.py": codecs.BOM_UTF8 + b"def bom_one():\n    return 1\n\ndef bom_two():\n    return 2\n",
    "utf16.py": "def utf16_one():\n    return 'é'\n\ndef utf16_two():\n    return 2\n".encode("utf-16"),
    "utf16be.py": codecs.BOM_UTF16_BE + "def be_one():\r\n    return 1\r\n\r\ndef be_two():\r\n    return 2\r\n".encode("utf-16-be"),
    "latin1.py": "# café\ndef latin_one():\n    return 'é'\n\ndef latin_two():\n    return 2\n".encode("latin-1"),
    "separators.py": "s = 'a\u2028b\u2029c\x0cd\x85e'\n\ndef sep_one():\n    return 1\n\ndef sep_two():\n    return 2\n".encode("utf-8"),
    "formfeed.py": b"def ff_one():\n    return 1\n\x0c\ndef ff_two():\n    return 2\n",
}


@pytest.mark.parametrize(("path", "name", "lines", "content"), [
    ("crlf.py", "crlf_two", (4, 5), "def crlf_two():\n    return 2"),
    ("cr.py", "cr_two", (4, 5), "def cr_two():\n    return 2"),
    ("mixed.py", "mixed_two", (4, 5), "def mixed_two():\n    return 2"),
    ("bom.py", "bom_two", (4, 5), "def bom_two():\n    return 2"),
    ("utf16.py", "utf16_two", (4, 5), "def utf16_two():\n    return 2"),
    ("utf16be.py", "be_two", (4, 5), "def be_two():\n    return 2"),
    ("latin1.py", "latin_two", (5, 6), "def latin_two():\n    return 2"),
    ("separators.py", "sep_two", (6, 7), "def sep_two():\n    return 2"),
    ("formfeed.py", "ff_two", (4, 5), "def ff_two():\n    return 2"),
])
def test_definition_lines_match_the_editor(make_repo, build_index, path, name, lines, content) -> None:
    root = make_repo(ENCODED)
    index = build_index(root)
    (node,) = index.definitions_named(name)
    definition = index.definition(node)
    assert (index.path_of(node), definition.start_line, definition.end_line) == (path, *lines)
    assert "\n".join(read_lines(root / path)[lines[0] - 1:lines[1]]) == content


@pytest.mark.parametrize(("path", "task", "block"), [
    ("cr.py", "fix cr_one", (1, 5, "def cr_one():\n    return 1\n\ndef cr_two():\n    return 2")),
    ("utf16.py", "fix utf16_one",
     (1, 5, "def utf16_one():\n    return 'é'\n\ndef utf16_two():\n    return 2")),
    ("latin1.py", "fix latin_one",
     (1, 6, "# caf\ufffd\ndef latin_one():\n    return '\ufffd'\n\ndef latin_two():\n    return 2")),
    ("separators.py", "fix sep_one",
     (1, 7, "s = 'a\u2028b\u2029c\x0cd\x85e'\n\ndef sep_one():\n    return 1\n\ndef sep_two():\n    return 2")),
])
def test_emitted_text_is_the_files_text(runner, make_repo, path, task, block) -> None:
    document = gather_json(runner, make_repo(ENCODED), task)
    assert blocks_of(document)[path] == block


def test_undecodable_file_is_flagged(make_repo) -> None:
    _, diagnostics = discover_sources(make_repo(ENCODED))
    assert diagnostics == [Diagnostic("latin1.py", "decoded with replacement",
                                      "2 bytes are not utf-8 and show as U+FFFD")]


@pytest.mark.parametrize("gitignore", [
    "generated.py\ncaf\xe9.py\n".encode("latin-1"),
    codecs.BOM_UTF8 + b"generated.py\ncaf\xc3\xa9.py\n",
    "generated.py\r\ncafé.py\r\n".encode("utf-16"),
])
def test_gitignore_that_is_not_utf8_still_applies(make_repo, gitignore) -> None:
    root = make_repo({"app.py": STORAGE, "generated.py": "x = 1\n", ".gitignore": gitignore})
    (root / os.fsdecode(b"caf\xe9.py")).write_text("y = 1\n")  # a Latin-1 file name
    (root / "café.py").write_text("z = 1\n")
    files, _ = discover_sources(root)
    ignored_name = "caf\udce9.py" if gitignore.startswith(b"gen") else "café.py"
    assert "generated.py" not in files and ignored_name not in files
    assert "app.py" in files


# --- pathological files ------------------------------------------------------------------

def test_minified_three_megabyte_line_is_skipped(make_repo) -> None:
    root = make_repo({"app.py": STORAGE, "dist.min.js": "var a=1;" * 393216})
    files, diagnostics = discover_sources(root)
    assert files == ["app.py"]
    assert diagnostics == [Diagnostic("dist.min.js", "too large", "3145728 bytes")]


def test_long_line_under_the_size_limit_is_skipped(make_repo) -> None:
    short = "var a = 1;\n" * 2000
    root = make_repo({"app.py": STORAGE, "long.js": short + "x=1;" * 3000 + "\n",
                      "huge.js": short + "x=1;" * 6000 + "\n"})
    files, diagnostics = discover_sources(root)
    assert files == ["app.py"]
    # regression: the 10,000-character check fired first, so no file was ever `minified`
    # by its longest line as the README says
    assert diagnostics == [Diagnostic("huge.js", "minified", "a line over 20000 characters"),
                           Diagnostic("long.js", "line too long",
                                      "line 2001 has 12000 characters (limit 10000)")]


def test_slow_file_is_skipped_and_the_run_goes_on(runner, make_repo) -> None:
    # tree-sitter needs seconds for this (~800 kB of nested, unclosed JavaScript)
    root = make_repo({"app.py": STORAGE, "slow.js": "(a,(b,(c,\n" * 80000})
    result = runner.invoke(main, ["gather", "fix Storage", "--root", str(root),
                                  "--format", "json", "--parse-timeout", "0.05"])
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert list(blocks_of(document)) == ["app.py"]
    assert document["diagnostics"] == [{"file": "slow.js", "reason": "parse timeout",
                                        "detail": "parsing took longer than 0.05 s"}]


def test_binary_is_detected_by_content_not_extension(make_repo) -> None:
    root = make_repo({"app.py": STORAGE, "logo.py": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
                      "compiled.js": bytes(range(1, 9)) * 40, "notes.dat": "plain text\n",
                      "wide.py": "def wide():\n    pass\n".encode("utf-16")})
    files, diagnostics = discover_sources(root)
    assert files == ["app.py", "notes.dat", "wide.py"]
    assert diagnostics == [Diagnostic("compiled.js", "binary"), Diagnostic("logo.py", "binary")]


def test_fifo_does_not_hang_discovery(make_repo) -> None:
    root = make_repo({"app.py": STORAGE})
    os.mkfifo(root / "pipe.py")
    os.symlink("pipe.py", root / "to_pipe.py")
    files, diagnostics = discover_sources(root)
    assert files == ["app.py"]
    # trial F15: the FIFO itself was skipped with no diagnostic, only the link counted
    assert diagnostics == [Diagnostic("pipe.py", "not a regular file"),
                           Diagnostic("to_pipe.py", "not a regular file")]


# --- names -------------------------------------------------------------------------------

ODD_NAMES = {
    "with space.py": "spaced_func",
    "café/naïve.py": "accent_func",
    os.fsdecode(b"bad\xffname.py"): "badname_func",
    "new\nline.py": "newline_func",
}


@pytest.fixture
def odd_repo(make_repo):
    root = make_repo({"app.py": STORAGE})
    for name, function in ODD_NAMES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"def {function}():\n    return 1\n")
    return root


def test_odd_names_in_json(runner, odd_repo) -> None:
    document = gather_json(runner, odd_repo, "fix " + " ".join(ODD_NAMES.values()))
    assert blocks_of(document) == {
        "bad\\xffname.py": (1, 2, "def badname_func():\n    return 1"),
        "café/naïve.py": (1, 2, "def accent_func():\n    return 1"),
        "new\\x0aline.py": (1, 2, "def newline_func():\n    return 1"),
        "with space.py": (1, 2, "def spaced_func():\n    return 1"),
    }


def test_odd_names_in_text_and_manifest(runner, odd_repo) -> None:
    task = "fix " + " ".join(ODD_NAMES.values())
    text = runner.invoke(main, ["gather", task, "--root", str(odd_repo)])
    assert text.exit_code == 0
    output = text.stdout_bytes.decode("utf-8")
    for path in ("bad\\xffname.py", "café/naïve.py", "new\\x0aline.py", "with space.py"):
        assert f"## {path}\n```python\n# lines 1-2\n" in output
    manifest = runner.invoke(main, ["gather", task, "--root", str(odd_repo), "--format", "manifest"])
    rows = [line.split("\t") for line in manifest.stdout.splitlines()[4:]]
    assert sorted((row[0], row[3]) for row in rows) == [
        ("bad\\xffname.py", "1-2"), ("café/naïve.py", "1-2"), ("new\\x0aline.py", "1-2"),
        ("with space.py", "1-2")]


def test_names_in_reasons_are_escaped_like_paths(runner, make_repo) -> None:
    # trial: `best match in tab<TAB>name.py` put a raw tab in the manifest's last column
    root = make_repo({"app.py": "class Storage:\n    def get(self, key):\n        return key\n",
                      "tab\tname.py": "def storage_get_helper(storage):\n"
                                      "    \"\"\"Storage get bug helper.\"\"\"\n    return 1\n"})
    manifest = runner.invoke(main, ["gather", "fix Storage get bug", "--root", str(root),
                                    "--format", "manifest"])
    rows = manifest.stdout.splitlines()[4:]
    # (whole: the budget has room for the signature the walker asked for, shown whole)
    assert "tab\\x09name.py\tstorage_get_helper\t447f7700a898\t1-3\tfull\t17\t" \
           "best match in tab\\x09name.py" in rows
    assert all(row.count("\t") == 6 for row in rows)
    document = gather_json(runner, root, "fix Storage get bug")
    assert all("\t" not in b["reason"] for b in document["blocks"])


def test_clean_blocks_escapes_reasons_and_symbols() -> None:
    from ctxopt.files.redaction import clean_blocks
    from ctxopt.files.safety import HygieneConfig
    from ctxopt.model import Block
    from ctxopt.tokens import Cl100kCounter
    block = Block("a\tb.py", "python", 1, 1, "x = 1", 3, 50.0, 3, "best match in a\tb.py",
                  symbols=("odd\nname",))
    (cleaned,), _ = clean_blocks([block], Cl100kCounter(), HygieneConfig())
    assert (cleaned.path, cleaned.reason, cleaned.symbols) == (
        "a\\x09b.py", "best match in a\\x09b.py", ("odd\\x0aname",))


def test_task_with_undecodable_bytes(runner, odd_repo) -> None:
    result = runner.invoke(main, ["gather", "fix spaced_func " + os.fsdecode(b"\xff"), "--root",
                                  str(odd_repo)])
    assert result.exit_code == 0
    assert result.stdout_bytes.decode("utf-8").startswith(
        "# ctxopt context for: fix spaced_func \\xff\n")


@pytest.fixture
def latin1_root(tmp_path):
    root = tmp_path / os.fsdecode(b"r\xe9po")  # a directory name that is not UTF-8
    root.mkdir()
    (root / "a.py").write_text("def spaced_func():\n    return 1\n")
    return root


@pytest.mark.parametrize("command, code", [
    (["gather", "fix spaced_func"], 0),
    (["gather", "fix spaced_func", "--format", "json"], 0),
    (["gather", "zzz qqq"], 1),
    (["index"], 0),
    (["index", "--format", "json"], 0),
])
def test_a_root_whose_name_is_not_utf8(runner, latin1_root, command, code) -> None:
    result = runner.invoke(main, [*command, "--root", str(latin1_root)])
    assert result.exit_code == code, result.stderr
    output = (result.stdout_bytes + result.stderr_bytes).decode("utf-8")
    assert "Traceback" not in output
    if "json" in command:
        output = json.loads(result.stdout).get("index", "r\\xe9po")
    if code == 1 or command[0] == "index":
        assert "r\\xe9po" in output


def test_an_unwritable_root_whose_name_is_not_utf8(runner, latin1_root, tmp_path,
                                                   monkeypatch) -> None:
    (latin1_root / ".ctxopt").write_text("in the way\n")  # the index goes to the cache
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path / "cache"))
    result = runner.invoke(main, ["gather", "fix spaced_func", "--root", str(latin1_root)])
    assert result.exit_code == 0, result.stderr
    assert "r\\xe9po/.ctxopt is not a directory" in result.stderr_bytes.decode("utf-8")


# --- secrets -----------------------------------------------------------------------------

SECRET_FILES = {
    ".env": "DATABASE_URL=postgres://app:hunter2@db/app\n",
    "config/.env.production": "API_KEY=abc\n",
    "certs/server.pem": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    "certs/server.key": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n",
    "deploy/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789\n",
    ".pypirc": "[pypi]\nusername = __token__\npassword = pypi-abc\n",
    ".aws/credentials": "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n",
}
SECRET_CODE = ('import os\n'
               'AWS_KEY = "AKIAIOSFODNN7EXAMPLE"\n'
               'DEPLOY_KEY = """-----BEGIN RSA PRIVATE KEY-----\n'
               'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n'
               '-----END RSA PRIVATE KEY-----"""\n'
               '\n'
               'def connect(region):\n'
               '    token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"\n'
               '    return (region, token)\n')


@pytest.fixture
def secret_repo(make_repo):
    return make_repo({**SECRET_FILES, "app.py": STORAGE, "cloud.py": SECRET_CODE,
                      ".npmrc.bak": "registry=https://registry.npmjs.org/\n"})


def test_secret_files_are_never_emitted(secret_repo) -> None:
    files, diagnostics = discover_sources(secret_repo)
    assert files == [".npmrc.bak", "app.py", "cloud.py"]
    assert diagnostics == [
        Diagnostic(".aws/credentials", "secret", "cloud credentials"),
        Diagnostic(".env", "secret", "environment file"),
        Diagnostic(".npmrc", "secret", "npm token"),
        Diagnostic(".pypirc", "secret", "PyPI password"),
        Diagnostic("certs/server.key", "secret", "private key"),
        Diagnostic("certs/server.pem", "secret", "key or certificate"),
        Diagnostic("config/.env.production", "secret", "environment file"),
        Diagnostic("deploy/id_rsa", "secret", "SSH key"),
    ]


def test_secret_text_is_redacted_with_a_diagnostic(runner, secret_repo) -> None:
    document = gather_json(runner, secret_repo, "fix connect in cloud.py")
    assert blocks_of(document)["cloud.py"] == (1, 9, (
        'import os\n'
        'AWS_KEY = "[REDACTED AWS Access Key]"\n'
        'DEPLOY_KEY = """[REDACTED Private Key]\n'
        '\n'
        '"""\n'
        '\n'
        'def connect(region):\n'
        '    token = "[REDACTED GitHub Token]"\n'
        '    return (region, token)'))
    assert {"file": "cloud.py", "reason": "secret",
            "detail": "AWS Access Key, GitHub Token, Private Key redacted at line 2, 3, 8"
            } in document["diagnostics"]
    text = runner.invoke(main, ["gather", "fix connect in cloud.py", "--root", str(secret_repo)])
    for secret in ("AKIAIOSFODNN7EXAMPLE", "MIIEowIBAAKCAQEA", "ghp_abc", "hunter2", "npm_abc"):
        assert secret not in text.stdout
    assert text.stderr == "ctxopt: skipped or degraded files: 9 secret\n"


def test_allow_secrets_turns_it_off(runner, secret_repo) -> None:
    files, diagnostics = discover_sources(secret_repo, config=HygieneConfig(allow_secrets=True))
    assert files == sorted([*SECRET_FILES, ".npmrc.bak", "app.py", "cloud.py"])
    assert diagnostics == []
    document = gather_json(runner, secret_repo, "fix connect in cloud.py", "--allow-secrets")
    assert blocks_of(document)["cloud.py"] == (1, 9, SECRET_CODE.rstrip("\n"))


# --- text that looks like control tokens -------------------------------------------------

def test_control_tokens_are_plain_text(runner, make_repo) -> None:
    code = 'END = "<|endoftext|>"\n\ndef stop_marker():\n    return "<|im_start|>" + END\n'
    root = make_repo({"markers.py": code})
    task = "fix stop_marker <|endoftext|>"
    result = runner.invoke(main, ["gather", task, "--root", str(root), "--budget", "200"])
    assert result.exit_code == 0
    assert result.stdout.startswith("# ctxopt context for: fix stop_marker <|endoftext|>\n")
    assert code.rstrip("\n") in result.stdout
    used = int(result.stdout.splitlines()[1].split("used ")[1].split(";")[0])
    assert used == count_tokens(result.stdout) <= 200


# --- bad options -------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["gather", "fix Storage"], ["index"]])
@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "inf", "-inf"])
def test_bad_parse_timeout_is_a_usage_error(runner, make_repo, command, value) -> None:
    result = runner.invoke(main, [*command, "--root", str(make_repo({"a.py": STORAGE})),
                                  "--parse-timeout", value])
    assert result.exit_code == 2
    assert "Invalid value for '--parse-timeout'" in result.stderr
    assert "Traceback" not in result.stderr
