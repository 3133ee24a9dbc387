"""The stdio streams of ``ctxopt mcp``, between the SDK's stdio transport and its server.

``ReadStream`` answers each line of standard input that is no message (the SDK only
logs such a line) and holds the end of input back until every request read has been
answered: the SDK cancels the requests still running when its read stream ends, so a
one-shot pipe (``initialize``, ``notifications/initialized``, ``tools/call``, then end of
input) lost the call's answer (trial 16). ``WriteStream`` tells it which requests are
answered. Neither parses or writes JSON itself: that stays the SDK's.
"""
from __future__ import annotations

import logging
from collections import Counter
from typing import Any

import anyio
from mcp.shared.message import SessionMessage
from mcp.types import (
    CONNECTION_CLOSED,
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)
from pydantic import ValidationError

__all__ = ["ReadStream", "WriteStream", "rejection"]

log = logging.getLogger("ctxopt.mcp")


def rejection(exc: Exception) -> JSONRPCError | None:
    """The JSON-RPC error answering a line the SDK's stdio transport could not read as a
    message (``exc``, its pydantic error, which holds the line or the value read from it):
    -32700 with id null for a line that is no JSON, -32600 with the request's id (null
    when it has none) for JSON that is no request: params that are no object, no
    ``"jsonrpc"``, a batch (which MCP does not have). None for a malformed response of the
    client's, which no answer is due for."""
    if not isinstance(exc, ValidationError):
        return None
    errors = exc.errors(include_url=False)
    if any(error["type"] == "json_invalid" for error in errors):
        return JSONRPCError(jsonrpc="2.0", id=None,
                            error=ErrorData(code=PARSE_ERROR, message="Parse error: the line is not JSON"))
    # (the object read: a missing field's error holds it, one of a batch the list)
    message = next((error["input"] for error in errors if error["type"] == "missing"
                    and len(error["loc"]) == 2), None)
    if message is None:
        message = next((error["input"] for error in errors if isinstance(error.get("input"), list)
                        and len(error["loc"]) == 1), None)
    if isinstance(message, dict) and "method" not in message and (
            "result" in message or "error" in message):
        return None
    if isinstance(message, list):
        why = "a batch (MCP has none): send one message per line"
    else:
        why = "; ".join(sorted({f"{'.'.join(map(str, error['loc'][1:])) or 'message'}: {error['msg']}"
                                for error in errors if error["loc"][:1] == ("JSONRPCRequest",)}))
    request_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        request_id = None
    return JSONRPCError(jsonrpc="2.0", id=request_id,
                        error=ErrorData(code=INVALID_REQUEST, message=f"Invalid Request: {why or 'no request'}"))


class WriteStream:
    """The SDK's stdio write stream, telling ``reader`` of each message the server sends
    (set by ``ReadStream``, which it answers on)."""

    def __init__(self, write: Any) -> None:
        self._write = write
        self.reader: ReadStream | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._write, name)

    async def send(self, item: SessionMessage) -> None:
        await self._write.send(item)
        if self.reader is not None:
            self.reader.sent(item.message)

    async def aclose(self) -> None:
        await self._write.aclose()

    async def __aenter__(self) -> WriteStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


class ReadStream:
    """The SDK's stdio read stream, with each line it could not read answered by
    ``rejection`` on ``write`` and left out (a client waits for ever for the answer to a
    request with an id; trial 14), and its end held back until each request read is
    answered (or cancelled by the client). Meanwhile a request of the server's to the
    client (``roots/list``), which no answer can come to any more, gets a
    ``CONNECTION_CLOSED`` error as its answer."""

    def __init__(self, read: Any, write: WriteStream) -> None:
        self._read, self._write = read, write
        write.reader = self
        self._unanswered: Counter[str | int] = Counter()  # the client's requests
        self._asked: dict[str | int, None] = {}  # the server's requests, unanswered
        self._ended = False
        self._changed = anyio.Event()

    def __getattr__(self, name: str) -> Any:  # ``last_context``, which the SDK reads
        return getattr(self._read, name)

    def sent(self, message: Any) -> None:
        """Note a message the server sent: an answer, or a request to the client."""
        if isinstance(message, (JSONRPCResponse, JSONRPCError)) and message.id is not None \
                and self._unanswered[message.id] > 0:
            self._unanswered[message.id] -= 1
            if not self._unanswered[message.id]:
                del self._unanswered[message.id]
        elif isinstance(message, JSONRPCRequest):
            self._asked[message.id] = None
        self._changed.set()

    def _received(self, message: Any) -> None:
        if isinstance(message, JSONRPCRequest):
            self._unanswered[message.id] += 1
        elif isinstance(message, (JSONRPCResponse, JSONRPCError)) and message.id is not None:
            self._asked.pop(message.id, None)
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            cancelled = (message.params or {}).get("requestId")
            if isinstance(cancelled, (str, int)):
                self._unanswered.pop(cancelled, None)  # a cancelled request is not answered

    async def receive(self) -> Any:
        """The next message from the client, or a ``CONNECTION_CLOSED`` answer to the
        server's request after the end of input.

        Raises
        ------
        anyio.EndOfStream
            Input ended and every request read was answered.
        """
        while not self._ended:
            try:
                item = await self._read.receive()
            except anyio.EndOfStream:
                self._ended = True
                break
            if not isinstance(item, Exception):
                self._received(item.message)
                return item
            answer = rejection(item)
            log.warning("unreadable message: %s", answer.error.message if answer
                        else "a malformed response, not answered")
            if answer is not None:
                await self._write.send(SessionMessage(answer))
        while True:
            if self._asked:
                asked = next(iter(self._asked))
                del self._asked[asked]
                return SessionMessage(JSONRPCError(jsonrpc="2.0", id=asked, error=ErrorData(
                    code=CONNECTION_CLOSED, message="the client closed its input")))
            if not self._unanswered:
                raise anyio.EndOfStream
            self._changed = anyio.Event()
            await self._changed.wait()

    async def aclose(self) -> None:
        await self._read.aclose()

    def __aiter__(self) -> ReadStream:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> ReadStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
