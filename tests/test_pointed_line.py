"""A line the task points at (a traceback frame, ``path:line``) survives every cut of the
block that holds it (trial 19)."""
from click.testing import CliRunner

from ctxopt.cli import main


def _gather(root, task: str, budget: int) -> str:
    result = CliRunner().invoke(main, ["gather", task, "--root", str(root),
                                       "--budget", str(budget)])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_the_pointed_line_of_a_short_method_survives_its_class_block(make_repo) -> None:
    # trial 19: a C# frame's line 21 of an 8-line method was hidden ("⋮ 7 lines") in its
    # class's block by the lines holding the task's words in the methods below it
    methods = "\n".join(
        f"    def sequence_{n}(self, values):\n        if not values:\n"
        f"            raise InvalidOperation(\"sequence {n} holds no values: invalid operation\")\n"
        f"        return [self.convert(v) for v in values]\n" for n in range(6))
    root = make_repo({
        "conv.py": ("class Converter:\n    def change_type(self, values, scalar):\n"
                    "        if scalar:\n            return self.scalar(values.last())\n"
                    "        return self.sequence_0(values)\n\n" + methods),
        "errors.py": "class InvalidOperation(Exception):\n    pass\n"})
    out = _gather(root, "InvalidOperation: sequence has no values at Converter.change_type "
                  "in conv.py:4", 150)
    assert "return self.scalar(values.last())" in out


def test_a_window_in_a_long_body_opens_at_the_pointed_line_under_its_scopes(make_repo) -> None:
    # trial 19: windows around tomlkit's line 1012 and ky's merge.ts:311 opened at their
    # first line (a header read from it down to the next `while ...:`), and the smallest
    # cut left the line out
    source = ("def parse_table(source):\n"
              + "".join(f"    step_{n} = prepare({n})\n" for n in range(60))
              + "    while not source.end():\n        item = source.next_item()\n"
              "        if item:\n            record(item)\n        else:\n"
              "            key, table = source.child()\n            table.raw_append(key, item)\n"
              "            source.advance()\n"
              + "".join(f"    finish_{n} = done({n})\n" for n in range(400))
              + "    return source\n")
    root = make_repo({"parser.py": source})
    line = source.split("\n").index("            table.raw_append(key, item)") + 1
    out = _gather(root, f'File "parser.py", line {line}, in parse_table', 140)
    assert "table.raw_append(key, item)" in out
    assert "    while not source.end():\n" in out and "        else:\n" in out
    assert "step_" not in out


def test_two_frames_in_one_function_keep_both_lines(make_repo) -> None:
    # trial 20: a Java trace's `Caused by` frame pointed at line 201 of the function its
    # outer frame points at (207); the seed kept one place, and the cut hid line 201
    body = "".join(f"      step{n}(name);\n" for n in range(6))
    source = ("class Packages {\n  static boolean isBase(String name) {\n    try {\n" + body +
              "      if (Files.isDirectory(jar.getPath(name)))\n        return true;\n" + body +
              "      return false;\n    } catch (Exception ex) {\n"
              "      throw new RuntimeException(\"Fail checking \" + name, ex);\n    }\n  }\n}\n")
    root = make_repo({"src/Packages.java": source})
    lines = source.split("\n")
    thrown = lines.index("      throw new RuntimeException(\"Fail checking \" + name, ex);") + 1
    cause = lines.index("      if (Files.isDirectory(jar.getPath(name)))") + 1
    task = (f"java.lang.RuntimeException: Fail checking\n\tat Packages.isBase(Packages.java:{thrown})\n"
            f"Caused by: java.nio.file.InvalidPathException: Illegal char\n"
            f"\tat Packages.isBase(Packages.java:{cause})\n")
    out = _gather(root, task, 170)
    assert "if (Files.isDirectory(jar.getPath(name)))" in out
    assert "throw new RuntimeException" in out


def test_a_short_frames_block_goes_before_a_named_class_of_its_score(make_repo) -> None:
    # review 35: only blocks of more than 12 lines carried the line a frame points at, so
    # a 7-line function's frame lost to the 6-line exception class it raised, by path
    root = make_repo({
        "a_errors.py": ('class ParseError(Exception):\n    """Raised when the input cannot be '
                        'parsed.\n\n    Carries the position of the failure and the text around '
                        'it, so\n    that callers can report where the input went wrong.\n'
                        '    """\n'),
        "b_parser.py": ('from a_errors import ParseError\n\n\ndef parse(text):\n'
                        '    if not text.startswith("{"):\n'
                        '        raise ParseError("expected an object")\n'
                        '    return {"text": text}\n')})
    out = _gather(root, 'Traceback (most recent call last):\n  File "b_parser.py", line 6, '
                  'in parse\na_errors.ParseError: expected an object', 120)
    assert 'raise ParseError("expected an object")' in out and "## a_errors.py" not in out


def test_a_whole_files_cut_opens_at_the_line_a_traceback_points_at(make_repo) -> None:
    # review 35: a file shown whole opened at its window's first line; an 80-line script's
    # cut showed line 15, not line 45
    source = ("import sys\n\n"
              + "".join(f"setting_{n} = compute_value({n}, sys.argv)\n" for n in range(3, 41))
              + "for item in items:\n    if item.ready:\n        handle(item)\n    else:\n"
              "        table.raw_append(key, item)\n"
              + "".join(f"final_{n} = finish_value({n})\n" for n in range(46, 81)))
    root = make_repo({"run.py": source})
    assert source.split("\n")[44] == "        table.raw_append(key, item)"
    out = _gather(root, 'Traceback (most recent call last):\n  File "run.py", line 45, in <module>\n'
                  "KeyError: key", 130)
    assert "table.raw_append(key, item)" in out and "    else:\n" in out


def test_a_callers_frame_in_a_method_merged_above_the_failing_one_is_shown(make_repo) -> None:
    # trial 21: gson's frames at lines 520 (Adapter.read) and 562 (readField, the failure,
    # below it in the same merged block); the cut opened at readField and kept the lines
    # above its header only after the rest of the block, so line 520 was hidden while the
    # `finalize` method below was shown
    steps = "".join(f"      step{n}(reader);\n" for n in range(12))
    source = ("class Adapter {\n  Object read(Reader reader) {\n" + steps +
              "    while (reader.hasNext()) {\n      readField(reader, accumulator);\n    }\n"
              + steps + "    return accumulator;\n  }\n\n"
              "  void readField(Reader reader, Object target) {\n"
              "    target.set(reader.next());\n  }\n\n"
              "  Object finalize(Object accumulator) {\n    return accumulator;\n  }\n}\n")
    root = make_repo({"src/Adapter.java": source})
    lines = source.split("\n")
    caller = lines.index("      readField(reader, accumulator);") + 1
    failing = lines.index("    target.set(reader.next());") + 1
    task = ("com.example.JsonSyntaxException: duplicate key: id\n"
            f"\tat Adapter.readField(Adapter.java:{failing})\n"
            f"\tat Adapter.read(Adapter.java:{caller})\n")
    out = _gather(root, task, 150)
    assert "target.set(reader.next());" in out
    assert "      readField(reader, accumulator);" in out
    assert "while (reader.hasNext())" in out  # under the scope it is in
