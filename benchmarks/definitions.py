"""Benchmark: are the indexer's definitions the ones a language's own tools see?

Python is compared with the standard library's ``ast`` (classes, functions, methods, by
file, qualified name and end line). Other languages are compared with Universal Ctags
(``ctags --output-format=json``) on class-like (class, struct, interface, trait, object)
and callable (function, method, prototype) definitions: a ctags tag matches one of ours
with the same file, name and group whose line range holds the tag's line. Precision and
recall are printed per language, with a sample of the disagreements of each side.

Nothing here downloads anything: point it at source trees unpacked outside the repository,
for example (see NOTES at the end for the figures and what the misses are)::

    pip download --no-deps --no-binary :all: sympy==1.13.3 ujson==6.1.0 pybind11==3.1.0 pythonnet==3.2.1
    npm pack lodash@4.18.1 zod@4.6.7 cordova-android@15.1.0 react-native@0.86.3
    python benchmarks/definitions.py --python sympy-1.13.3/sympy \\
        --ctags c:ujson-6.1.0/src/ujson --ctags cpp:pybind11-3.1.0/include ...

Usage: python benchmarks/definitions.py [--python DIR] [--ctags LANG:DIR ...] [--regex LANG:DIR ...] [--sample N]
       [--skip PATTERN ...]
"""
from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ctxopt.parsing.languages import LANGUAGES  # noqa: E402
from ctxopt.parsing.treesitter import extract_tags  # noqa: E402

_OURS_GROUP = {"class": "type", "struct": "type", "interface": "type", "trait": "type",
               "function": "callable", "method": "callable", "macro": "callable"}
# Members: ctags's kinds for enum members and fields, by language (--members). Languages
# left out have none ctags lists apart from other variables (JavaScript's `property` is any
# object-literal key; PHP, Kotlin and Ruby have no member kind in ctags 5.9).
_CTAGS_MEMBER_KINDS = {
    "c": {"enumerator", "member"}, "cpp": {"enumerator", "member"},
    "java": {"enumConstant", "field"}, "csharp": {"enumerator", "field", "property", "event"},
    "go": {"member"}, "rust": {"enumerator", "field"}, "typescript": {"enumerator", "property"},
}
# Ours: a field, or a constant directly inside a class-like definition (an enum member, a
# class constant such as Java's `static final int MAX`).
_OWNER_KINDS = {"class", "struct", "interface", "enum"}
_CTAGS_GROUP = {"class": "type", "struct": "type", "interface": "type", "trait": "type",
                "object": "type", "union": "type", "annotation": "type",
                "function": "callable", "method": "callable", "prototype": "callable",
                "singletonMethod": "callable", "generator": "callable",
                "getter": "callable", "setter": "callable", "func": "callable",
               "methodSpec": "callable"}
_CTAGS_LANGUAGE = {"c": "C", "cpp": "C++", "java": "Java", "kotlin": "Kotlin",
                   "javascript": "JavaScript", "typescript": "TypeScript", "csharp": "C#",
                   "ruby": "Ruby", "go": "Go", "rust": "Rust", "php": "PHP"}
_EXTENSIONS = {lang.name: lang.extensions for lang in LANGUAGES}
_EXTENSIONS["c"] = (".c", ".h")
_EXTENSIONS["cpp"] = _EXTENSIONS["cpp"] + (".h",)


_SKIP: list[str] = []  # --skip: file names (fnmatch patterns) left out of every comparison


def _files(root: Path, language: str) -> list[Path]:
    found = []
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("node_modules", ".git"))
        for name in sorted(filenames):
            if any(fnmatch.fnmatch(name, pattern) for pattern in _SKIP):
                continue
            if name.endswith(_EXTENSIONS[language]) and not name.endswith((".d.ts", ".d.cts", ".d.mts", ".min.js")):
                found.append(Path(directory) / name)
    return found


def _documented_start(lines: list[str], start: int, column: int) -> int:
    """The first line of the comment lines directly above line ``start`` (1-indexed) at the
    definition's indentation: the range rule of grammars/README.md, from the text alone."""
    while start > 1:
        above = lines[start - 2]
        stripped = above.lstrip(" \t")
        if not stripped.startswith("#") or stripped.startswith("#!") or len(above) - len(stripped) != column:
            break
        start -= 1
    return start


