"""Token estimates: messages, images from their headers, tool schemas, the usage split."""
from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path

import pytest

from ctxopt.budget import Calibrated, EstimatingCounter
from ctxopt.tokens import count_tokens
from ctxopt.transcript import (Estimator, estimate_image, estimate_message, estimate_messages,
                               estimate_tool_schemas, load_transcript, split_usage)
from ctxopt.transcript.estimate import MESSAGE_OVERHEAD, REPLY_PRIMING, family_for_model
from ctxopt.transcript.images import (ANTHROPIC_FALLBACK, OPENAI_FALLBACK,
                                      anthropic_image_tokens, image_size, openai_image_tokens)

IMAGES = Path(__file__).resolve().parent.parent / "fixtures" / "images"


@pytest.mark.parametrize("name, size", [
    ("screen_300x200.png", (300, 200)),
    ("screen_1000x700_q90.jpg", (1000, 700)),
    ("screen_1000x700_q10.jpg", (1000, 700)),
    ("tall_100x3000_progressive.jpg", (100, 3000)),
    ("icon_64x48.gif", (64, 48)),
    ("clip_640x360.webp", (640, 360)),  # lossy (VP8)
    ("strip_2000x100.webp", (2000, 100)),  # lossless (VP8L)
    ("alpha_320x240.webp", (320, 240)),  # extended (VP8X)
])
def test_the_size_is_read_from_the_header(name, size):
    assert image_size((IMAGES / name).read_bytes()) == size


