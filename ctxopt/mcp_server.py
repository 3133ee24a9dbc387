"""``ctxopt mcp``: a Model Context Protocol server over stdio, on the official ``mcp`` SDK.

Tools: ``gather``, ``tags``, ``index``, ``tokens`` and ``compact`` (agent transcripts). Each returns text for the model and
the same answer as structured JSON (``gather``'s follows ``ctxopt/schema/gather.schema.json``,
without the ``text`` rendering and with the best ``EXCLUDED_SHOWN`` excluded candidates only
unless asked to explain: clients pass one of the two on to the model, some the
structured content only, so each holds the code once; with ``format`` json the text is
the structured content itself).
The index of the repository is opened on the first call and kept open, so a later gather
costs only the query; ``index`` (or ``gather`` with ``refresh``) brings it up to date after
files change, and a gather whose candidates come from a file changed since updates it
first (one ``stat`` per candidate file), so that it never shows stale lines. Errors are tool errors (``isError``), never a crash of the server. Standard
output carries the protocol only: notes go to the log on standard error.

The repository is ``--root`` when given, else the client's first ``file://`` root (the
MCP roots capability), else the server's working directory.
"""

import json
import logging
import threading
import warnings
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import unquote, urlparse

import anyio
import anyio.to_thread
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, InputRequiredResult, TextContent
from pydantic import Field, ValidationError

from . import __version__
from .errors import CtxoptError, UsageError
from .files.safety import HygieneConfig
from .mcp_stdio import ReadStream, WriteStream
from .model import Result
from .pipeline import DEFAULT_BUDGET, GatherConfig, fit_prepared, prepare, why_nothing_found
from .render import RENDERERS, render_json, task_line
from .store import IndexOptions, StoredIndex, UpdateReport, open_index
from .tokens import Cl100kCounter
from .wording import counted

__all__ = ["ServerSettings", "Workspace", "build_server", "serve"]

log = logging.getLogger("ctxopt.mcp")

_INSTRUCTIONS = (
    "ctxopt picks the source code most relevant to a task from the repository and fits it "
    "to a token budget. Call `gather` with the task in plain words (name the classes, "
    "functions or files you know) before reading files one by one; call `index` after "
    "editing files so later gathers see the edits.")


@dataclass(frozen=True)
class ServerSettings:
    """What the server was started with: the fixed root (None: the client's roots), the
    index options, and the defaults of the ``gather`` tool (budget in tokens)."""

    root: Path | None = None
    index_path: Path | None = None
    jobs: int | None = None
    max_file_bytes: int | None = None
    hygiene: HygieneConfig = HygieneConfig()
    budget: int = DEFAULT_BUDGET
    max_ring: int = 3
    include_tests: bool = True


