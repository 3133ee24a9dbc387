#!/usr/bin/env python3
"""Generate a repository of N source files with the shapes of real Python and TypeScript
code, for the scaling benchmark (``bench_scaling.py``).

Half the files are Python, half TypeScript, in packages of 20 to 60 modules nested two or
three levels deep. Each module imports a few modules of its own package and one or two of
other packages (Python ``from pkg.mod import Name``, relative and absolute; TypeScript
``import { Name } from "../pkg/mod"`` and ``index.ts`` re-exports), and defines classes
with methods, functions and constants that call what it imports, with docstrings and
comments. Sizes follow a long tail (most modules 40-150 lines, a few 500+). The output is
a pure function of (N, seed).

Usage::

    python benchmarks/gentree.py --files 10000 --out /tmp/gen10k [--seed 1]
"""
from __future__ import annotations

import argparse
import ast
import os
import random
import re
from pathlib import Path

WORDS = ("account address adapter audit batch billing buffer cache cart catalog channel "
         "client cluster config connection context cursor customer dataset digest document "
         "engine event export feature filter gateway graph handler header index inventory "
         "invoice job ledger loader mapper message metric model node notifier order parser "
         "payment pipeline policy profile queue quota record registry report request "
         "resource result route rule schedule schema session shard signal snapshot source "
         "storage stream subscription task tenant token tracker transform user validator "
         "vendor view worker").split()
VERBS = ("build check compute create decode encode fetch filter find flush format load "
         "lookup merge normalize parse publish read refresh render resolve retry save "
         "scan send serialize sort split store sync update validate write").split()


def _camel(*words: str) -> str:
    return "".join(w.capitalize() for w in words)