def _ast_definitions(path: Path) -> list[tuple[str, str, int]] | None:
    try:
        data = path.read_bytes()
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return None
    lines = data.decode("utf-8", "replace").splitlines()
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                group = "type" if isinstance(child, ast.ClassDef) else "callable"
                qualified = f"{prefix}{child.name}"
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                start = _documented_start(lines, start, child.col_offset)
                found.append((group, qualified, start, child.end_lineno))
                visit(child, qualified + ".")
            else:
                visit(child, prefix)
    visit(tree, "")
    return found


def _report(label: str, expected: Counter, ours: Counter, sample: int, seconds: float,
            files: int, root: Path | None = None) -> None:
    matched = sum((expected & ours).values())
    recall = matched / max(1, sum(expected.values()))
    precision = matched / max(1, sum(ours.values()))
    print(f"{label}: {files} files, reference {sum(expected.values())}, ours {sum(ours.values())}, "
          f"matched {matched}: precision {precision:.2%}, recall {recall:.2%} "
          f"(parse {seconds:.1f}s)")
    for title, items in (("  missed (reference only)", expected - ours),
                         ("  extra (ours only)", ours - expected)):
        listed = sorted(items.elements())
        if listed:
            print(f"{title}: {len(listed)}; sample:")
            for item in listed[:sample]:
                print("    ", item, _source_line(root, item[0], item[3]) if root else "")


def _source_line(root: Path, relative: str, line: int) -> str:
    """The line a disagreement points at, shortened, to see what it is without opening it."""
    try:
        text = (root / relative).read_text(errors="replace").splitlines()[line - 1].strip()
    except (OSError, IndexError):
        return ""
    return "| " + (text if len(text) <= 90 else text[:87] + "...")


def compare_python(root: Path, sample: int) -> None:
    """Classes, functions and methods of every parsable file against ``ast``: matched by
    file, group, qualified name and first line (decorators and the comment lines directly
    above included); end lines are compared separately."""
    expected: Counter = Counter()
    ours: Counter = Counter()
    files = 0
    seconds = 0.0
    end_lines: Counter = Counter()
    end_examples: list[tuple] = []
    for path in _files(root, "python"):
        reference = _ast_definitions(path)
        if reference is None:
            continue  # ast cannot parse it (Python 2 syntax): not comparable
        files += 1
        relative = str(path.relative_to(root))
        expected.update((relative, *item[:3]) for item in reference)
        ends = {(relative, *item[:3]): item[3] for item in reference}
        start = time.perf_counter()
        tags = extract_tags(relative, "python", path.read_bytes())
        seconds += time.perf_counter() - start
        for d in tags.definitions:
            if d.kind in _OURS_GROUP:
                key = (relative, _OURS_GROUP[d.kind], d.qualified_name, d.start_line)
                ours[key] += 1
                if key in ends:
                    end_lines[d.end_line - ends[key]] += 1
                    if d.end_line != ends[key] and len(end_examples) < sample:
                        end_examples.append((*key, ends[key], d.end_line))
    _report(f"python vs ast ({root})", expected, ours, sample, seconds, files)
    same = end_lines[0]
    print(f"  end lines: {same} of {sum(end_lines.values())} equal "
          f"({same / max(1, sum(end_lines.values())):.2%}); ours later by "
          f"{dict(sorted((k, v) for k, v in end_lines.items() if k))} lines "
          "(tree-sitter keeps comments that close a body inside it; ast ends at the last "
          "statement); sample (file, group, name, start, ast end, our end):")
    for example in end_examples:
        print("    ", example)


def _ctags(language: str, files: list[Path]) -> list[dict]:
    command = ["ctags", "--output-format=json", "--fields=+nKeS", "--pattern-length-limit=0", "-f", "-",
               f"--language-force={_CTAGS_LANGUAGE[language]}", "--kinds-C=+p", "--kinds-C++=+p",
               "-L", "-"]
    out = subprocess.run(command, input="\n".join(map(str, files)), capture_output=True,
                         text=True, check=True).stdout
    return [json.loads(line, strict=False) for line in out.split("\n") if line.startswith("{")]