class Workspace:
    """The open index of one repository, kept between tool calls (one call at a time)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.root: Path | None = settings.root.resolve() if settings.root else None
        self._index: StoredIndex | None = None
        self.last_update: UpdateReport | None = None
        self.updates = 0  # index updates made by this server
        self.lock = threading.Lock()

    def open(self, *, refresh: bool = False) -> StoredIndex:
        """The index of ``self.root``, updated when first opened or when ``refresh``.

        Raises
        ------
        UsageError
            No root is known yet. ``IndexStoreError`` when the database fails.
        """
        if self.root is None:
            raise UsageError("no repository root: start the server with --root, or give "
                             "the client a file:// root")
        if self._index is not None and not refresh:
            return self._index
        self.close()
        settings = self.settings
        options = IndexOptions(path=settings.index_path, jobs=settings.jobs,
                               notify=log.warning, hygiene=settings.hygiene)
        if settings.max_file_bytes is not None:
            options = replace(options, max_file_bytes=settings.max_file_bytes)
        self._index, self.last_update = open_index(self.root, options)
        self.updates += 1
        log.info("indexed %s: %d read, %d parsed", self.root, self.last_update.scanned,
                 self.last_update.parsed)
        return self._index

    async def for_context(self, context: Context) -> "Workspace":
        """This workspace, its root taken from the client (or the working directory) on
        the first call when the server was started without one."""
        if self.root is None:
            found = await _client_root(context)
            self.root = (found or Path.cwd()).resolve()
        return self

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None


def _root_from_uri(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = Path(unquote(parsed.path))
    return path if path.is_dir() else None


async def _client_root(context: Context) -> Path | None:
    """The first ``file://`` directory among the client's roots, or None (also when the
    client answers ``roots/list`` with an error, or closed its input before answering)."""
    capabilities = context.client_capabilities
    if capabilities is None or capabilities.roots is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # roots are deprecated by the newest protocol
        try:
            listed = await context.session.list_roots()
        except MCPError as exc:
            log.warning("the client's roots are unknown (%s): using the working directory",
                        exc.message)
            return None
    for root in listed.roots:
        found = _root_from_uri(str(root.uri))
        if found is not None:
            return found
    return None


def _tool_error(exc: CtxoptError) -> ToolError:
    return ToolError(str(exc))


def _answer(text: str, structured: Any) -> CallToolResult:
    """A tool result: ``text`` for the model and ``structured`` as its JSON."""
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=structured)


def _arguments_message(exc: ValidationError) -> str:
    """Pydantic's rejection of a tool's arguments on one line: ``field: what is wrong
    (got value)`` for each error, ``; ``-separated, without pydantic's links; a value is
    shown up to 40 characters of its ``repr``."""
    parts = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(part) for part in error["loc"]) or "arguments"
        text = f"{field}: {' '.join(str(error['msg']).split())}"
        if error["type"] != "missing":
            shown = repr(error.get("input"))
            text += f" (got {shown if len(shown) <= 40 else shown[:37] + '...'})"
        parts.append(text)
    return "bad arguments: " + "; ".join(parts)


async def _not_initialized(ctx: ServerRequestContext[Any, Any],
                           call_next: CallNext) -> HandlerResult:
    """Server middleware: a request before ``initialize`` (but ``ping``, which the protocol
    allows then) is told that the session is not initialized, with the code the SDK
    answers it (-32602, "Invalid request parameters": trial 16). Decided from the
    session's state, not from the SDK's wording (review 33)."""
    if ctx.method not in ("initialize", "ping") and ctx.session.client_params is None:
        raise MCPError(INVALID_PARAMS, f"the session is not initialized: send initialize "
                       f"(then notifications/initialized) before {ctx.method}")
    return await call_next(ctx)


class _Server(MCPServer):
    """``MCPServer`` whose argument errors are one line (the SDK passes on pydantic's
    multi-line text, with a URL per error), which answers each line of stdin that is no
    message and every request read before the end of input (``mcp_stdio``), and which
    tells a request before ``initialize`` so (``_not_initialized``)."""

    async def run_stdio_async(self) -> None:
        # (the SDK's own, but for the wrapped streams: it has no hook for these)
        async with stdio_server() as (read_stream, write_stream):
            write = WriteStream(write_stream)
            await self._lowlevel_server.run(
                ReadStream(read_stream, write), write,
                self._lowlevel_server.create_initialization_options())

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None,
                        ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            raise ToolError(f"Error executing tool {name}: {_arguments_message(cause)}") from cause


def build_server(settings: ServerSettings) -> MCPServer:
    """The ``MCPServer`` with ctxopt's tools, over a ``Workspace`` for ``settings``."""
    server = _Server("ctxopt", instructions=_INSTRUCTIONS, version=__version__,
                     log_level="WARNING", middleware=[_not_initialized])
    workspace = Workspace(settings)
    counter = Cl100kCounter()
    _add_gather_tool(server, workspace, counter)
    _add_tags_tool(server, workspace)
    _add_index_tool(server, workspace)
    _add_compact_tool(server)
    _add_tokens_tool(server, counter)
    server.workspace = workspace  # type: ignore[attr-defined]
    return server


# The excluded candidates a gather's structured content lists, best first, unless it was
# asked to explain: all 58 of a gson gather at 2,000 tokens took 4,373 tokens of JSON, more
# than twice the budget, in what some clients pass on to the model whole (trial 4).
EXCLUDED_SHOWN = 5


