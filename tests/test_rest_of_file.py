"""The rest of a shown file fills a budget the candidates leave unused (``Tier.FILL``)."""
from dataclasses import replace
from pathlib import Path

from ctxopt import pipeline
from ctxopt.fit import fit_budget
from ctxopt.model import Block, Fidelity, Item, Tier
from ctxopt.render import render_block
from ctxopt.source import read_blocks
from ctxopt.tokens import Cl100kCounter, count_tokens


def _cost(block: Block) -> int:
    return count_tokens(render_block(block))


def _module(name: str, functions: int) -> str:
    return "".join(f"def {name}_{i}(value):\n    return value + {i}\n\n\n" for i in range(functions))


def test_the_rest_of_a_file_the_walk_is_about_is_fill_and_no_line_shows_twice(
        make_repo, build_index) -> None:
    root = make_repo({"core.py": _module("core", 30), "words.py": _module("words", 10),
                      "tests/test_core.py": _module("test_core", 10)})
    index = build_index(root)
    items = [Item("core.py", 41, 42, 130.0, 0, "definition of core_10", "core_10"),
             Item("words.py", 5, 6, 40.0, 3, "matches value", "words_1"),
             Item("tests/test_core.py", 1, 2, 70.0, 2, "tests core_10", "test_core_0")]
    plain = read_blocks(root, items, index, Cl100kCounter(), whole_files=False)
    blocks = read_blocks(root, items, index, Cl100kCounter(), whole_files=False, fill=True)
    rest = [b for b in blocks if Tier.of(b.score) is Tier.FILL]
    assert [b for b in blocks if b not in rest] == plain
    # only the file of the ring-0 block: not a file a word matched, nor a test file
    assert {b.path for b in rest} == {"core.py"}
    shown = [(b.start_line, b.end_line) for b in blocks if b.path == "core.py"]
    lines = sorted(line for start, end in shown for line in range(start, end + 1))
    assert lines == list(range(1, 119))  # every line once (the trailing blank ones left out)
    assert all(b.ring == 3 and b.reason == "the rest of the file" for b in rest)
    # each run names the definitions that start in it (core_10 is the ring-0 block's)
    assert [b.symbols for b in rest] == [tuple(f"core_{i}" for i in range(10)),
                                         tuple(f"core_{i}" for i in range(11, 30))]


def _blocks() -> list[Block]:
    def block(path: str, score: float, lines: int) -> Block:
        content = "\n".join(f"x_{n} = compute({n})" for n in range(lines))
        return Block(path=path, language="python", start_line=1, end_line=lines,
                     content=content, tokens=count_tokens(content), score=score,
                     ring=0 if score >= 100 else 3, reason="r", focus_line=1)
    return [block("a.py", 130.0, 30), block("b.py", 40.0, 30), block("c.py", 12.0, 4),
            block("rest.py", 5.0, 40), block("rest2.py", 8.0, 3)]


def test_fill_shows_only_once_every_other_block_is_whole_and_is_never_counted_excluded() -> None:
    blocks = _blocks()
    candidates = [b for b in blocks if Tier.of(b.score) is not Tier.FILL]
    everything = sum(_cost(b) for b in candidates)
    for budget in range(40, everything + 1, 25):
        with_fill = fit_budget(blocks, budget, cost=_cost, count=count_tokens)
        without = fit_budget(candidates, budget, cost=_cost, count=count_tokens)
        assert with_fill == without  # a budget the candidates use up: as if there were no fill
    # room for the best fill block and half of the next
    at = everything + _cost(blocks[-1]) + _cost(blocks[3]) // 2
    selection = fit_budget(blocks, at, cost=_cost, count=count_tokens)
    assert [b.path for b in selection.blocks] == ["a.py", "b.py", "c.py", "rest2.py", "rest.py"]
    assert selection.blocks[-1].kind is Fidelity.TRUNCATED  # the room left shows its first lines
    assert selection.excluded == ()
    assert fit_budget(blocks, everything + 5, cost=_cost, count=count_tokens).excluded == ()