# Universal Ctags 5.9 has no Swift or Scala parser: for them the reference is a line-based
# count of declaration keywords, independent of tree-sitter, so the figures are approximate
# (a declaration split over lines after its modifiers, or a keyword inside a string, is
# miscounted; nothing is parsed).
_SWIFT_MODIFIERS = (r"(?:@\w+(?:\([^)]*\))?|public|private|fileprivate|internal|open|package|final|static|"
                    r"override|mutating|nonmutating|convenience|required|indirect|dynamic|"
                    r"nonisolated|optional|(?:public|private|fileprivate|internal|package)\(set\)|"
                    r"class(?=\s+(?:func|var|let|subscript|override|final|public|private|open|static)\b))")
_KEYWORD_DECLARATION = {
    "swift": re.compile(r"^\s*(?:" + _SWIFT_MODIFIERS + r"\s+)*"
                        r"(?P<kw>func|init|deinit|subscript|class|struct|protocol|actor)\b"
                        r"(?:\s+(?P<name>`?[A-Za-z_][\w]*`?|[^\s(<{:]+))?"),
    "scala": re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+|(?:private|protected)(?:\[\w+\])?\s+|(?:final|sealed|abstract|implicit|"
                        r"override|lazy|case|inline|transparent|open|infix)\s+)*"
                        r"(?P<kw>def|class|trait|object)\s+(?P<name>[A-Za-z_][\w]*|[^\s(\[:=]+)"),
}
_KEYWORD_KIND = {"func": "function", "init": "function", "deinit": "function",
                 "subscript": "function", "def": "function", "class": "class", "struct": "class",
                 "protocol": "class", "actor": "class", "trait": "class", "object": "class"}


def _regex_tags(language: str, files: list[Path]) -> list[dict]:
    """Declarations found by keyword, ctags-shaped, skipping comments and multi-line strings."""
    found = []
    pattern = _KEYWORD_DECLARATION[language]
    for path in files:
        in_comment = in_string = False
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if in_comment:
                in_comment = "*/" not in line
                continue
            if line.count('"""') % 2:
                in_string = not in_string
                continue
            if in_string or line.lstrip().startswith(("//", "*")):
                continue
            if line.lstrip().startswith("/*"):
                in_comment = "*/" not in line
                continue
            match = pattern.match(line)
            if match:
                keyword = match["kw"]
                name = match["name"] if keyword in ("func", "def", "class", "struct", "protocol",
                                                    "actor", "trait", "object") else keyword
                if name:
                    found.append({"path": str(path), "name": name.strip("`"), "line": number,
                                  "kind": _KEYWORD_KIND[keyword], "pattern": line})
    return found


def ctags_artefact(language: str, tag: dict) -> str | None:
    """Why a ctags tag is not a definition a developer would name, or None.

    These are counted and shown apart, not hidden: anonymous tags (ctags names them
    ``<lambda>``, ``__anon1f2e``, ``AnonymousFunction1f2e``, PHP's ``AnonymousClass1f2e``), Kotlin lambda parameters that ctags tags as methods
    (``{ task -> ...}`` gives a method ``task``), Kotlin's unnamed ``companion object``
    (ctags calls it ``Companion``; its members are ours as members of the class), and C/C++
    macro invocations standing alone on a line (``PYBIND11_NAMESPACE_BEGIN(detail)``),
    which ctags takes for functions. In JavaScript, ctags calls an object literal held in a
    variable or property a class (``var htmlEscapes = {``, ``module.exports = {``), tags the
    class again at each ``X.prototype... =`` line (the constructor ``function X`` is tagged
    where it is defined), names a function assigned to a member after the object
    (``res.get = function``, ``app[method] = function`` give ``res`` and ``app``), and takes
    the keyword of ``delete f.prototype[k]`` for a class name.
    """
    name, pattern = tag["name"], tag.get("pattern", "")
    if name.startswith(("<", "__anon", "AnonymousFunction", "AnonymousClass")):
        return "anonymous"
    if language == "kotlin":
        if re.search(r"[{(,]\s*" + re.escape(name) + r"\s*(?::[^,>]*)?(?:,[^>]*)?->", pattern):
            return "lambda parameter"
        if name == "Companion" and "Companion" not in pattern:
            return "unnamed companion object"
    if language == "javascript":
        escaped = re.escape(name)
        if tag.get("kind") == "class" and re.search(r"\b" + escaped + r"['\"]?\s*[:=]\s*\{", pattern):
            return "object literal"
        if tag.get("kind") == "class" and re.search(r"\b" + escaped + r"\.prototype\b", pattern):
            return "prototype assignment"
        if re.search(r"\b" + escaped + r"(?:\.prototype)?(?:\[[^\]]*\]|\.\w+)\s*=\s*function\b", pattern):
            return "object of a member assignment"
        if name in ("delete", "typeof", "void", "new", "return"):
            return "keyword"
    if language in ("c", "cpp") and re.fullmatch(r"[A-Z][A-Z0-9_]+", name) \
            and re.match(r"/\^\s*" + re.escape(name) + r"\s*\(", pattern) \
            and tag.get("kind") != "macro":
        return "macro invocation"
    return None


