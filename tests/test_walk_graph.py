"""The walker's graph levers on small repositories: inheritance."""
from ctxopt.task import parse_task
from ctxopt.walk import WalkConfig, walk_rings

_FILLER = "".join(f"    def helper_{i}(self):\n" + "        x = 1\n" * 16 + "\n" for i in range(9))
METERS = {
    "meters/base.py": (
        "class MeterBase:\n"
        "    '''The base of every meter.'''\n\n"
        "    def __init__(self, name, unit=''):\n"
        "        self.name = name\n"
        "        self.unit = unit.strip()\n\n"
        "    def record(self, value):\n"
        "        self.last = value\n\n"
        "    def describe(self):\n"
        "        return self.name\n\n" + _FILLER),
    "meters/gauge.py": (
        "from meters.base import MeterBase\n\n\n"
        "class Gauge(MeterBase):\n"
        "    '''A meter of the current value.'''\n\n"
        "    def describe(self):\n"
        "        return 'gauge ' + self.name\n"),
}


def _by_symbol(items):
    best = {}
    for item in items:
        if item.symbol and item.symbol not in best:
            best[item.symbol] = item
    return best


def test_a_seed_class_brings_the_constructor_and_members_it_inherits(make_repo, build_index) -> None:
    index = build_index(make_repo(METERS))
    task = parse_task("Gauge() drops the unit")
    found = _by_symbol(walk_rings(index, task, WalkConfig(max_keyword_seeds=0)))
    assert found["Gauge"].ring == 0
    assert found["MeterBase.__init__"].ring == 1
    assert found["MeterBase.__init__"].reason == "constructor Gauge inherits"
    assert found["MeterBase.record"].reason == "inherited by Gauge"
    # overridden by Gauge: not inherited
    assert "MeterBase.describe" not in found
    without = _by_symbol(walk_rings(index, task, WalkConfig(max_keyword_seeds=0, max_base_depth=0)))
    # without the lever it is at best a word match of ring 3, shown as a signature
    assert "MeterBase.__init__" not in without or without["MeterBase.__init__"].ring == 3


def test_the_nearest_base_constructor_two_levels_up(make_repo, build_index) -> None:
    files = dict(METERS)
    files["meters/level.py"] = ("from meters.gauge import Gauge\n\n\n"
                                "class LevelGauge(Gauge):\n    pass\n")
    index = build_index(make_repo(files))
    found = _by_symbol(walk_rings(index, parse_task("fix LevelGauge"), WalkConfig(max_keyword_seeds=0)))
    assert found["MeterBase.__init__"].reason == "constructor LevelGauge inherits"
    # Gauge.describe shadows the farther MeterBase.describe
    assert found["Gauge.describe"].reason == "inherited by LevelGauge"
    assert "MeterBase.describe" not in found


def test_a_seed_method_brings_what_it_overrides_and_its_overrides(make_repo, build_index) -> None:
    index = build_index(make_repo(METERS))
    config = WalkConfig(max_keyword_seeds=0)
    up = _by_symbol(walk_rings(index, parse_task("fix Gauge.describe"), config))
    assert up["MeterBase.describe"].ring == 1
    assert up["MeterBase.describe"].reason == "overridden by Gauge.describe"
    down = _by_symbol(walk_rings(index, parse_task("fix MeterBase.describe"), config))
    assert down["Gauge.describe"].ring == 1
    assert down["Gauge.describe"].reason == "overrides MeterBase.describe"
    off = _by_symbol(walk_rings(index, parse_task("fix Gauge.describe"),
                                WalkConfig(max_keyword_seeds=0, max_base_depth=0)))
    assert "MeterBase.describe" not in off or off["MeterBase.describe"].ring == 3


