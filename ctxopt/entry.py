"""The ``ctxopt`` console script: the command line, and Ctrl-C while it is still loading.

Importing the command line takes a few hundred milliseconds; a Ctrl-C then comes before
``cli.main``'s error boundary exists, and Python would print a traceback. Here it gives
the boundary's one line and exit code (130) instead.

When the command is done, the process ends at once (``_end_now``) instead of letting the
interpreter free every object one by one: about 3% of a warm gather's instructions.

While it loads and runs, the cyclic garbage collector runs less often
(``COLLECTOR_THRESHOLDS``), and never over the objects that loading made (``gc.freeze``:
they live as long as the process): a command makes few reference cycles, and the
collector's default pace (every 700 allocations) took 4.3% of a warm gather's
instructions; every 20,000 allocations from the end of loading, 1.7%; every 100,000 from
the start, 0.2% (no less at 300,000; peak memory the same). Not so for a server
(``ctxopt mcp``), whose event loop makes cycles for as long as it runs.
"""
from __future__ import annotations

import gc
import sys

__all__ = ["run"]

INTERRUPTED = 130  # ``cli_output.ExitStatus.INTERRUPTED``, not imported: loading is what is cut
# Allocations between collections of the youngest generation (CPython's default: 700),
# and collections of each generation between collections of the next (default 10, 10).
COLLECTOR_THRESHOLDS = (100_000, 50, 100)
# commands that run until stopped, whose cycles the default pace must keep collecting
SERVERS = frozenset({"mcp"})


def run() -> None:
    """Load and run the command line (``cli.main``), the cyclic collector slowed (but for
    ``SERVERS``); exit 130 with one line on stderr when interrupted while loading."""
    slowed = _command(sys.argv[1:]) not in SERVERS
    if slowed:
        gc.set_threshold(*COLLECTOR_THRESHOLDS)
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("ctxopt: interrupted\n")
        sys.exit(INTERRUPTED)
    if slowed:
        gc.freeze()  # what loading made lives as long as the process: never collected
    try:
        main()
    except SystemExit as exc:
        _end_now(exc.code)
        raise


def _command(args: list[str]) -> str:
    """The command named in ``args`` (its first word that is no option), else ""."""
    return next((arg for arg in args if not arg.startswith("-")), "")


def _end_now(code: object) -> None:
    """End the process with exit status ``code`` (an int, or None for 0) as the
    interpreter would, less its teardown: the exit handlers run (the memo is written),
    standard output and error are flushed, then ``os._exit``. Returns, for the usual
    exit, when another thread still runs (the interpreter would wait for it), ``code``
    is a message, or a flush fails (the interpreter reports that)."""
    import atexit
    import os
    import threading

    if threading.active_count() > 1 or not (code is None or isinstance(code, int)):
        return
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code or 0)