def _our_group(definition, definitions, members: bool) -> str | None:
    """The group ("type", "callable", "member") ours is compared in, or None."""
    if definition.kind in _OURS_GROUP:
        return _OURS_GROUP[definition.kind]
    if not members:
        return None
    if definition.kind == "field":
        return "member"
    parent = definition.parent
    if definition.kind == "constant" and parent is not None and definitions[parent].kind in _OWNER_KINDS:
        return "member"
    return None


def compare_ctags(language: str, root: Path, sample: int, oracle: str = "ctags") -> None:
    """Class-like and callable definitions against Universal Ctags, or (``oracle="regex"``)
    against the declaration-keyword count of ``_regex_tags``; members (enum members, fields)
    too where ctags has a kind for them (``_CTAGS_MEMBER_KINDS``), reported apart."""
    files = _files(root, language)
    member_kinds = _CTAGS_MEMBER_KINDS.get(language, set()) if oracle == "ctags" else set()
    members = bool(member_kinds)
    tags_by_file: dict[str, list[tuple[str, str, int, int]]] = defaultdict(list)
    seconds = 0.0
    for path in files:
        start = time.perf_counter()
        tags = extract_tags(str(path), language, path.read_bytes())
        seconds += time.perf_counter() - start
        for d in tags.definitions:
            group = _our_group(d, tags.definitions, members)
            if group is not None:
                tags_by_file[str(path)].append(("".join(d.name.split()), group, d.start_line, d.end_line))
    expected: Counter = Counter()
    ours: Counter = Counter()
    used: set[tuple[str, int]] = set()
    artefacts: Counter = Counter()
    other_group: Counter = Counter()
    seen: set[tuple] = set()
    for tag in (_ctags(language, files) if oracle == "ctags" else _regex_tags(language, files)):
        group = "member" if tag.get("kind") in member_kinds else _CTAGS_GROUP.get(tag.get("kind", ""))
        if tag.get("kind") == "macro" and ("signature" in tag or language == "rust"):
            group = "callable"  # a function-like macro, a Rust macro_rules!: ours are macros
        if group is None:
            continue
        artefact = ctags_artefact(language, tag)
        if artefact is not None:
            artefacts[artefact] += 1
            continue
        path, name, line = tag["path"], "".join(tag["name"].split()), tag["line"]
        relative = os.path.relpath(path, root)
        key = (relative, group, name, line)
        if (relative, name, line) in seen:
            continue  # ctags tags `app.f = function f()` twice, with and without a scope
        seen.add((relative, name, line))
        expected[key] += 1
        candidates = [i for i, (n, g, s, e) in enumerate(tags_by_file.get(path, []))
                      if n == name and g == group and s <= line <= e and (path, i) not in used]
        if not candidates:
            # same definition, other group: a JS constructor function ctags calls a class
            candidates = [i for i, (n, g, s, e) in enumerate(tags_by_file.get(path, []))
                          if n == name and s <= line <= e and (path, i) not in used]
            if candidates:
                other_group[(group, tags_by_file[path][candidates[0]][1])] += 1
        if candidates:
            # the innermost definition holding the line is the one ctags names
            best = min(candidates, key=lambda i: tags_by_file[path][i][3] - tags_by_file[path][i][2])
            used.add((path, best))
            ours[key] += 1
    for path, definitions in tags_by_file.items():
        for i, (name, group, start, _) in enumerate(definitions):
            if (path, i) not in used:
                ours[(os.path.relpath(path, root), group, name, start)] += 1
    label = "ctags" if oracle == "ctags" else "keyword regex (APPROXIMATE)"

    def only(counter: Counter, member: bool) -> Counter:
        return Counter({k: v for k, v in counter.items() if (k[1] == "member") == member})
    _report(f"{language} vs {label} ({root})", only(expected, False), only(ours, False), sample,
            seconds, len(files), root)
    if members:
        _report(f"{language} members vs {label} ({root})", only(expected, True), only(ours, True),
                sample, seconds, len(files), root)
    if artefacts:
        print(f"  ctags tags left out as not definitions: {dict(sorted(artefacts.items()))}")
    if other_group:
        print(f"  matched in another group (ctags, ours): {dict(sorted(other_group.items()))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", type=Path, action="append", default=[],
                        help="A Python source tree to compare with ast.")
    parser.add_argument("--ctags", action="append", default=[], metavar="LANG:DIR",
                        help="A source tree of LANG (c, cpp, java, ...) to compare with ctags.")
    parser.add_argument("--regex", action="append", default=[], metavar="LANG:DIR",
                        help="A Swift or Scala tree, compared (approximately) with a keyword count.")
    parser.add_argument("--sample", type=int, default=8, help="Disagreements shown per side.")
    parser.add_argument("--skip", action="append", default=[], metavar="PATTERN",
                        help="Leave out files whose name matches (a file a tool cannot parse).")
    args = parser.parse_args()
    _SKIP.extend(args.skip)
    for root in args.python:
        if not root.is_dir():
            parser.error(f"not a directory: {root}")
        compare_python(root, args.sample)
    for spec in args.ctags:
        language, _, directory = spec.partition(":")
        if language not in _CTAGS_LANGUAGE or not Path(directory).is_dir():
            parser.error(f"expected LANG:DIR with LANG in {sorted(_CTAGS_LANGUAGE)}: {spec}")
        compare_ctags(language, Path(directory), args.sample)
    for spec in args.regex:
        language, _, directory = spec.partition(":")
        if language not in _KEYWORD_DECLARATION or not Path(directory).is_dir():
            parser.error(f"expected LANG:DIR with LANG in {sorted(_KEYWORD_DECLARATION)}: {spec}")
        compare_ctags(language, Path(directory), args.sample, oracle="regex")
    return 0