def test_a_gather_fills_unused_budget_with_the_rest_of_its_files_unless_kept_close() -> None:
    root = Path(__file__).parent.parent / "fixtures" / "py_storage"

    def rest(max_ring: int) -> list[Block]:
        result = pipeline.gather(root, "fix Storage bug",
                                 pipeline.GatherConfig(budget=20000, max_ring=max_ring))
        return [b for b in result.selection.blocks if Tier.of(b.score) is Tier.FILL]

    assert rest(3)
    assert rest(2) == []


def _walker_signature(statements: int) -> Block:
    """A ring-3 function the walker asked to show as its signature, with its whole lines
    (``Block.whole``): a header and ``statements`` lines of body."""
    body = "\n".join(f"    step_{n} = compute({n})" for n in range(statements))
    signature = "def validate(flags): ..."
    return Block(path="v.py", language="python", start_line=1, end_line=statements + 1,
                 content=signature, tokens=count_tokens(signature), score=40.0, ring=3,
                 reason="matches flags", kind=Fidelity.SIGNATURE, signature=signature,
                 focus_line=1, whole="def validate(flags):\n" + body)


def test_a_signature_the_walker_asked_for_is_shown_whole_only_as_fill() -> None:
    def plain(block: Block) -> Block:
        return replace(block, whole="")

    late = _walker_signature(12)
    whole = late.whole
    others = _blocks()[:3]
    candidates = [*others, late]
    everything = sum(_cost(b) for b in candidates)
    for budget in range(40, everything + 1, 25):  # until all is shown: as before
        now = fit_budget(candidates, budget, cost=_cost, count=count_tokens)
        before = fit_budget([*others, plain(late)], budget, cost=_cost, count=count_tokens)
        assert (tuple(plain(b) for b in now.blocks), now.truncated) == (before.blocks, before.truncated)
        # (an excluded one's reason says the budget that shows it whole as well)
        assert [d.path for d in now.excluded] == [d.path for d in before.excluded]
    full = replace(late, content=whole, kind=Fidelity.FULL, whole="")
    # room for the whole lines, not more: they go before the rest of a file (rest.py)
    at = everything + _cost(full) - _cost(late)
    selection = fit_budget([*candidates, _blocks()[3]], at, cost=_cost, count=count_tokens)
    shown = next(b for b in selection.blocks if b.path == "v.py")
    assert shown.kind is Fidelity.FULL and shown.content == whole
    assert "rest.py" not in [b.path for b in selection.blocks]
    assert selection.truncated == () and selection.excluded == ()


def test_a_tests_signature_has_its_whole_lines_shown_after_all_other_fill(
        make_repo, build_index) -> None:
    code = "def helper(key):\n    token = 'x'\n    return key\n"
    root = make_repo({"lib.py": code, "tests/test_lib.py": code.replace("helper", "test_helper")})
    index = build_index(root)
    items = [Item("lib.py", 1, 3, 40.0, 3, "matches key", "helper", Fidelity.SIGNATURE),
             Item("tests/test_lib.py", 1, 3, 40.0, 3, "matches key", "test_helper",
                  Fidelity.SIGNATURE)]
    by_path = {b.path: b for b in read_blocks(root, items, index, Cl100kCounter())}
    lib, test = by_path["lib.py"], by_path["tests/test_lib.py"]
    assert lib.kind is Fidelity.SIGNATURE and lib.whole == code.rstrip("\n")
    assert not lib.whole_last
    assert test.whole == code.replace("helper", "test_helper").rstrip("\n") and test.whole_last
    # room for the test's whole lines or the rest of a file, not both: the rest goes first
    # (a rest of a size near theirs: see the next test for a large one)
    rest = _blocks()[4]
    candidates = [test, rest]
    full_test = replace(test, content=test.whole, kind=Fidelity.FULL, whole="")
    at = _cost(test) + _cost(rest) + (_cost(full_test) - _cost(test)) // 2
    shown = {b.path: b for b in fit_budget(candidates, at, cost=_cost, count=count_tokens).blocks}
    assert shown[rest.path].kind is Fidelity.FULL
    assert shown["tests/test_lib.py"].kind is Fidelity.SIGNATURE
    at = _cost(full_test) + _cost(rest)
    shown = {b.path: b for b in fit_budget(candidates, at, cost=_cost, count=count_tokens).blocks}
    assert shown["tests/test_lib.py"].kind is Fidelity.FULL


