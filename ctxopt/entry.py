"""The ``ctxopt`` console script: the command line, and Ctrl-C while it is still loading.

Importing the command line takes a few hundred milliseconds; a Ctrl-C then comes before
``cli.main``'s error boundary exists, and Python would print a traceback. Here it gives
the boundary's one line and exit code (130) instead.
"""
from __future__ import annotations

import sys

__all__ = ["run"]

INTERRUPTED = 130  # ``cli_output.ExitStatus.INTERRUPTED``, not imported: loading is what is cut


def run() -> None:
    """Load and run the command line (``cli.main``); exit 130 with one line on stderr
    when interrupted while loading."""
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("ctxopt: interrupted\n")
        sys.exit(INTERRUPTED)
    main()
