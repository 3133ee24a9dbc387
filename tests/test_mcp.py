"""``ctxopt mcp`` as a client sees it: a subprocess spoken to with the SDK's stdio client."""
import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.server.mcpserver.exceptions import ToolError

from conftest import sigint_caught

from ctxopt.mcp_server import ServerSettings, build_server


# The SDK's stdio client passes the server only a few variables (PATH, HOME, ...), not
# PYTHONPATH: without this, a run of the tests from a work tree served an installed ctxopt.
SOURCE = {"PYTHONPATH": str(Path(__file__).resolve().parent.parent)}


def _server(root: Path, tmp_path: Path, *options: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "ctxopt", "mcp", "--root", str(root), "--index", str(tmp_path / "index.db"),
              *options],
        cwd=str(tmp_path), env=SOURCE)


def _session(root: Path, tmp_path: Path, scenario, *options: str) -> None:
    """Run ``scenario(session)`` against a fresh server; its stderr goes to a file."""
    errlog = tmp_path / "server-stderr.txt"

    async def run() -> None:
        with errlog.open("w") as stream:
            async with stdio_client(_server(root, tmp_path, *options),
                                    errlog=stream) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    await scenario(session)

    anyio.run(run)
    assert "Traceback" not in errlog.read_text()


def test_a_session_lists_tools_gathers_twice_and_reports_errors(fixture_repo, tmp_path, contract) -> None:
    root = fixture_repo("py_storage")
    seen: dict = {}

    async def scenario(session: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        seen["tools"] = tools
        first = await session.call_tool("gather", {"task": "fix Storage bug", "budget": 2000})
        (root / "storage" / "later.py").write_text("def frobnicate_widget():\n    return 1\n")
        second = await session.call_tool("gather", {"task": "fix frobnicate_widget", "format": "json"})
        seen["status"] = (await session.call_tool("index", {"refresh": False})).structured_content
        seen["refreshed"] = (await session.call_tool("index", {})).structured_content
        third = await session.call_tool("gather", {"task": "fix frobnicate_widget"})
        seen["gathers"] = (first, second, third)
        seen["bad_budget"] = await session.call_tool("gather", {"task": "fix Storage", "budget": -5})
        seen["bad_scope"] = await session.call_tool("gather", {"task": "fix Storage", "scope": "nope"})
        seen["tokens"] = await session.call_tool("tokens", {"text": "hello world"})
        seen["tags"] = await session.call_tool("tags", {"paths": ["storage/db.py"]})
        seen["outside"] = await session.call_tool("tags", {"paths": ["../"]})
        messages = [{"role": "user", "content": "word " * 400}] * 6
        seen["compact"] = await session.call_tool("compact", {"transcript": messages,
                                                              "window": 1500})
        seen["bad_compact"] = await session.call_tool("compact", {"transcript": 5, "window": 1500})

    _session(root, tmp_path, scenario)

    tools = seen["tools"]
    assert set(tools) == {"gather", "tags", "index", "tokens", "compact"}
    gather_schema = tools["gather"].input_schema
    assert gather_schema["required"] == ["task"]
    assert all(gather_schema["properties"][name].get("description")
               for name in ("task", "budget", "scope", "max_ring", "tests", "format"))
    first, second, third = seen["gathers"]
    assert not first.is_error
    assert first.content[0].text.startswith("# ctxopt context for: fix Storage bug")
    document = contract("gather", first.structured_content)
    assert document["budget"] == 2000 and document["blocks"][0]["symbols"][0] == "Storage"
    # the index stayed open: the second gather did not re-index, so the new file is unseen
    assert seen["status"]["updates"] == 1
    assert "later.py" not in second.content[0].text
    assert seen["refreshed"]["updates"] == 2 and seen["refreshed"]["parsed"] == 1
    assert "storage/later.py" in {b["file"] for b in third.structured_content["blocks"]}
    contract("gather", third.structured_content)
    assert seen["bad_budget"].is_error  # one line, without pydantic's text and links
    assert seen["bad_budget"].content[0].text == ("Error executing tool gather: bad arguments: "
                                                  "budget: Input should be greater than or "
                                                  "equal to 1 (got -5)")
    assert seen["bad_scope"].is_error and "scope 'nope' does not exist" in seen["bad_scope"].content[0].text
    assert (seen["tokens"].content[0].text, seen["tokens"].structured_content["tokens"]) == ("2", 2)
    names = {t["qualified_name"] for t in contract("tags", seen["tags"].structured_content["tags"])}
    assert {"Storage", "Storage.get"} <= names
    assert seen["outside"].is_error and "outside the repository root" in seen["outside"].content[0].text
    _check_compact(seen)


def test_without_root_the_server_uses_the_clients_root(fixture_repo, tmp_path) -> None:
    from mcp import types

    root = fixture_repo("py_storage")
    seen: dict = {}

    async def list_roots(context) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=root.as_uri())])

    async def run() -> None:
        server = StdioServerParameters(command=sys.executable, args=[
            "-m", "ctxopt", "mcp", "--index", str(tmp_path / "index.db")], cwd=str(tmp_path),
            env=SOURCE)
        with (tmp_path / "err.txt").open("w") as stream:
            async with stdio_client(server, errlog=stream) as (read, write):
                async with ClientSession(read, write, list_roots_callback=list_roots) as session:
                    await session.initialize()
                    seen["result"] = await session.call_tool("gather", {"task": "fix Storage bug"})

    anyio.run(run)
    result = seen["result"]
    assert not result.is_error, result.content
    assert result.structured_content["root"] == str(root.resolve())