def _add_gather_tool(server: MCPServer, workspace: Workspace, counter: Cl100kCounter) -> None:
    settings = workspace.settings

    @server.tool(name="gather", description=(
        "The source code most relevant to a task, fitted to a token budget: the "
        "definitions the task names, their members, callers and tests, cut or reduced to "
        "signatures rather than overflowing. Returns the context (text, JSON or manifest) "
        "and, as structured content, the JSON document, whose `next` lists the blocks a "
        "larger budget would add and the budget that adds each."))
    async def gather_tool(
        context: Context,
        task: Annotated[str, Field(min_length=1, description=(
            "The task in plain words, naming what you know: 'fix the retry bug in "
            "HttpClient.send', 'add a --verbose flag to cli.py'."))],
        budget: Annotated[int | None, Field(ge=1, description=(
            "Most tokens (cl100k_base) the text may use, header included. Default: "
            f"the server's ({settings.budget})."))] = None,
        scope: Annotated[str | None, Field(description=(
            "Keep only code under this path, relative to the repository root."))] = None,
        max_ring: Annotated[int | None, Field(ge=0, le=4, description=(
            "How far to walk from the named definitions: 0 definitions only, 1 members, "
            "2 callers and tests, 3 same-file siblings, 4 callers of callers."))] = None,
        tests: Annotated[bool | None, Field(description="Include test files.")] = None,
        format: Annotated[Literal["text", "json", "manifest"], Field(description=(
            "Form of the text content; the structured content is always the JSON."))
        ] = "text",
        refresh: Annotated[bool, Field(description=(
            "Update the index first (after files changed)."))] = False,
        explain: Annotated[bool, Field(description=(
            "Also say what the fitter did with each candidate (score, ring, reason; whole, "
            "truncated, signature or excluded and why): a second text content, and "
            "`explain` in the structured content."))] = False,
    ) -> CallToolResult:
        space = await workspace.for_context(context)
        config = GatherConfig(
            budget=settings.budget if budget is None else budget,
            max_ring=settings.max_ring if max_ring is None else max_ring,
            include_tests=settings.include_tests if tests is None else tests,
            scope=scope or None, hygiene=settings.hygiene)
        def run() -> Result:
            with space.lock:
                index = space.open(refresh=refresh)
                assert space.root is not None  # open() raises UsageError without a root
                prepared = prepare(space.root, task, config, counter=counter, index=index)
                # a file the client edited since the index read it would show other lines
                # under its definitions' names: update the index, and read again
                if not refresh and index.stale_files(dict.fromkeys(i.path for i in prepared.items)):
                    index = space.open(refresh=True)
                    prepared = prepare(space.root, task, config, counter=counter, index=index)
            return fit_prepared(prepared, config.budget, explain=explain)

        try:
            result = await anyio.to_thread.run_sync(run)  # the event loop keeps serving
        except CtxoptError as exc:
            raise _tool_error(exc) from exc
        document = json.loads(render_json(result, counter.count))
        # the code once in each of the two forms a client may pass on to its model: the
        # text content, and the structured content, whose blocks carry it (not `text`)
        del document["text"]
        if not explain:  # (``summary.excluded`` still counts them all)
            document["excluded"] = document["excluded"][:EXCLUDED_SHOWN]
        if format == "json":
            text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        else:
            text = RENDERERS[format](result, counter.count)
        if not result.selection.blocks and not result.selection.excluded:
            root = space.root
            assert root is not None  # run() opened its index
            text = (f"nothing relevant found for '{task_line(task)}' under {root} "
                    f"({why_nothing_found(root, result)})")
        answer = _answer(text, document)
        if result.explained is not None:
            from .explain import render_explain_text

            answer.content.append(TextContent(type="text",
                                              text=render_explain_text(result.explained)))
        return answer


def _add_tags_tool(server: MCPServer, workspace: Workspace) -> None:
    @server.tool(description=(
        "The definitions and references ctxopt's indexer finds in files or directories of "
        "the repository (like `ctags -x`): file, kind, name, qualified name, lines."))
    async def tags(
        context: Context,
        paths: Annotated[list[str], Field(min_length=1, description=(
            "Files or directories, relative to the repository root."))],
    ) -> CallToolResult:
        from .discover import MAX_FILE_BYTES
        from .tags import collect_tags, render_tags_text

        space = await workspace.for_context(context)
        root = space.root
        assert root is not None
        try:
            targets = [root / p for p in paths]  # a link is read by the index's rules
            outside = [p for p, t in zip(paths, targets) if not t.resolve().is_relative_to(root)]
            if outside:
                raise UsageError(f"outside the repository root: {', '.join(outside)}")
            settings = space.settings  # the index's rules, as the index tool reads files
            records = await anyio.to_thread.run_sync(lambda: collect_tags(
                targets, cwd=root, max_file_bytes=settings.max_file_bytes or MAX_FILE_BYTES,
                hygiene=settings.hygiene))
        except CtxoptError as exc:
            raise _tool_error(exc) from exc
        return _answer(render_tags_text(records), {"tags": [asdict(r) for r in records]})


def _add_index_tool(server: MCPServer, workspace: Workspace) -> None:
    @server.tool(name="index", description=(
        "Bring the repository's index up to date (after files changed) and say what it "
        "holds: files, languages, definitions, references, what was skipped and why."))
    async def index_tool(
        context: Context,
        refresh: Annotated[bool, Field(description=(
            "Update the index from the files on disk (false: report only)."))] = True,
    ) -> CallToolResult:
        space = await workspace.for_context(context)
        def run() -> tuple[dict[str, Any], UpdateReport]:
            with space.lock:
                index = space.open(refresh=refresh)
                report = space.last_update
                assert report is not None
                return {"root": str(space.root), "index": report.path, **index.summary(),
                        "skipped": report.skipped, "scanned": report.scanned,
                        "parsed": report.parsed, "removed": report.removed,
                        "rebuilt": report.rebuilt, "updates": space.updates}, report

        try:
            summary, report = await anyio.to_thread.run_sync(run)
        except CtxoptError as exc:
            raise _tool_error(exc) from exc
        text = (f"{counted(summary['files'], 'file')}, "
                f"{counted(summary['definitions'], 'definition')}, "
                f"{counted(summary['references'], 'reference')}; last update read "
                f"{report.scanned} and parsed {counted(report.parsed, 'file')}")
        return _answer(text, summary)