class Module:
    """One planned module: its path pieces and the names it defines (each class with its
    methods, planned up front so that other modules can call them)."""

    def __init__(self, rng: random.Random, package: tuple[str, ...], stem: str, lang: str):
        self.package, self.stem, self.lang = package, stem, lang
        noun = rng.choice(WORDS)
        names = [_camel(rng.choice(WORDS), noun, suffix) for suffix in
                 rng.sample(("Store", "Service", "Client", "Manager", "Builder",
                             "Repository", "Handler", "Error"), rng.randint(1, 3))]
        self.functions = [f"{rng.choice(VERBS)}_{rng.choice(WORDS)}" if lang == "py"
                          else rng.choice(VERBS) + _camel(rng.choice(WORDS))
                          for _ in range(rng.randint(1, 5))]
        self.functions = list(dict.fromkeys(self.functions))
        self.size = min(int(rng.paretovariate(1.6) * 40), 900)  # target lines, long tail
        # about 8 lines a function, 7 a method, 20 of header: methods fill the rest
        methods = max(2 * len(names), (self.size - 20 - 8 * len(self.functions)) // 7)
        self.classes: dict[str, list[str]] = {}
        for i, name in enumerate(dict.fromkeys(names)):
            count = max(2, methods // len(names) + (i < methods % len(names)))
            planned = [f"{rng.choice(VERBS)}_{rng.choice(WORDS)}" if lang == "py"
                       else rng.choice(VERBS) + _camel(rng.choice(WORDS)) for _ in range(count)]
            self.classes[name] = list(dict.fromkeys(planned))

    @property
    def dotted(self) -> str:
        return ".".join((*self.package, self.stem))

    def path(self) -> str:
        return "/".join((*self.package, f"{self.stem}.{self.lang}"))


def plan(n_files: int, seed: int) -> list[Module]:
    """The modules of a repository of about ``n_files`` files (package ``__init__.py`` and
    ``index.ts`` files included)."""
    rng = random.Random(seed)
    modules: list[Module] = []
    top = 0
    while len(modules) < n_files:
        lang = "py" if top % 2 == 0 else "ts"
        root = (f"{rng.choice(WORDS)}{top}",) if lang == "py" else ("src", f"{rng.choice(WORDS)}{top}")
        top += 1
        for sub in range(rng.randint(1, 4)):
            package = (*root, f"{rng.choice(WORDS)}_{sub}" if lang == "py" else rng.choice(WORDS) + str(sub))
            stems = set()
            for _ in range(rng.randint(20, 60)):
                stem = f"{rng.choice(WORDS)}_{rng.choice(VERBS)}" if lang == "py" else \
                    rng.choice(WORDS) + _camel(rng.choice(VERBS))
                if stem in stems:
                    continue
                stems.add(stem)
                modules.append(Module(rng, package, stem, lang))
    return modules[:n_files]


def _python(module: Module, same: list[Module], other: list[Module], rng: random.Random) -> str:
    lines = [(f'"""{module.stem.replace("_", " ").capitalize()}: '
              f'{rng.choice(VERBS)} {rng.choice(WORDS)} records for the {module.package[-1]} package."""'),
             "from __future__ import annotations", "", "import logging", "import os"]
    functions: list[str] = []  # imported functions, to call
    classes: list[tuple[str, list[str]]] = []  # imported classes and their methods
    for dep in same:
        name = rng.choice(list(dep.classes))
        lines.append(f"from .{dep.stem} import {name}")
        classes.append((name, dep.classes[name]))
    for dep in other:
        name = rng.choice(dep.functions)
        if rng.random() < 0.5:
            lines.append(f"from {dep.dotted} import {name}")
            functions.append(name)
        else:  # a module import, called through its name
            lines.append(f"from {'.'.join(dep.package)} import {dep.stem}")
            functions.append(f"{dep.stem}.{name}")
    lines += ["", "log = logging.getLogger(__name__)",
              f"DEFAULT_{rng.choice(WORDS).upper()}_LIMIT = {rng.randint(10, 1000)}", ""]
    for function in module.functions:
        callee = rng.choice(functions) if functions else "len"
        lines += ["", f"def {function}(value, *, limit=None):",
                  f'    """{function.replace("_", " ").capitalize()} one value; None when empty."""',
                  "    if value is None:", "        return None",
                  f"    result = {callee}(value)",
                  "    log.debug('%s -> %s', value, result)", "    return result", ""]
    for cls, methods in module.classes.items():
        base = rng.choice(classes)[0] if classes and rng.random() < 0.3 else "object"
        peer = rng.choice(classes) if classes else None
        lines += ["", f"class {cls}({base}):",
                  f'    """A {cls} keeps {rng.choice(WORDS)}s by {rng.choice(WORDS)}."""', "",
                  "    def __init__(self, source, limit=10):", "        self.source = source",
                  "        self.limit = limit", "        self._items = {}"]
        if peer:
            lines.append(f"        self._peer = {peer[0]}(source, limit)")
        lines.append("")
        for method in methods:
            if peer and rng.random() < 0.4:
                call = f"self._peer.{rng.choice(peer[1])}(key)"
            else:
                call = f"{rng.choice(module.functions)}(item, limit=self.limit)"
            lines += [f"    def {method}(self, key, default=None):",
                      f"        # {rng.choice(VERBS)} before the {rng.choice(WORDS)} is read",
                      "        item = self._items.get(key, default)",
                      "        if len(self._items) > self.limit:",
                      "            raise ValueError(f'too many: {key}')",
                      f"        return {call}", ""]
    return "\n".join(lines) + "\n"


def _relative(src: Module, dst: Module) -> str:
    common = 0
    while common < min(len(src.package), len(dst.package)) and src.package[common] == dst.package[common]:
        common += 1
    ups = len(src.package) - common
    prefix = "./" if ups == 0 else "../" * ups
    return prefix + "/".join((*dst.package[common:], dst.stem))


def _typescript(module: Module, same: list[Module], other: list[Module],
                rng: random.Random, reexported: set[int]) -> str:
    lines = [f"// {module.stem}: {rng.choice(VERBS)} {rng.choice(WORDS)} records"]
    functions: list[str] = []
    classes: list[tuple[str, list[str]]] = []
    for dep in same + other:
        cls, function = rng.choice(list(dep.classes)), rng.choice(dep.functions)
        source = _relative(module, dep)
        if dep in other and id(dep) in reexported and rng.random() < 0.5:
            source = source.rsplit("/", 1)[0]  # through the package's index.ts
        lines.append(f"import {{ {', '.join(sorted({cls, function}))} }} from \"{source}\";")
        functions.append(function)
        classes.append((cls, dep.classes[cls]))
    first = next(iter(module.classes))
    lines += ["", f"export const DEFAULT_LIMIT = {rng.randint(10, 1000)};", "",
              f"export interface {first}Options {{", "  limit?: number;",
              "  source: string;", "}", ""]
    for function in module.functions:
        callee = rng.choice(functions) if functions else "String"
        lines += ["/**", f" * {function}: one value, or undefined when empty.", " */",
                  f"export function {function}(value: unknown, limit = DEFAULT_LIMIT): unknown {{",
                  "  if (value === undefined) {", "    return undefined;", "  }",
                  f"  return {callee}(value);", "}", ""]
    for cls, methods in module.classes.items():
        peer = rng.choice(classes) if classes else None
        lines += [f"export class {cls} {{", "  private items = new Map<string, unknown>();"]
        if peer:
            lines.append(f"  private peer = new {peer[0]}({{ source: \"{cls}\" }});")
        lines += [f"  constructor(private readonly options: {first}Options) {{}}", ""]
        for method in methods:
            call = (f"this.peer.{rng.choice(peer[1])}(key)" if peer and rng.random() < 0.4
                    else f"{rng.choice(module.functions)}(item)")
            lines += [f"  {method}(key: string): unknown {{",
                      "    const item = this.items.get(key);",
                      "    if (this.items.size > (this.options.limit ?? DEFAULT_LIMIT)) {",
                      "      throw new Error(`too many: ${key}`);", "    }",
                      f"    return {call};", "  }", ""]
        lines += ["}", ""]
    return "\n".join(lines) + "\n"


def generate(out: Path, n_files: int, seed: int = 1) -> int:
    """Write the repository under ``out``; the number of files written."""
    rng = random.Random(seed + 1)
    modules = plan(n_files, seed)
    by_package: dict[tuple[str, ...], list[Module]] = {}
    for module in modules:
        by_package.setdefault(module.package, []).append(module)
    written = 0
    packages = list(by_package)
    # the first ten modules of a TypeScript package are re-exported by its index.ts
    reexported = {id(m) for members in by_package.values() for m in members[:10]}
    for package, members in by_package.items():
        directory = out.joinpath(*package)
        directory.mkdir(parents=True, exist_ok=True)
        lang = members[0].lang
        peers = [p for p in rng.sample(packages, min(4, len(packages)))
                 if p != package and by_package[p][0].lang == lang]
        others = [m for p in peers for m in by_package[p][:5]]
        for i, module in enumerate(members):
            same = rng.sample(members[:i], min(i, rng.randint(0, 3)))
            other = rng.sample(others, min(len(others), rng.randint(0, 2)))
            text = (_python(module, same, other, rng) if module.lang == "py"
                    else _typescript(module, same, other, rng, reexported))
            (directory / Path(module.path()).name).write_text(text, encoding="utf-8")
            written += 1
        if members[0].lang == "py":
            for level in range(1, len(package) + 1):
                init = out.joinpath(*package[:level], "__init__.py")
                if not init.exists():
                    init.write_text(f'"""The {package[level - 1]} package."""\n', encoding="utf-8")
        else:
            exports = "".join(f'export * from "./{m.stem}";\n' for m in members[:10])
            (directory / "index.ts").write_text(exports, encoding="utf-8")
    return written


def unresolved(root: Path) -> list[str]:
    """Every import under ``root`` whose name its target module does not define (Python:
    ``from pkg.mod import Name``, ``from .mod import Name``, ``from pkg import mod``;
    TypeScript: ``import { A, b } from "./mod"`` or from a directory's ``index.ts``), as
    ``"file: name from source"`` lines; empty for a consistent tree."""
    names: dict[str, set[str]] = {}  # module or file key -> the names it defines
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        key = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names[key] = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    exported = re.compile(r"^export (?:class|function|interface|const) (\w+)", re.MULTILINE)
    for path in root.rglob("*.ts"):
        names[path.relative_to(root).with_suffix("").as_posix()] = set(
            exported.findall(path.read_text(encoding="utf-8")))
    for path in root.rglob("index.ts"):
        folder = path.parent.relative_to(root).as_posix()
        for stem in re.findall(r'from "\./(\w+)"', path.read_text(encoding="utf-8")):
            names[f"{folder}/index"] |= names.get(f"{folder}/{stem}", set())
    missing = []
    for path in root.rglob("*.py"):
        package = ".".join(path.relative_to(root).parent.parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
                continue
            target = f"{package}.{node.module}" if node.level else str(node.module)
            for alias in node.names:
                if alias.name not in names.get(target, ()) and f"{target}.{alias.name}" not in names:
                    missing.append(f"{path.relative_to(root)}: {alias.name} from {target}")
    imports = re.compile(r'^import \{ (.*) \} from "(.*)";', re.MULTILINE)
    for path in root.rglob("*.ts"):
        for listed, source in imports.findall(path.read_text(encoding="utf-8")):
            target = os.path.normpath(os.path.join(path.parent.relative_to(root), source))
            if target not in names:
                target += "/index"
            missing += [f"{path.relative_to(root)}: {name} from {source}"
                        for name in listed.split(", ") if name not in names.get(target, ())]
    return missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true",
                        help="then list the imports whose names are not defined (exit 1 if any)")
    args = parser.parse_args()
    written = generate(args.out, args.files, args.seed)
    total = sum(1 for p in args.out.rglob("*") if p.is_file())
    print(f"{written} modules, {total} files under {args.out}")
    if args.check:
        missing = unresolved(args.out)
        print("\n".join(missing) or "every imported name is defined")
        raise SystemExit(1 if missing else 0)


if __name__ == "__main__":
    main()
