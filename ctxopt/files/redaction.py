"""Redaction: blocks made safe to leave the machine (secrets replaced, names escaped)."""
from __future__ import annotations

from dataclasses import replace

from ..model import Block, Diagnostic
from ..tokens import TokenCounter
from .reasons import REASON_SECRET
from .safety import HygieneConfig
from .secrets import Finding, redact_secrets
from .text import display_text

__all__ = ["clean_blocks"]


def clean_blocks(blocks: list[Block], counter: TokenCounter, config: HygieneConfig
                 ) -> tuple[list[Block], list[Diagnostic]]:
    """Blocks ready to leave the machine: secrets redacted, paths made printable.

    The path, the reason and the symbols (which quote file and definition names) get
    ``display_text``'s escape.

    Each block whose content, signature or whole lines (``Block.whole``) hold a secret
    (see ``secret_scan``) gets it replaced by ``[REDACTED <type>]`` and its tokens
    recounted, with one ``secret`` diagnostic per block naming the types and lines.
    ``config.allow_secrets`` turns redaction off. Order and line numbers are unchanged.
    """
    cleaned: list[Block] = []
    diagnostics: list[Diagnostic] = []
    for block in blocks:
        path = display_text(block.path)
        original = block.content
        reason = display_text(block.reason)
        symbols = tuple(display_text(s) for s in block.symbols)
        if (path, reason, symbols) != (block.path, block.reason, block.symbols):
            block = replace(block, path=path, reason=reason, symbols=symbols)
        if not config.allow_secrets:
            content, findings = redact_secrets(block.content)
            signature, signature_findings = redact_secrets(block.signature)
            whole_text = block.whole
            # (the fitter may show the whole lines: ``Tier.FILL``)
            whole, whole_findings = redact_secrets(whole_text)
            if findings or signature_findings or whole_findings:
                block = replace(block, content=content, signature=signature, whole=whole,
                                tokens=counter.count(content))
                kinds = sorted({f.kind for f in findings + signature_findings + whole_findings})
                lines = sorted(_file_lines(block.start_line, original, findings) |
                               _file_lines(block.start_line, whole_text, whole_findings))
                where = f" at line {', '.join(map(str, lines))}" if lines else " in a signature"
                diagnostics.append(Diagnostic(path, REASON_SECRET,
                                              f"{', '.join(kinds)} redacted{where}"))
        cleaned.append(block)
    return cleaned, diagnostics


def _file_lines(start_line: int, text: str, findings: list[Finding]) -> set[int]:
    """The file's line numbers of ``findings`` in ``text``, which starts at line
    ``start_line`` (1-based)."""
    return {start_line + text.count("\n", 0, f.start) for f in findings}
