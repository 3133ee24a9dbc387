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