FLOW = {
    "pkg/api.py": ("from pkg.core import load\n\n\n"
                   "def open_dataset(path, lazy=True):\n"
                   "    '''Open a dataset.'''\n"
                   "    return load(path, lazy=lazy)\n"),
    "pkg/core.py": ("from pkg.backend import read_rows, count_rows\n\n\n"
                    "def load(path, lazy):\n"
                    "    total = count_rows(path)\n"
                    "    return read_rows(path, total, lazy=lazy)\n"),
    "pkg/backend.py": ("def read_rows(path, total, lazy=False):\n"
                       "    if lazy:\n"
                       "        return iter(open(path))\n"
                       "    return list(open(path))[:total]\n\n\n"
                       "def count_rows(path):\n"
                       "    return sum(1 for _ in open(path))\n"),
}


def test_a_keyword_argument_is_followed_to_the_callees_it_is_passed_to(make_repo, build_index) -> None:
    index = build_index(make_repo(FLOW))
    task = parse_task("open_dataset(lazy=False) still reads everything")
    config = WalkConfig(max_keyword_seeds=0)
    found = _by_symbol(walk_rings(index, task, config))
    assert found["open_dataset"].ring == 0
    assert found["load"].ring == 1
    # two calls down, through a callee that takes it too
    assert found["read_rows"].ring == 1
    assert found["read_rows"].reason == "load passes lazy to it"
    # a callee that does not take the parameter is not on its path
    assert "count_rows" not in found or found["count_rows"].ring > 1
    off = _by_symbol(walk_rings(index, task, WalkConfig(max_keyword_seeds=0, max_flow_depth=0)))
    assert "read_rows" not in off or off["read_rows"].ring > 1


def test_a_parameter_the_task_does_not_name_does_not_flow(make_repo, build_index) -> None:
    index = build_index(make_repo(FLOW))
    found = _by_symbol(walk_rings(index, parse_task("open_dataset is slow"),
                                  WalkConfig(max_keyword_seeds=0)))
    assert "read_rows" not in found or found["read_rows"].ring > 1


def test_parameter_names_across_languages() -> None:
    from ctxopt.walk_flow import parameter_names
    assert parameter_names("def f(self, strict: bool = False, *args, lazy=True, **kw):\n    ...",
                           "f") == {"strict", "lazy"}
    assert parameter_names("@retry(times=3)\ndef get(\n    url,\n    *,\n    timeout: float | None = None,\n) -> str:\n    ...",
                           "get") == {"url", "timeout"}
    assert {"key", "strict"} <= parameter_names("func (s *Store) Get(key string, strict bool) error { ... }", "Get")
    assert "lazy" in parameter_names("fn load<T: Read>(mut r: T, lazy: bool) -> X { ... }", "load")
    assert parameter_names("class Gauge(MeterBase):\n    ...", "Other") == set()



def test_both_walks_find_a_base_constructor_only_within_max_base_depth(make_repo, build_index) -> None:
    index = build_index(make_repo({
        "pkg/base.py": ("class Root:\n"
                        "    def __init__(self, name, strict=False):\n"
                        "        self.strict = strict\n\n\n"
                        "class Middle(Root):\n    pass\n\n\n"
                        "class Leaf(Middle):\n    pass\n"),
        "pkg/api.py": ("from pkg.base import Leaf\n\n\n"
                       "def make_leaf(name, strict=True):\n"
                       "    return Leaf(name, strict=strict)\n"),
    }))
    flow, inherit = parse_task("make_leaf(strict=False) is ignored"), parse_task("fix Leaf")
    deep = WalkConfig(max_keyword_seeds=0)
    assert deep.max_base_depth == 3
    assert _by_symbol(walk_rings(index, flow, deep))["Root.__init__"].reason == "make_leaf passes strict to it"
    assert _by_symbol(walk_rings(index, inherit, deep))["Root.__init__"].reason == "constructor Leaf inherits"
    # Root is two levels above Leaf: one level is not enough for either walk
    shallow = WalkConfig(max_keyword_seeds=0, max_base_depth=1)
    for task in (flow, inherit):
        found = _by_symbol(walk_rings(index, task, shallow))
        assert "Root.__init__" not in found or found["Root.__init__"].ring > 1