def _check_compact(seen: dict) -> None:
    result = seen["compact"].structured_content
    assert result["compacted"] and result["tokens_after"] < result["tokens_before"]
    assert len(result["transcript"]) < 6
    assert seen["bad_compact"].is_error


def test_standard_output_carries_only_protocol_messages(fixture_repo, tmp_path) -> None:
    """A cold index (worker processes, notes) writes nothing but JSON-RPC on stdout."""
    import json
    import subprocess

    root = fixture_repo("py_storage")
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "gather", "arguments": {"task": "fix Storage bug"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "index", "arguments": {}}},
    ]
    messages = []
    with subprocess.Popen(
            [sys.executable, "-m", "ctxopt", "mcp", "--root", str(root), "--jobs", "2"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=tmp_path) as process:
        try:
            for request in requests:  # one at a time, each answer read before the next
                process.stdin.write(json.dumps(request) + "\n")
                process.stdin.flush()
                if "id" in request:
                    messages.append(json.loads(process.stdout.readline()))
            process.stdin.close()
            rest, stderr = process.stdout.read(), process.stderr.read()
            process.wait(timeout=60)
        finally:
            process.kill()
    assert rest == ""
    assert [m.get("id") for m in messages] == [1, 2, 3]
    assert all(m["jsonrpc"] == "2.0" and "result" in m for m in messages)
    assert not messages[1]["result"].get("isError")
    assert process.returncode == 0 and "Traceback" not in stderr


def test_every_line_that_is_no_message_gets_an_error_answer(fixture_repo, tmp_path) -> None:
    """Trial 14: the SDK dropped a line that is no JSON, a request whose params is no
    object or that lacks "jsonrpc", and a batch, without a word; a client waited for ever."""
    import json
    import subprocess

    root = fixture_repo("py_storage")
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    bad = ["{not json", b"\xff\xfe".decode("latin-1"),
           json.dumps({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": "notanobject"}),
           json.dumps({"id": "x17", "method": "tools/list"}), "[1, 2, 3]",
           json.dumps({"jsonrpc": "2.0", "id": 5, "result": "a client's bad answer: no reply"})]
    after = {"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {
        "name": "tokens", "arguments": {"text": "ok"}}}
    with subprocess.Popen(
            [sys.executable, "-m", "ctxopt", "mcp", "--root", str(root), "--index",
             str(tmp_path / "index.db")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=tmp_path) as process:
        try:
            def send(line: str) -> None:
                process.stdin.write(line.encode("latin-1" if "\xff" in line else "utf-8") + b"\n")
                process.stdin.flush()
            send(json.dumps(initialize))
            assert json.loads(process.stdout.readline())["id"] == 1
            for line in [*bad, json.dumps(after)]:
                send(line)
            answers = []
            while not answers or answers[-1].get("id") != 99:  # the server kept running
                answers.append(json.loads(process.stdout.readline()))
            process.stdin.close()
            process.wait(timeout=60)
        finally:
            process.kill()
    assert [(a["id"], a["error"]["code"]) for a in answers[:-1]] == [
        (None, -32700), (None, -32700), (11, -32600), ("x17", -32600), (None, -32600)]
    assert "params" in answers[2]["error"]["message"] and "jsonrpc" in answers[3]["error"]["message"]
    assert answers[0]["error"]["message"] == "Parse error: the line is not JSON"  # (trial 15)
    assert process.returncode == 0


def test_gather_explains_and_says_which_budget_adds_what(fixture_repo, tmp_path, contract) -> None:
    # issue 17: `explain` adds a second text content (and the structured `explain`); the
    # structured `next` names budgets, and asking for one shows its block
    root = fixture_repo("py_storage")
    seen: dict = {}

    async def scenario(session: ClientSession) -> None:
        seen["small"] = await session.call_tool("gather", {"task": "fix Storage bug",
                                                           "budget": 300, "explain": True})
        entry = seen["small"].structured_content["next"][0]
        seen["entry"] = entry
        seen["larger"] = await session.call_tool("gather", {"task": "fix Storage bug",
                                                            "budget": entry["budget"]})

    _session(root, tmp_path, scenario)
    small = seen["small"]
    assert not small.is_error and len(small.content) == 2
    assert small.content[0].text.startswith("# ctxopt context for: fix Storage bug")
    assert small.content[1].text.startswith("# explain: ")
    document = contract("gather", small.structured_content)
    assert len(document["explain"]) == len(small.content[1].text.splitlines()) - 1
    entry, larger = seen["entry"], contract("gather", seen["larger"].structured_content)
    assert entry["tokens"] == entry["budget"] - 300 and "explain" not in larger
    assert len(seen["larger"].content) == 1
    assert any(b["file"] == entry["file"] and b["symbols"] == entry["symbols"]
               for b in larger["blocks"])


def test_the_tags_tool_reads_files_by_the_servers_index_settings(make_repo, tmp_path) -> None:
    """The tags tool used the default size limit and exclusions, not the server's."""
    root = make_repo({"ok.py": "def ok(): pass\n", "big.py": "def big(): pass\n" + "x = 1\n" * 40,
                      "gen/made.py": "def made(): pass\n"})
    seen: dict = {}

    async def scenario(session: ClientSession) -> None:
        seen["tags"] = (await session.call_tool("tags", {"paths": ["."]})).structured_content

    _session(root, tmp_path, scenario, "--max-file-size", "100", "--exclude", "gen/")
    assert {record["file"] for record in seen["tags"]["tags"]} == {"ok.py"}


def test_the_tags_tool_follows_no_link_the_index_would_not(make_repo, tmp_path) -> None:
    # trial: a link to a directory was walked (the tool resolved the paths it was given)
    root = make_repo({"src/ok.py": "def ok(): pass\n"})
    (root / "linked").symlink_to("src", target_is_directory=True)
    seen: dict = {}

    async def scenario(session: ClientSession) -> None:
        for paths in (["linked"], ["src"]):
            seen[paths[0]] = (await session.call_tool("tags", {"paths": paths})).structured_content

    _session(root, tmp_path, scenario)
    assert seen["linked"]["tags"] == []
    assert {record["file"] for record in seen["src"]["tags"]} == {"src/ok.py"}


def test_argument_errors_are_one_line_with_values_cut_to_40_characters() -> None:
    server = build_server(ServerSettings())
    messages = []

    async def run() -> None:
        for arguments in ({}, {"task": "x", "budget": "9" * 50 + "z"}):
            with pytest.raises(ToolError) as caught:
                await server.call_tool("gather", arguments)
            messages.append(str(caught.value))

    anyio.run(run)
    assert messages == [
        "Error executing tool gather: bad arguments: task: Field required",
        "Error executing tool gather: bad arguments: budget: Input should be a valid integer, "
        "unable to parse string as an integer (got '" + "9" * 36 + "...)"]


def test_gather_sends_the_code_once_in_the_text_and_once_in_the_structured_content(
        fixture_repo, tmp_path, contract) -> None:
    # review: the code came three times (the text content, the JSON `text`, each block's
    # `content`); a client passes one of the two forms on to its model
    root = fixture_repo("py_storage")
    seen: dict = {}

    async def scenario(session: ClientSession) -> None:
        for format in ("text", "json", "manifest"):
            seen[format] = await session.call_tool(
                "gather", {"task": "fix Storage bug", "budget": 2000, "format": format})

    _session(root, tmp_path, scenario)
    structured = contract("gather", seen["text"].structured_content)
    assert "text" not in structured and structured["blocks"]
    code = structured["blocks"][0]["content"]
    assert seen["text"].content[0].text.count(code) == 1
    assert json.dumps(structured).count(json.dumps(code)[1:-1]) == 1
    assert json.loads(seen["json"].content[0].text) == seen["json"].structured_content == structured
    assert seen["manifest"].content[0].text.startswith("# ctxopt manifest")
    assert seen["manifest"].structured_content == structured


def test_nothing_found_is_one_short_line_saying_why(fixture_repo, tmp_path) -> None:
    # the whole task was quoted back (a pasted log: megabytes), and no reason given
    root = fixture_repo("py_storage")
    seen: dict = {}

    async def scenario(session: ClientSession) -> None:
        seen["none"] = await session.call_tool("gather", {"task": "zqxv wbrk " * 5000})

    _session(root, tmp_path, scenario)
    (line,) = seen["none"].content[0].text.splitlines()
    assert line.startswith("nothing relevant found for 'zqxv wbrk zqxv") and len(line) < 400
    assert line.endswith("(no definition, file or keyword matched)")


def test_ctrl_c_ends_the_server_at_once_with_130(fixture_repo, tmp_path) -> None:
    # trial: the server waited for a line on stdin (the SDK reads it in a thread that a
    # cancel cannot stop), so Ctrl-C with the client still connected did nothing
    import signal
    import subprocess

    root = fixture_repo("py_storage")
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}}
    with sigint_caught():  # (a test run started as a background job ignores SIGINT)
        server = subprocess.Popen(
            [sys.executable, "-m", "ctxopt", "mcp", "--root", str(root)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=tmp_path)
    with server as process:
        try:
            process.stdin.write(json.dumps(initialize) + "\n")
            process.stdin.flush()
            assert "result" in json.loads(process.stdout.readline())  # serving
            process.send_signal(signal.SIGINT)  # stdin stays open, as a client keeps it
            process.wait(timeout=30)  # a hang fails here
            stderr = process.stderr.read()
        finally:
            process.kill()
    assert process.returncode == 130
    assert stderr.strip().splitlines()[-1] == "ctxopt: interrupted"
    assert "Traceback" not in stderr


def test_a_gather_after_an_edit_shows_the_files_lines_as_they_are(fixture_repo, tmp_path) -> None:
    # trial 4: after the client edited a file, a gather without `refresh` showed other
    # lines under a definition's name (the index kept the old line numbers)
    root = fixture_repo("py_storage")
    db = root / "storage" / "db.py"
    seen: dict = {}

    async def scenario(session: ClientSession) -> None:
        await session.call_tool("gather", {"task": "fix Storage bug"})
        db.write_text("import os\nimport sys\n\n\n" + db.read_text())
        seen["after"] = (await session.call_tool("gather", {"task": "fix Storage bug"})
                         ).structured_content
        seen["status"] = (await session.call_tool("index", {"refresh": False})).structured_content
        seen["again"] = (await session.call_tool("gather", {"task": "fix Storage bug"})
                         ).structured_content
        seen["status2"] = (await session.call_tool("index", {"refresh": False})).structured_content

    _session(root, tmp_path, scenario)
    lines = db.read_text().splitlines()
    shown = [b for b in seen["after"]["blocks"] if b["file"] == "storage/db.py"]
    assert shown and any(b["symbols"] and b["symbols"][0] == "Storage" for b in shown)
    for block in shown:  # every line where the file has it now
        assert block["content"].split("\n")[0] == lines[block["start_line"] - 1]
    assert seen["status"]["updates"] == 2  # updated once for the edit
    assert seen["status2"]["updates"] == 2  # and not again while nothing changed
    assert seen["again"]["blocks"] == seen["after"]["blocks"]


def test_the_structured_content_lists_only_the_best_excluded_unless_explaining(
        make_repo, tmp_path, contract) -> None:
    # trial 4: at 2,000 tokens the list of excluded candidates alone took 4,373 tokens of
    # the structured content, which some clients pass on to the model whole
    from ctxopt.mcp_server import EXCLUDED_SHOWN

    seen: dict = {}

    async def scenario(session: ClientSession) -> None:
        for explain in (False, True):
            seen[explain] = (await session.call_tool(
                "gather", {"task": "fix storage task", "budget": 300, "explain": explain})
            ).structured_content

    body = "".join(f"    x = x + {j}\n" for j in range(30))
    root = make_repo({f"mod{i}.py": f"def storage_task_{i}(x):\n{body}    return x\n"
                      for i in range(15)})
    _session(root, tmp_path, scenario)
    short, full = contract("gather", seen[False]), contract("gather", seen[True])
    assert full["summary"]["excluded"] == short["summary"]["excluded"] > EXCLUDED_SHOWN
    assert len(full["excluded"]) == full["summary"]["excluded"]
    assert short["excluded"] == full["excluded"][:EXCLUDED_SHOWN]


def _one_shot(root: Path | None, cwd: Path, *lines: dict) -> tuple[dict, str]:
    """The answers (by id) of a server fed ``lines`` through a pipe that then closes, and
    its standard error; the server must exit 0."""
    answers, stderr = _one_shot_answers(root, cwd, *lines)
    return {a["id"]: a for a in answers}, stderr


def _one_shot_answers(root: Path | None, cwd: Path, *lines: dict) -> tuple[list[dict], str]:
    """``_one_shot``'s answers as a list, in the order they were written."""
    import subprocess

    command = [sys.executable, "-m", "ctxopt", "mcp", "--index", str(cwd / "index.db")]
    done = subprocess.run([*command, *(["--root", str(root)] if root else [])],
                          input="".join(json.dumps(line) + "\n" for line in lines),
                          capture_output=True, text=True, cwd=cwd, timeout=120, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    return [a for a in answers if "method" not in a], done.stderr


_INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
_INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _call(number: int, tool: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": number, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}


def test_a_one_shot_pipe_gets_every_answer_issue_b6(fixture_repo, tmp_path) -> None:
    # trial 16: initialize, initialized and a gather piped in, then end of input: only
    # the initialize answer came back (the SDK cancels the requests still running)
    answers, _ = _one_shot(fixture_repo("py_storage"), tmp_path, _INITIALIZE, _INITIALIZED,
                           _call(2, "gather", {"task": "fix Storage bug", "budget": 500}),
                           _call(3, "tokens", {"text": "hi"}))
    assert sorted(answers) == [1, 2, 3]
    assert answers[2]["result"]["content"][0]["text"].startswith("# ctxopt context for: fix")
    assert answers[3]["result"]["structuredContent"]["tokens"] == 1


def test_roots_asked_after_the_end_of_input_fall_back_to_the_working_directory_issue_b6(
        fixture_repo, tmp_path) -> None:
    # the server asks a client with roots for them; a closed pipe cannot answer
    root = fixture_repo("py_storage")
    initialize = {**_INITIALIZE, "params": {**_INITIALIZE["params"], "capabilities": {"roots": {}}}}
    answers, stderr = _one_shot(None, root, initialize, _INITIALIZED,
                                _call(2, "gather", {"task": "fix Storage bug", "budget": 500}))
    assert "Storage" in answers[2]["result"]["content"][0]["text"]
    assert "using the working directory" in stderr


def test_a_request_before_initialize_is_told_the_session_is_not_initialized_issue_b6(
        fixture_repo, tmp_path) -> None:
    # trial 16: -32602 "Invalid request parameters" with empty data
    answers, _ = _one_shot(fixture_repo("py_storage"), tmp_path,
                           {"jsonrpc": "2.0", "id": 7, "method": "tools/list"},
                           _call(8, "tokens", {"text": "hi"}),
                           {"jsonrpc": "2.0", "id": 9, "method": "ping"})
    for number in (7, 8):
        assert answers[number]["error"]["code"] == -32602
        assert "the session is not initialized: send initialize" in answers[number]["error"]["message"]
    assert answers[9]["result"] == {}


def test_a_client_that_closes_our_output_ends_the_server_quietly(fixture_repo, tmp_path) -> None:
    # review 33: `ctxopt mcp | head -c 10` printed an 80-line BrokenPipeError traceback
    import subprocess

    command = [sys.executable, "-m", "ctxopt", "mcp", "--index", str(tmp_path / "index.db"),
               "--root", str(fixture_repo("py_storage"))]
    lines = [_INITIALIZE, _INITIALIZED, _call(2, "gather", {"task": "fix Storage bug"})]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, cwd=tmp_path,
                          env={**os.environ, **SOURCE}) as server:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("".join(json.dumps(line) + "\n" for line in lines).encode())
        server.stdin.close()
        assert server.stdout.read(10) == b'{"jsonrpc"'
        server.stdout.close()  # the client reads no more
        stderr = server.stderr.read().decode() if server.stderr else ""
        server.wait(timeout=120)
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


def test_a_ping_before_initialize_is_answered(tmp_path) -> None:
    # the protocol allows ping before initialize: the not-initialized answer is for the
    # rest, decided from the session's state (review 33)
    answers, _ = _one_shot(None, tmp_path, {"jsonrpc": "2.0", "id": 5, "method": "ping"},
                           {"jsonrpc": "2.0", "id": 6, "method": "tools/list"})
    assert answers[5].get("result") == {}
    assert "not initialized" in answers[6]["error"]["message"]


def test_a_cancelled_request_does_not_hold_the_end_of_input(fixture_repo, tmp_path) -> None:
    # review 33: the server waits at the end of input for every request it read to be
    # answered; a request the client cancelled is never answered, so it must not wait
    # for it (the server would hang until the pipe's timeout)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": 2, "reason": "the user changed their mind"}}
    answers, _ = _one_shot(fixture_repo("py_storage"), tmp_path, _INITIALIZE, _INITIALIZED,
                           _call(2, "gather", {"task": "fix Storage bug", "budget": 500}),
                           cancel, _call(3, "tokens", {"text": "hi"}))
    assert answers[1]["result"]["serverInfo"]["name"]
    assert answers[3]["result"]["structuredContent"]["tokens"] == 1


def test_two_requests_sharing_an_id_are_both_answered(fixture_repo, tmp_path) -> None:
    # review 33: the unanswered requests are counted by id, so the end of input waits for
    # both answers, not only the first
    answers, _ = _one_shot_answers(fixture_repo("py_storage"), tmp_path, _INITIALIZE,
                                   _INITIALIZED, _call(4, "tokens", {"text": "hi"}),
                                   _call(4, "tokens", {"text": "hi there"}))
    counts = sorted(a["result"]["structuredContent"]["tokens"] for a in answers if a["id"] == 4)
    assert counts == [1, 2]