def _png(width: int, height: int) -> bytes:
    """A real, minimal PNG (one grey row repeated), written here so its size is known."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _anthropic_block(data: bytes, media: str = "image/png") -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": media,
                                        "data": base64.b64encode(data).decode()}}


def test_byte_size_does_not_matter_only_pixels():
    big = (IMAGES / "screen_1000x700_q90.jpg").read_bytes()
    small = (IMAGES / "screen_1000x700_q10.jpg").read_bytes()
    assert len(big) > 4 * len(small)
    for family in ("anthropic", "openai"):
        assert estimate_image(_anthropic_block(big, "image/jpeg"), family) == estimate_image(
            _anthropic_block(small, "image/jpeg"), family)


def test_anthropic_formula_scales_to_the_long_edge_and_area_caps():
    assert anthropic_image_tokens(300, 200) == 80  # 60000 / 750
    assert anthropic_image_tokens(1000, 700) == 934  # ceil(700000 / 750)
    # 200 x 3000 is scaled to 104 x 1568 (long edge), then costs ceil(104*1568/750)
    assert anthropic_image_tokens(200, 3000) == -(-104 * 1568 // 750)
    # a 4000 x 3000 photo is held to about 1.15 megapixels: at most 1534 tokens
    assert 1500 <= anthropic_image_tokens(4000, 3000) <= ANTHROPIC_FALLBACK == 1534


def test_openai_formula_matches_its_documented_examples():
    assert openai_image_tokens(1024, 1024) == 765  # 768 x 768: 4 tiles
    assert openai_image_tokens(2048, 4096) == 1105  # 768 x 1536: 6 tiles
    assert openai_image_tokens(4096, 8192, "low") == 85
    assert openai_image_tokens(300, 200) == 255  # never scaled up: 1 tile
    assert OPENAI_FALLBACK == 1445 == openai_image_tokens(768, 2048)


def test_a_png_written_here_is_priced_by_both_families():
    block = _anthropic_block(_png(600, 400))
    assert estimate_image(block) == 320
    url = "data:image/png;base64," + base64.b64encode(_png(600, 400)).decode()
    assert estimate_image({"type": "image_url", "image_url": {"url": url}}, "openai") == 85 + 170 * 2
    assert estimate_image({"type": "image_url", "image_url": {"url": url, "detail": "low"}},
                          "openai") == 85


@pytest.mark.parametrize("block", [
    {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
    {"type": "image", "source": {"type": "base64", "data": "not base64!!"}},
    {"type": "image", "source": {"type": "base64", "data": base64.b64encode(b"BM...").decode()}},
    {"type": "image", "source": {"type": "file", "file_id": "f"}},
    {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
])
def test_an_unreadable_size_gets_the_family_fallback(block):
    assert estimate_image(block, "anthropic") == ANTHROPIC_FALLBACK
    assert estimate_image(block, "openai") == OPENAI_FALLBACK


def test_a_jpeg_size_behind_a_large_header_segment_is_found():
    jpeg = (IMAGES / "screen_1000x700_q10.jpg").read_bytes()
    padding = b"\xff\xe1" + struct.pack(">H", 65000) + b"\x00" * 64998  # an APP1 (EXIF) segment
    padded = jpeg[:2] + padding + padding + jpeg[2:]
    assert estimate_image(_anthropic_block(padded, "image/jpeg")) == 934


def test_a_message_costs_its_text_calls_results_and_images():
    text = "Read ctxopt/budget.py and explain Window."
    assert estimate_message({"role": "user", "content": text}) == MESSAGE_OVERHEAD + count_tokens(text)
    arguments = json.dumps({"path": "ctxopt/budget.py"})
    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "read_file", "arguments": arguments}}]}
    assert estimate_message(call) == MESSAGE_OVERHEAD + count_tokens("read_file") + count_tokens(
        arguments)
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [
        {"type": "text", "text": "a"}, {"type": "text", "text": "b"}, _anthropic_block(_png(300, 200))]}]}
    assert estimate_message(result) == MESSAGE_OVERHEAD + count_tokens("a\nb") + 80
    assert estimate_messages([result, result]) == 2 * estimate_message(result)


def test_the_fast_estimate_and_the_calibration_factor_apply():
    message = {"role": "user", "content": "x" * 400}
    assert estimate_message(message, Estimator(EstimatingCounter())) == MESSAGE_OVERHEAD + 100
    scaled = Estimator(Calibrated(EstimatingCounter(), factor=1.5))
    assert estimate_message(message, scaled) == MESSAGE_OVERHEAD + 150
    assert Estimator.for_model("claude-x", exact=False, factor=2.0).text("x" * 400) == 200
    assert Estimator.for_model("gpt-4o").family == "openai"


def test_a_stored_calibration_factor_applies_to_its_model(tmp_path):
    from ctxopt.calibration import CalibrationStore

    store = CalibrationStore(tmp_path)
    store.save("claude-x", 1.5)
    assert Estimator.for_model("claude-x", exact=False, store=store).text("x" * 400) == 150
    assert Estimator.for_model("other", exact=False, store=store).text("x" * 400) == 100
    assert Estimator.for_model("claude-x", exact=False, factor=2.0, store=store).text(
        "x" * 400) == 200


def test_model_names_choose_the_image_family():
    assert family_for_model("claude-sonnet-4-5") == "anthropic"
    assert family_for_model("gpt-4.1-mini") == "openai"
    assert family_for_model("o3") == "openai"
    assert family_for_model(None, "openai") == "openai"
    assert family_for_model("mistral-large", "anthropic") == "anthropic"


def test_tool_schemas_cost_their_json_as_sent():
    tools = [{"name": "grep", "description": "Search.", "input_schema": {"type": "object"}}]
    sent = json.dumps(tools[0], separators=(",", ":"))
    assert estimate_tool_schemas(tools) == count_tokens(sent)


def test_usage_splits_system_tools_and_conversation():
    anthropic = load_transcript({"system": "Be brief.", "tools": [{"name": "grep"}],
                                 "messages": [{"role": "user", "content": "hi"}]})
    usage = split_usage(anthropic)
    assert usage.system == count_tokens("Be brief.")
    assert usage.tools == count_tokens('{"name":"grep"}')
    assert usage.conversation == MESSAGE_OVERHEAD + count_tokens("hi")
    assert usage.total == usage.system + usage.tools + usage.conversation + REPLY_PRIMING
    openai = load_transcript([{"role": "system", "content": "Be brief."},
                              {"role": "user", "content": "hi"}])
    assert split_usage(openai).system == MESSAGE_OVERHEAD + count_tokens("Be brief.")