if __name__ == "__main__":
    sys.exit(main())


NOTES = """
Members and issue 12 (branch `langs`, tree-sitter-language-pack 0.13.0, Universal Ctags 5.9.0).
Sources: pip download --no-deps --no-binary :all: ujson==5.10.0 pybind11==2.13.6
pythonnet==3.0.5; npm pack cordova-android@13.0.0; `git archive HEAD` of the mirrors of
colinhacks/zod, spf13/cobra, BurntSushi/walkdir, serde-rs/json, slimphp/Slim; click and
_pytest from the test venv. corpus/c = ujson lib/*.[ch] + python/*.[ch]; corpus/cpp =
pybind11/include/pybind11 + ujson deps/double-conversion/double-conversion. Run from there:
  python benchmarks/definitions.py --python .venv/.../site-packages/click \
      --python .venv/.../site-packages/_pytest --ctags c:corpus/c --ctags cpp:corpus/cpp \
      --ctags csharp:pythonnet-3.0.5/src --ctags java:cordova-android-13.0.0 \
      --ctags typescript:zodsrc/packages/zod/src --ctags go:cobra --ctags rust:walkdir \
      --ctags rust:serdejson --ctags php:slim --sample 8
"before" is main at 0f4acaf with this script; precision / recall:

                                   definitions (type, callable)     members (enum members, fields)
                                   before          after            before          after
  python (ast) click, _pytest      100 / 100       100 / 100        -               -
  c        ujson                   99.16 / 99.16   99.16 / 99.16    100 / 79.49     100 / 100
  cpp      pybind11 + dconv        94.61 / 94.48   94.61 / 94.48    98.18 / 90.77   98.31 / 97.34
  csharp   pythonnet               88.21 / 97.03   88.21 / 97.03    99.95 / 91.91   99.95 / 91.91
  java     cordova-android         94.21 / 100     94.21 / 100      100 / 100       100 / 100
  typescript zod (main)            65.47 / 99.30   58.22 / 99.30    96.51 / 89.45   96.28 / 97.02
  go       cobra                   99.35 / 100     99.35 / 100      57.95 / 100     98.08 / 100
  rust     walkdir                 100 / 100       100 / 100        88.24 / 91.84   89.09 / 100
  rust     serde_json              100 / 100       100 / 100        91.20 / 59.38   94.58 / 100
  php      Slim                    100 / 100       100 / 100        -               -

- Python: the ast reference now starts a definition at the comment lines directly above it
  at its indentation (the range rule of grammars/README.md, from the text alone); ours
  agree on all 3036 definitions.
- Members gained: TypeScript enum members (recall 89 -> 97%), Rust enum variants (59/92 ->
  100%), C/C++ function-pointer and array fields and fields inside `#if` blocks (C 79 ->
  100%, C++ 91 -> 97%); Go fields of tests' anonymous table structs are no longer
  definitions (precision 58 -> 98%; left: fields of a struct nested in a field, which
  ctags skips). Rust extras are struct-variant fields (`Shape.Rect.w`), which ctags skips.
- TypeScript definition precision falls because ctags 5.9 tags neither object-literal
  methods (`errorMap: () => ...`, `{ get() {} }`: 124 new) nor anonymous default exports
  (`export default function ()` in the 40-odd locale files, now named after the file);
  functions nested in those are now qualified by them. TypeScript member misses are ctags
  taking statements (`curr = curr[el];`, `} else {`) for properties; C# member misses are
  ctags tagging expression-bodied methods' parameters as fields; C++ misses left are
  members tree-sitter misparses (macros in declarations, templates in array sizes).

Earlier figures (other corpora):
Figures (ctxopt branch `langs`; tree-sitter-language-pack 0.13.0, Universal Ctags 5.9.0),
run from the directory holding the unpacked sources; c and cpp corpora assembled as
  corpus/c   = ujson-6.1.0/src/ujson/*.{c,h} + react-native jni-lib-merge/*.{c,h}
  corpus/cpp = ujson-6.1.0/src/ujson/deps (double-conversion) + pybind11-3.1.0/include/pybind11

  python vs ast  sympy 1.13.3       1517 files  precision 100.00%  recall 100.00%
                 (end lines equal for 99.70%; the rest end later: trailing comments)
  c              (corpus/c)            7 files  precision  97.39%  recall  99.12%
  cpp            (corpus/cpp)         94 files  precision  91.69%  recall  95.15%
  java           cordova-android 15.1.0 44 files precision 94.53%  recall 100.00%
  java           react-native 0.86.3  44 files  precision  98.04%  recall 100.00%
  kotlin         react-native 0.86.3 703 files  precision  99.98%  recall  97.32%
  typescript     zod 4.6.7           332 files  precision  62.82%  recall  99.34%
  csharp         pythonnet 3.2.1     150 files  precision  88.42%  recall  97.05%
  ruby           react-native 0.86.3  19 files  precision 100.00%  recall 100.00%

Branch `js` (same versions), sources under /tmp/jsb: npm pack lodash express; git archive
HEAD of the mirrors of spf13/cobra, BurntSushi/walkdir, slimphp/Slim, Alamofire/Alamofire,
scopt/scopt:
  python benchmarks/definitions.py --ctags javascript:lodash --ctags javascript:express \
      --ctags go:cobra --ctags rust:walkdir --ctags php:slim \
      --regex swift:alamofire --regex scala:scopt --sample 20
  python benchmarks/definitions.py --ctags javascript:lodash --skip lodash.js

  javascript     lodash 4.18.1      1046 files  precision  75.25%  recall  99.23%
                 (without lodash.js) 1045 files precision  98.02%  recall  99.38%
  javascript     express 5.3.0         7 files  precision  91.30%  recall 100.00%
  go             cobra (main)         36 files  precision  99.35%  recall 100.00%
  rust           walkdir (main)        8 files  precision 100.00%  recall 100.00%
  php            Slim (main)          72 files  precision 100.00%  recall 100.00%
  swift          Alamofire (main)     98 files  precision  99.96%  recall  99.91%  APPROXIMATE
  scala          scopt (main)         27 files  precision 100.00%  recall 100.00%  APPROXIMATE
  (before this branch: lodash 74.68% / 89.73%, express 88.00% / 74.16%.)
  Universal Ctags 5.9.0 has no Swift or Scala parser: those two are against --regex, a
  line-based count of declaration keywords (func/init/deinit/subscript/class/struct/
  protocol/actor; def/class/trait/object), independent of tree-sitter but not a parser.

What the disagreements are (sampled with --sample N):
- c: ctags misplaces one JNI_OnLoad_Weak (a macro-built prototype); ours adds the anonymous
  `typedef struct {...} modulestate` as struct modulestate (ctags: typedef + __anon struct).
- cpp: ctags takes free-standing macro invocations (PYBIND11_NAMESPACE_BEGIN(...)) for
  functions (counted apart, 197); misses left: functions whose name follows an unknown macro
  (`DOUBLE_CONVERSION_NO_RETURN abort_noreturn`: tree-sitter folds the macro into the
  declarator), template member declarations tree-sitter misparses, TEST(...) macro bodies
  both tools see differently; ours adds local struct/class definitions and out-of-line
  template members ctags skips.
- java: ours adds methods of anonymous classes (`new Runnable() { public void run() ... }`),
  which ctags leaves out; nothing missed.
- kotlin: ctags tags lambdas (`<lambda>`), lambda parameters (`{ task -> ...}`) as methods
  and unnamed companion objects as `Companion` (counted apart); the 169 misses left are
  lambda parameters with destructuring or types the artefact rule does not recognise.
- typescript: misses are overloads ctags sees as separate lines, `if` blocks ctags takes for
  methods in ZodError.ts; extras are local `const f = () => ...` inside functions, interface
  method signatures and class fields holding arrow functions, which ctags calls properties.
- csharp: ctags names explicit interface implementations `IEnumerable.GetEnumerator`, ours
  `GetEnumerator`; extras are local functions and interface members ctags skips.
- javascript: ctags was right about named function expressions passed as arguments or
  returned (`defineGetter(req, 'host', function host() {...})`, `return function
  generateETag`), accessors in descriptors named by the function (`get: function
  getrouter()`), chained aliases (`X.prototype.add = X.prototype.push = f`), `var f =
  (function f() {...})`, IIFEs returning a function (`var baseCreate = (function () {...
  return function ...}())`) and `f = function` reassignments: ours now tag them (and a quoted
  key `'castArray': function` is named without its quotes). ctags is wrong, and these are
  counted apart as artefacts: object literals it calls classes (`var htmlEscapes = {`,
  `module.exports = {`, 59 + 3), the class tagged again at `X.prototype... =` lines (15),
  functions named after the object of a member assignment (`res.get = function` -> `res`,
  `app[method] = function` -> `app`) and `delete f.prototype[k]` -> a class `delete`.
  Misses left (lodash 7): IIFEs whose result is not visibly a function (`var nodeUtil =
  (function () { try {...} }())` is an object, `maskSrcKey` a string; `defineProperty`
  returns a variable holding a function, which a query cannot see). Precision on lodash is
  low because ctags stops tagging lodash.js after line 6243 (`initCloneObject`: its parser
  loses track), so our ~280 definitions below are "extra"; without lodash.js precision is
  98%: extras are `X.prototype.get/set = ...` and top-level `function get`/`function set`
  (ctags drops anything named get or set) and the second name of chained aliases. express
  extras: `app.set = function set`, `req.get = req.header = function header`, `res.type =
  function contentType` (get/set or a chained assignment: ctags skips them) and members of
  an object literal argument (`res.format({ html: function () ...})`, ctags: anonymous).
- go: ctags's kinds are func (functions and methods) and methodSpec (interface methods);
  our only extras are types declared inside a function (`type key struct{}` in tests).
- rust: ctags's `macro` (macro_rules!) matches ours as a function; no disagreement.
- php: ctags names anonymous classes (`new class implements ...`) AnonymousClass...,
  counted apart as anonymous; no other disagreement.
- swift (keyword regex): operator functions (`static func ==`) and types nested in an
  extension were missed or mis-kinded by ours before; left: a protocol requirement inside
  `#if ... #endif` in a protocol body, which tree-sitter-swift cannot parse, and a backquoted
  name (ours keeps the backquotes: `` `protocol` ``).
- scala (keyword regex): operator methods (`def ++`) were missed by ours before; none left.
"""
