"""The dependency rules of the package (STYLE.md 7.1), read from the source with ``ast``:
click only in the command-line modules, which no library module imports; tree-sitter only
in ``parsing/treesitter.py``; tiktoken only in ``tokens.py``."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ctxopt"
# The command line: options, output, exit codes. The library is usable without them.
CLI_MODULES = {"__main__", "entry", "cli", "cli_output", "commands", "curve_cli", "taskinput"}
# third-party package -> the only modules that may import it
ONLY_IN = {"click": CLI_MODULES, "tree_sitter": {"parsing.treesitter"},
           "tree_sitter_language_pack": {"parsing.treesitter"}, "tiktoken": {"tokens"},
           "tiktoken_ext": {"tokens"}}


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function, as an absolute
    dotted name (``ctxopt.render`` for ``from .render import x`` in ``ctxopt/curve.py``)."""
    package = ["ctxopt", *path.relative_to(PACKAGE).parent.parts]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            if node.module is None:  # from . import x: x may be a module
                found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_modules_are_found() -> None:
    names = {_module_name(path) for path in MODULES}
    assert CLI_MODULES | {"parsing.treesitter", "tokens", "pipeline"} <= names


@pytest.mark.parametrize("path", MODULES, ids=_module_name)
def test_third_party_packages_stay_in_their_modules(path: Path) -> None:
    name = _module_name(path)
    wrong = sorted(module for module in _imports(path)
                   if name not in ONLY_IN.get(module.split(".")[0], {name}))
    assert wrong == []


@pytest.mark.parametrize("path", [p for p in MODULES if _module_name(p) not in CLI_MODULES],
                         ids=_module_name)
def test_no_library_module_imports_the_command_line(path: Path) -> None:
    cli = {f"ctxopt.{module}" for module in CLI_MODULES}
    assert sorted(_imports(path) & cli) == []
