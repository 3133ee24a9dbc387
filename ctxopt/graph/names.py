"""Pure: does a dotted name from a task (``pkg.mod.Cls.method``) name a definition?"""
from __future__ import annotations

import posixpath

__all__ = ["module_parts", "dotted_names"]

_INDEX_STEMS = frozenset({"__init__", "index", "mod", "lib"})


def module_parts(path: str) -> list[str]:
    """The module path of a file, as a dotted import would spell it: the directories and
    the stem, without a package's own file (``__init__``, ``index``, ``mod``, ``lib``)."""
    stem = posixpath.splitext(path)[0]
    parts = [part for part in stem.split("/") if part]
    if parts and parts[-1] in _INDEX_STEMS:
        parts.pop()
    return parts


def dotted_names(path: str, qualified_name: str, dotted: str) -> bool:
    """True when ``dotted`` is a tail of the definition's qualified name (dot-separated),
    or the whole of it preceded by a tail of its file's module path:
    ``shop.http.responses.Redirect.location``, ``responses.Redirect.location`` and
    ``Redirect.location`` name ``Redirect.location`` of ``shop/http/responses.py``;
    ``shop.legacy.Redirect.location`` does not.

    A file named after the type it holds (Java, Kotlin, C#: ``com/acme/Codec.java``) is no
    module of its own: its directories are the package, so a JVM stack frame's
    ``com.acme.Codec.decode`` names ``Codec.decode`` there. A Rust path's leading ``crate``
    is the crate's root, whatever its directory (``crate.db.Db.set``, from ``crate::db::``).
    A JavaScript private member ``Ky.#retry`` is named ``Ky.retry``.
    """
    wanted = dotted.split(".")
    # (a JavaScript private member ``#retry`` is ``Ky.retry`` as a task reads it)
    own = [part.removeprefix("#") for part in qualified_name.split(".")]
    if len(wanted) <= len(own):
        return own[len(own) - len(wanted):] == wanted
    if wanted[len(wanted) - len(own):] != own:
        return False
    prefix = wanted[:len(wanted) - len(own)]
    if prefix[:1] == ["crate"]:
        prefix = prefix[1:]
    if not prefix:
        return True
    module = module_parts(path)
    if module and module[-1] == own[0]:  # the file is named after its type
        module = module[:-1]
        if prefix[-1] == own[0]:  # the file's module written too (Python's shop.Redirect)
            prefix = prefix[:-1]
    return len(prefix) <= len(module) and module[len(module) - len(prefix):] == prefix
