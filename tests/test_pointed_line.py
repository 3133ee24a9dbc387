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
