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

Usage: python benchmarks/definitions.py [--python DIR] [--ctags LANG:DIR ...] [--sample N]
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ctxopt.languages import LANGUAGES  # noqa: E402
from ctxopt.treesitter import extract_tags  # noqa: E402

_OURS_GROUP = {"class": "type", "struct": "type", "interface": "type", "trait": "type",
               "function": "callable", "method": "callable"}
_CTAGS_GROUP = {"class": "type", "struct": "type", "interface": "type", "trait": "type",
                "object": "type", "union": "type", "annotation": "type",
                "function": "callable", "method": "callable", "prototype": "callable",
                "singletonMethod": "callable", "generator": "callable",
                "getter": "callable", "setter": "callable"}
_CTAGS_LANGUAGE = {"c": "C", "cpp": "C++", "java": "Java", "kotlin": "Kotlin",
                   "javascript": "JavaScript", "typescript": "TypeScript", "csharp": "C#",
                   "ruby": "Ruby", "go": "Go", "rust": "Rust", "php": "PHP"}
_EXTENSIONS = {lang.name: lang.extensions for lang in LANGUAGES}
_EXTENSIONS["c"] = (".c", ".h")
_EXTENSIONS["cpp"] = _EXTENSIONS["cpp"] + (".h",)


def _files(root: Path, language: str) -> list[Path]:
    found = []
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("node_modules", ".git"))
        for name in sorted(filenames):
            if name.endswith(_EXTENSIONS[language]) and not name.endswith((".d.ts", ".min.js")):
                found.append(Path(directory) / name)
    return found


def _ast_definitions(path: Path) -> list[tuple[str, str, int]] | None:
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return None
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                group = "type" if isinstance(child, ast.ClassDef) else "callable"
                qualified = f"{prefix}{child.name}"
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                found.append((group, qualified, start, child.end_lineno))
                visit(child, qualified + ".")
            else:
                visit(child, prefix)
    visit(tree, "")
    return found


def _report(label: str, expected: Counter, ours: Counter, sample: int, seconds: float,
            files: int) -> None:
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
                print("    ", item)


def compare_python(root: Path, sample: int) -> None:
    """Classes, functions and methods of every parsable file against ``ast``: matched by
    file, group, qualified name and first line (decorators included); end lines are
    compared separately."""
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
    command = ["ctags", "--output-format=json", "--fields=+nKeS", "-f", "-",
               f"--language-force={_CTAGS_LANGUAGE[language]}", "--kinds-C=+p", "--kinds-C++=+p",
               "-L", "-"]
    out = subprocess.run(command, input="\n".join(map(str, files)), capture_output=True,
                         text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def compare_ctags(language: str, root: Path, sample: int) -> None:
    """Class-like and callable definitions against Universal Ctags."""
    files = _files(root, language)
    tags_by_file: dict[str, list[tuple[str, str, int, int]]] = defaultdict(list)
    seconds = 0.0
    for path in files:
        start = time.perf_counter()
        tags = extract_tags(str(path), language, path.read_bytes())
        seconds += time.perf_counter() - start
        tags_by_file[str(path)] += [("".join(d.name.split()), _OURS_GROUP[d.kind], d.start_line, d.end_line)
                                    for d in tags.definitions if d.kind in _OURS_GROUP]
    expected: Counter = Counter()
    ours: Counter = Counter()
    used: set[tuple[str, int]] = set()
    for tag in _ctags(language, files):
        group = _CTAGS_GROUP.get(tag.get("kind", ""))
        if tag.get("kind") == "macro" and "signature" in tag:
            group = "callable"  # a function-like macro: ours are functions too
        if group is None or tag["name"].startswith("__anon"):
            continue  # not compared, or an anonymous struct ctags names __anonXXXX
        path, name, line = tag["path"], "".join(tag["name"].split()), tag["line"]
        relative = os.path.relpath(path, root)
        key = (relative, group, name, line)
        expected[key] += 1
        candidates = [i for i, (n, g, s, e) in enumerate(tags_by_file.get(path, []))
                      if n == name and g == group and s <= line <= e and (path, i) not in used]
        if candidates:
            # the innermost definition holding the line is the one ctags names
            best = min(candidates, key=lambda i: tags_by_file[path][i][3] - tags_by_file[path][i][2])
            used.add((path, best))
            ours[key] += 1
    for path, definitions in tags_by_file.items():
        for i, (name, group, start, _) in enumerate(definitions):
            if (path, i) not in used:
                ours[(os.path.relpath(path, root), group, name, start)] += 1
    _report(f"{language} vs ctags ({root})", expected, ours, sample, seconds, len(files))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", type=Path, action="append", default=[],
                        help="A Python source tree to compare with ast.")
    parser.add_argument("--ctags", action="append", default=[], metavar="LANG:DIR",
                        help="A source tree of LANG (c, cpp, java, ...) to compare with ctags.")
    parser.add_argument("--sample", type=int, default=8, help="Disagreements shown per side.")
    args = parser.parse_args()
    for root in args.python:
        if not root.is_dir():
            parser.error(f"not a directory: {root}")
        compare_python(root, args.sample)
    for spec in args.ctags:
        language, _, directory = spec.partition(":")
        if language not in _CTAGS_LANGUAGE or not Path(directory).is_dir():
            parser.error(f"expected LANG:DIR with LANG in {sorted(_CTAGS_LANGUAGE)}: {spec}")
        compare_ctags(language, Path(directory), args.sample)
    return 0


if __name__ == "__main__":
    sys.exit(main())