def test_a_small_step_to_whole_of_a_tests_signature_goes_before_a_large_rest(
        make_repo, build_index) -> None:
    # trial 17: cobra's TestExactArgs (35 tokens whole) stayed a signature at 8,000 tokens
    # behind 5,327 tokens of the rest of command.go, whole only from 18,092
    code = "def test_helper(key):\n    token = 'x'\n    return key\n"
    root = make_repo({"tests/test_lib.py": code})
    item = Item("tests/test_lib.py", 1, 3, 40.0, 3, "matches key", "test_helper",
                Fidelity.SIGNATURE)
    (test,) = read_blocks(root, [item], build_index(root), Cl100kCounter())
    rest = _blocks()[3]
    full_test = replace(test, content=test.whole, kind=Fidelity.FULL, whole="")
    assert (_cost(full_test) - _cost(test)) * 8 <= _cost(rest)  # small beside it
    at = _cost(full_test) + _cost(rest) // 2
    shown = {b.path: b for b in fit_budget([test, rest], at, cost=_cost, count=count_tokens).blocks}
    assert shown["tests/test_lib.py"].kind is Fidelity.FULL
    assert "rest.py" not in shown or shown["rest.py"].kind is not Fidelity.FULL


def test_a_secret_in_the_whole_lines_of_a_signature_is_redacted() -> None:
    from ctxopt.files.redaction import clean_blocks
    from ctxopt.files.safety import HygieneConfig

    key = "AKIA" + "IOSFODNN7EXAMPLE"
    whole = f"def connect():\n    key = '{key}'\n    return key"
    block = Block("c.py", "python", 1, 3, "def connect(): ...", 5, 40.0, 3, "r",
                  kind=Fidelity.SIGNATURE, whole=whole)
    (cleaned,), diagnostics = clean_blocks([block], Cl100kCounter(), HygieneConfig())
    assert key not in cleaned.whole and "[REDACTED" in cleaned.whole
    assert diagnostics and "line 2" in diagnostics[0].detail


def test_a_small_step_to_whole_of_a_walker_signature_does_not_jump_ahead() -> None:
    # the small-before-large rule took the step to whole of a ring-3 signature (a few
    # tokens more than its signature) as a small tier-WHOLE block: it went before large
    # blocks, and budgets that the candidates fill showed less of them (dev xarray)
    signature = "def small(): ..."
    late = Block(path="s.py", language="python", start_line=1, end_line=2, content=signature,
                 tokens=count_tokens(signature), score=45.0, ring=3, reason="r",
                 kind=Fidelity.SIGNATURE, signature=signature, focus_line=1,
                 whole="def small():\n    return 1")
    large = Block(path="l.py", language="python", start_line=1, end_line=80,
                  content="\n".join(f"y_{n} = compute({n})" for n in range(80)),
                  tokens=400, score=35.0, ring=3, reason="r", focus_line=1)
    budget = _cost(late) + _cost(large)
    shown = fit_budget([late, large], budget, cost=_cost, count=count_tokens).blocks
    assert [b.kind for b in shown] == [Fidelity.SIGNATURE, Fidelity.FULL]


def test_a_walker_signature_short_of_whole_is_cut_longer_in_the_room_left() -> None:
    # its step to whole comes last; a budget short of it shows more of its lines than the
    # signature has (the room was left unused: 93 tokens a task at 8,000 on the benchmark)
    late = _walker_signature(40)
    whole = late.whole
    full = replace(late, content=whole, kind=Fidelity.FULL, whole="")
    at = _cost(late) + (_cost(full) - _cost(late)) // 2
    shown = fit_budget([late], at, cost=_cost, count=count_tokens).blocks
    assert shown[0].kind is Fidelity.TRUNCATED and shown[0].content.startswith("def validate")
    assert shown[0].content.count("\n") > 10 and _cost(shown[0]) <= at
    # (the reason says how much of the whole lines it shows, and what they need: review 33)
    (cut,) = fit_budget([late], at, cost=_cost, count=count_tokens).truncated
    assert cut.reason.startswith(f"kept {shown[0].end_line} of 41 lines: needs {_cost(full)} tokens")
    assert fit_budget([late], _cost(late), cost=_cost, count=count_tokens).blocks[0] == late
    assert fit_budget([late], _cost(full), cost=_cost, count=count_tokens).blocks[0].content == whole