def _add_compact_tool(server: MCPServer) -> None:
    @server.tool(description=(
        "Compact an agent transcript (OpenAI chat or Anthropic messages) that nears its "
        "context window: drops the oldest turns behind an offline summary, cuts long tool "
        "results to fair shares, keeps the recent tail. Returns a report and, as "
        "structured content, the compacted transcript and its token counts."))
    def compact(
        transcript: Annotated[Any, Field(description=(
            "The message list, or an object with `messages` (and optional `system`, "
            "`tools`), in OpenAI or Anthropic shape."))],
        window: Annotated[int, Field(ge=1, description="The model's context window in tokens.")],
        reserve: Annotated[int, Field(ge=0, description=(
            "Tokens of the window kept free for the answer."))] = 0,
        trigger_percent: Annotated[float, Field(ge=0, le=100, description=(
            "Compact when the transcript reaches this percent of the window less reserve."))
        ] = 100,
        target_percent: Annotated[float, Field(ge=0, le=100, description=(
            "Compact down to this percent (below the trigger)."))] = 10,
        recent_tail: Annotated[int, Field(ge=0, le=64, description=(
            "At most this many recent units kept besides the retention set."))] = 8,
    ) -> CallToolResult:
        from .transcript import Compaction, Window, compact as compact_transcript
        from .transcript.command import report_line

        try:
            result = compact_transcript(transcript, Window(window, reserve, Compaction(
                trigger_percent=trigger_percent, target_percent=target_percent,
                recent_tail=recent_tail)))
        except CtxoptError as exc:
            raise _tool_error(exc) from exc
        return _answer(report_line(result).removeprefix("ctxopt: "), {
            "transcript": result.transcript.to_document(), "compacted": result.compacted,
            "tokens_before": result.tokens_before, "tokens_after": result.tokens_after,
            "kept": list(result.kept), "dropped": list(result.dropped), "key": result.key})


def _add_tokens_tool(server: MCPServer, counter: Cl100kCounter) -> None:
    @server.tool(description="The number of cl100k_base tokens in a text.")
    def tokens(
        text: Annotated[str, Field(description="The text to count.")],
    ) -> CallToolResult:
        count = counter.count(text)
        return _answer(str(count), {"tokens": count, "encoding": "cl100k_base"})


def serve(settings: ServerSettings) -> None:
    """Run the server over stdio until the client closes it.

    Raises
    ------
    KeyboardInterrupt
        At once on Ctrl-C (SIGINT), even while a line of stdin or a tool call is awaited.
        The SDK reads stdin in a worker thread that no cancel can stop, so the event loop
        would wait for the client's next line before ending; it runs in a daemon thread
        instead (its worker threads are daemons too), which the process does not wait for.
        A tool call cut short is as safe for the index as a killed run.
    """
    server = build_server(settings)
    workspace: Workspace = server.workspace  # type: ignore[attr-defined]  # set by build_server
    failure: list[BaseException] = []

    def run() -> None:
        try:
            server.run("stdio")
        except BaseException as exc:  # handed to the main thread, which raises it
            failure.append(exc)

    thread = threading.Thread(target=run, name="ctxopt mcp", daemon=True)
    thread.start()
    try:
        thread.join()  # a signal interrupts the wait, so KeyboardInterrupt is raised here
    except KeyboardInterrupt:
        if workspace.lock.acquire(blocking=False):  # no tool call is using the index
            try:
                workspace.close()
            finally:
                workspace.lock.release()
        raise
    workspace.close()
    if failure and not _output_closed(failure[0]):
        raise failure[0]


def _output_closed(exc: BaseException) -> bool:
    """Whether ``exc`` says only that the client closed our standard output (a one-shot
    pipe into ``head``): the server has no one left to answer, which is no error (review
    33: an 80-line ExceptionGroup of BrokenPipeError)."""
    inner = getattr(exc, "exceptions", None)  # an exception group (a backport before 3.11)
    if isinstance(inner, tuple) and inner:
        return all(_output_closed(e) for e in inner)
    return isinstance(exc, (BrokenPipeError, anyio.BrokenResourceError, anyio.ClosedResourceError))
