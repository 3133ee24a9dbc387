"""Image token estimates from the pixel size in the image's header, never its byte size.

The size is read from the first bytes of PNG, JPEG, GIF and WebP (lossy, lossless and
extended) images; a 4 MB and a 200 KB screenshot of the same size cost the same.
Formulas, by model family:

- Anthropic (Claude vision docs, "Calculate image costs"): an image whose long edge is
  over 1568 px, or whose area is over about 1.15 megapixels, is first scaled down
  (aspect ratio kept) to fit both; it then costs ``width * height / 750`` tokens,
  rounded up.
- OpenAI (GPT-4o / GPT-4.1 vision docs, "Calculating costs"): ``detail: low`` costs 85
  tokens. Otherwise (``high``, and ``auto``, counted as ``high`` so the estimate is an
  upper bound) the image is scaled to fit a 2048 x 2048 square, then so that its
  shortest side is 768 px (only ever down), and costs ``85 + 170 * tiles``, where
  ``tiles`` is the number of 512-px squares that cover it.

An image whose size cannot be read (a URL, a file id, an unknown format or damaged data)
gets the most an image can cost in its family: ``ANTHROPIC_FALLBACK`` (1534 tokens, the
area cap over 750) or ``OPENAI_FALLBACK`` (1445 tokens, a 768 x 2048 image, 8 tiles), so
the estimate never understates.
"""
from __future__ import annotations

import base64
import binascii
import math
import struct
from typing import Any

__all__ = ["image_size", "anthropic_image_tokens", "openai_image_tokens", "estimate_image",
           "ANTHROPIC", "OPENAI", "ANTHROPIC_FALLBACK", "OPENAI_FALLBACK"]

ANTHROPIC = "anthropic"
OPENAI = "openai"
ANTHROPIC_MAX_EDGE = 1568
ANTHROPIC_MAX_PIXELS = 1_150_000
ANTHROPIC_PIXELS_PER_TOKEN = 750
OPENAI_FIT = 2048
OPENAI_SHORT_SIDE = 768
OPENAI_TILE = 512
OPENAI_BASE_TOKENS = 85
OPENAI_TILE_TOKENS = 170
ANTHROPIC_FALLBACK = math.ceil(ANTHROPIC_MAX_PIXELS / ANTHROPIC_PIXELS_PER_TOKEN)
OPENAI_FALLBACK = OPENAI_BASE_TOKENS + OPENAI_TILE_TOKENS * 8
# Base64 characters decoded first: enough for any header but a JPEG's behind large
# EXIF or ICC segments, for which the whole image is decoded.
_HEAD_CHARS = 65536
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) in pixels from a PNG, JPEG, GIF or WebP header, or None."""
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            return struct.unpack(">II", data[16:24])
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return struct.unpack("<HH", data[6:10])
        if data.startswith(b"\xff\xd8"):
            return _jpeg_size(data)
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp_size(data)
    except struct.error:
        return None
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """Walk the JPEG segments to the first start-of-frame marker."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            i += 2
            continue
        if marker in _JPEG_SOF:
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return (width, height) if width and height else None
        i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and data[20] == 0x2F:
        b0, b1, b2, b3 = data[21:25]
        return 1 + (b0 | (b1 & 0x3F) << 8), 1 + (b1 >> 6 | b2 << 2 | (b3 & 0x0F) << 10)
    if chunk == b"VP8X":
        return (1 + int.from_bytes(data[24:27], "little"),
                1 + int.from_bytes(data[27:30], "little"))
    return None


def anthropic_image_tokens(width: int, height: int) -> int:
    """Claude's cost of a ``width`` x ``height`` image: scaled to fit 1568 px on the long
    edge and about 1.15 megapixels, then ``ceil(w * h / 750)`` (at least 1)."""
    scale = min(1.0, ANTHROPIC_MAX_EDGE / max(width, height),
                math.sqrt(ANTHROPIC_MAX_PIXELS / (width * height)))
    w, h = max(1, int(width * scale)), max(1, int(height * scale))
    return max(1, math.ceil(w * h / ANTHROPIC_PIXELS_PER_TOKEN))


def openai_image_tokens(width: int, height: int, detail: str = "high") -> int:
    """OpenAI's cost of a ``width`` x ``height`` image: 85 for ``detail="low"``, else
    ``85 + 170 * tiles`` after fitting 2048 x 2048 and a shortest side of at most 768."""
    if detail == "low":
        return OPENAI_BASE_TOKENS
    w, h = float(width), float(height)
    if max(w, h) > OPENAI_FIT:
        scale = OPENAI_FIT / max(w, h)
        w, h = w * scale, h * scale
    if min(w, h) > OPENAI_SHORT_SIDE:
        scale = OPENAI_SHORT_SIDE / min(w, h)
        w, h = w * scale, h * scale
    tiles = math.ceil(round(w, 6) / OPENAI_TILE) * math.ceil(round(h, 6) / OPENAI_TILE)
    return OPENAI_BASE_TOKENS + OPENAI_TILE_TOKENS * tiles


def _decode(data: str) -> bytes | None:
    """The image bytes a base64 string holds: first its head, the whole only when the
    head does not hold the size."""
    try:
        head = base64.b64decode(data[:_HEAD_CHARS - _HEAD_CHARS % 4])
        if image_size(head) is not None or len(data) <= _HEAD_CHARS:
            return head
        return base64.b64decode(data)
    except (binascii.Error, ValueError):
        return None


def _image_bytes(block: dict[str, Any]) -> tuple[bytes | None, str]:
    """(bytes or None, detail) of an Anthropic ``image`` block or OpenAI ``image_url`` part."""
    if block.get("type") == "image_url":
        image_url = block.get("image_url")
        if isinstance(image_url, str):
            image_url = {"url": image_url}
        if not isinstance(image_url, dict):
            return None, "high"
        url, detail = image_url.get("url"), image_url.get("detail") or "high"
        if isinstance(url, str) and url.startswith("data:") and ";base64," in url:
            return _decode(url.split(";base64,", 1)[1]), detail
        return None, detail
    source = block.get("source")
    if isinstance(source, dict) and source.get("type") == "base64" \
            and isinstance(source.get("data"), str):
        return _decode(source["data"]), "high"
    return None, "high"


def estimate_image(block: dict[str, Any], family: str = ANTHROPIC) -> int:
    """Tokens one image costs ``family``'s models (``"anthropic"`` or ``"openai"``).

    ``block`` is an Anthropic ``image`` block (``source`` base64 or url) or an OpenAI
    ``image_url`` part (a data URL or a web URL, with ``detail``). The size comes from the
    image's header; when it cannot be read, the family's fallback (see the module).
    """
    data, detail = _image_bytes(block)
    size = image_size(data) if data else None
    if family == OPENAI:
        if detail == "low":
            return OPENAI_BASE_TOKENS
        return OPENAI_FALLBACK if size is None else openai_image_tokens(*size, detail)
    return ANTHROPIC_FALLBACK if size is None else anthropic_image_tokens(*size)
