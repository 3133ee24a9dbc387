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
import random
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
    """One planned module: its path pieces and the names it defines."""

    def __init__(self, rng: random.Random, package: tuple[str, ...], stem: str, lang: str):
        self.package, self.stem, self.lang = package, stem, lang
        noun = rng.choice(WORDS)
        self.classes = [_camel(rng.choice(WORDS), noun, suffix) for suffix in
                        rng.sample(("Store", "Service", "Client", "Manager", "Builder",
                                    "Repository", "Handler", "Error"), rng.randint(1, 3))]
        self.functions = [f"{rng.choice(VERBS)}_{rng.choice(WORDS)}" if lang == "py"
                          else rng.choice(VERBS) + _camel(rng.choice(WORDS))
                          for _ in range(rng.randint(1, 5))]
        self.functions = list(dict.fromkeys(self.functions))
        self.size = min(int(rng.paretovariate(1.6) * 40), 900)  # target lines, long tail

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
    lines = [f'"""{module.stem.replace("_", " ").capitalize()}: '
             f'{rng.choice(VERBS)} {rng.choice(WORDS)} records for the {module.package[-1]} package."""',
             "from __future__ import annotations", "", "import logging", "import os"]
    imported: list[str] = []
    for dep in same:
        name = rng.choice(dep.classes)
        lines.append(f"from .{dep.stem} import {name}")
        imported.append(name)
    for dep in other:
        name = rng.choice(dep.functions)
        lines.append(f"from {dep.dotted} import {name}")
        imported.append(name)
    lines += ["", "log = logging.getLogger(__name__)",
              f"DEFAULT_{rng.choice(WORDS).upper()}_LIMIT = {rng.randint(10, 1000)}", ""]
    for function in module.functions:
        callee = rng.choice(imported) if imported else "len"
        lines += ["", f"def {function}(value, *, limit=None):",
                  f'    """{function.replace("_", " ").capitalize()} one value; None when empty."""',
                  "    if value is None:", "        return None",
                  f"    result = {callee}(value)",
                  "    log.debug('%s -> %s', value, result)", "    return result", ""]
    while len(lines) < module.size:
        for cls in module.classes:
            base = rng.choice([c for c in imported if c[0].isupper()] or ["object"])
            lines += ["", f"class {cls}({base}):",
                      f'    """A {cls} keeps {rng.choice(WORDS)}s by {rng.choice(WORDS)}."""', "",
                      "    def __init__(self, source, limit=10):", "        self.source = source",
                      "        self.limit = limit", "        self._items = {}", ""]
            for _ in range(rng.randint(2, 6)):
                method = f"{rng.choice(VERBS)}_{rng.choice(WORDS)}"
                target = rng.choice(module.functions)
                lines += [f"    def {method}(self, key, default=None):",
                          f"        # {rng.choice(VERBS)} before {rng.choice(VERBS)}ing",
                          "        item = self._items.get(key, default)",
                          f"        if len(self._items) > self.limit:",
                          f"            raise ValueError(f'too many: {{key}}')",
                          f"        return {target}(item, limit=self.limit)", ""]
            if len(lines) >= module.size:
                break
    return "\n".join(lines) + "\n"


def _relative(src: Module, dst: Module) -> str:
    common = 0
    while common < min(len(src.package), len(dst.package)) and src.package[common] == dst.package[common]:
        common += 1
    ups = len(src.package) - common
    prefix = "./" if ups == 0 else "../" * ups
    return prefix + "/".join((*dst.package[common:], dst.stem))


def _typescript(module: Module, same: list[Module], other: list[Module], rng: random.Random) -> str:
    lines = [f"// {module.stem}: {rng.choice(VERBS)} {rng.choice(WORDS)} records"]
    imported: list[str] = []
    for dep in same + other:
        names = sorted({rng.choice(dep.classes), rng.choice(dep.functions)})
        lines.append(f"import {{ {', '.join(names)} }} from \"{_relative(module, dep)}\";")
        imported += names
    lines += ["", f"export const DEFAULT_LIMIT = {rng.randint(10, 1000)};", "",
              f"export interface {module.classes[0]}Options {{", "  limit?: number;",
              "  source: string;", "}", ""]
    for function in module.functions:
        callee = rng.choice(imported) if imported else "String"
        lines += ["/**", f" * {function}: one value, or undefined when empty.", " */",
                  f"export function {function}(value: unknown, limit = DEFAULT_LIMIT): unknown {{",
                  "  if (value === undefined) {", "    return undefined;", "  }",
                  f"  return {callee}(value);", "}", ""]
    while len(lines) < module.size:
        for cls in module.classes:
            lines += [f"export class {cls} {{", "  private items = new Map<string, unknown>();",
                      f"  constructor(private readonly options: {module.classes[0]}Options) {{}}", ""]
            for _ in range(rng.randint(2, 6)):
                method = rng.choice(VERBS) + _camel(rng.choice(WORDS))
                lines += [f"  {method}(key: string): unknown {{",
                          "    const item = this.items.get(key);",
                          "    if (this.items.size > (this.options.limit ?? DEFAULT_LIMIT)) {",
                          "      throw new Error(`too many: ${key}`);", "    }",
                          f"    return {rng.choice(module.functions)}(item);", "  }", ""]
            lines += ["}", ""]
            if len(lines) >= module.size:
                break
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
            write = _python if module.lang == "py" else _typescript
            (directory / Path(module.path()).name).write_text(write(module, same, other, rng))
            written += 1
        if members[0].lang == "py":
            for level in range(1, len(package) + 1):
                init = out.joinpath(*package[:level], "__init__.py")
                if not init.exists():
                    init.write_text(f'"""The {package[level - 1]} package."""\n')
        else:
            exports = "".join(f'export * from "./{m.stem}";\n' for m in members[:10])
            (directory / "index.ts").write_text(exports)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    written = generate(args.out, args.files, args.seed)
    total = sum(1 for p in args.out.rglob("*") if p.is_file())
    print(f"{written} modules, {total} files under {args.out}")


if __name__ == "__main__":
    main()
