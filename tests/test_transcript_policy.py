"""The budget policy: floors, bands, decisions once per window, the futility brake."""
from __future__ import annotations

import pytest

from ctxopt.budget import EstimatingCounter
from ctxopt.errors import CompactionSettingsError, NoObjectiveError
from ctxopt.transcript import Estimator
from ctxopt.transcript.policy import BudgetPolicy, Decision, PolicyConfig

FAST = Estimator(EstimatingCounter())
SYSTEM = "x" * 388  # 97 tokens with the fast estimate, 100 with the message overhead
CONFIG = PolicyConfig(work_room=30000, reminder_band=5000, buffer_band=6000,
                      min_work_multiple=4, min_absolute_work_room=1000)


def policy(config: PolicyConfig = CONFIG) -> BudgetPolicy:
    return BudgetPolicy(SYSTEM, config, estimator=FAST)


def test_limits_come_from_the_base_and_the_bands():
    p = policy()
    assert p.base == 100 and p.notes == []
    assert (p.reminder_at, p.fallback_at, p.hard_limit) == (25100, 30100, 36100)
    assert p.max_result_tokens == 10000
    small = policy(PolicyConfig(work_room=900, reminder_band=100, buffer_band=100,
                                min_absolute_work_room=0))
    assert small.max_result_tokens == 512  # never below the fitter's cap floor


def test_a_work_room_below_the_viability_floor_is_raised_and_the_bands_rescaled():
    p = policy(PolicyConfig(work_room=200, reminder_band=50, buffer_band=20,
                            min_work_multiple=4, min_absolute_work_room=100))
    assert p.work_room == 400 and (p.reminder_band, p.buffer_band) == (100, 40)
    assert "raised from 200 to the viability floor of 400" in p.notes[0]
    absolute = policy(PolicyConfig(work_room=500, reminder_band=100, buffer_band=0,
                                   min_absolute_work_room=2000))
    assert absolute.work_room == 2000 and absolute.reminder_band == 400


def test_the_bands_are_crossed_in_order_each_once():
    p = policy()
    decisions = [p.evaluate(t) for t in (1000, 25100, 26000, 30100, 31000, 36100, 40000)]
    assert decisions == [Decision.NONE, Decision.REMINDER, Decision.NONE, Decision.FALLBACK,
                         Decision.NONE, Decision.RESET, Decision.NONE]


def test_a_window_that_crosses_every_band_at_once_still_gets_a_fallback_turn():
    p = policy()
    assert [p.evaluate(50000) for _ in range(3)] == [Decision.FALLBACK, Decision.RESET,
                                                     Decision.NONE]
    p.commit_reset()
    assert p.window == 2 and p.evaluate(100) is Decision.NONE
    assert p.evaluate(25200) is Decision.REMINDER  # decisions come again in a new window


def test_the_futility_brake_stops_resets_that_do_not_help():
    p = policy()
    for _ in range(CONFIG.futility_windows):
        assert p.evaluate(40000) is Decision.FALLBACK and p.evaluate(40000) is Decision.RESET
        assert not p.braked
        p.commit_reset()
    assert p.braked and "resets stopped" in p.warnings[-1]
    assert [p.evaluate(40000) for _ in range(3)] == [Decision.NONE] * 3


def test_a_quiet_turn_resets_the_futility_count():
    p = policy()
    for _ in range(5):
        p.evaluate(40000)
        p.evaluate(40000)
        p.commit_reset()
        p.evaluate(10)  # quiet: this window is not futile
        p.evaluate(40000)
        p.evaluate(40000)
        p.commit_reset()
    assert not p.braked


def test_reset_messages_keep_the_system_prompt_the_notice_the_hint_and_the_objective():
    old = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Fix the bug."},
           {"role": "assistant", "content": "working"}]
    p = policy()
    messages = p.reset_messages(old, "edited budget.py; tests pending")
    assert messages[0] == {"role": "system", "content": SYSTEM}
    assert "[ctxopt window 2]" in messages[1]["content"]
    assert "edited budget.py; tests pending" in messages[1]["content"]
    assert messages[2] == old[1] and p.warnings == []
    anthropic = p.reset_messages([{"role": "user", "content": "Fix it."}], None,
                                 shape="anthropic")
    assert [m["role"] for m in anthropic] == ["user", "user"]


def test_a_hint_past_the_hard_limit_is_dropped_with_a_warning():
    p = policy()
    old = [{"role": "user", "content": "Fix the bug."}]
    messages = p.reset_messages(old, "y" * 4 * 40000, shape="anthropic")
    assert "Saved state" not in messages[0]["content"] and messages[1] == old[0]
    assert "would pass the hard limit of 36100; dropped" in p.warnings[0]
    with pytest.raises(NoObjectiveError):
        p.reset_messages([{"role": "assistant", "content": "hi"}])


@pytest.mark.parametrize("settings, setting", [
    ({"work_room": 0}, "work_room"), ({"work_room": 1.5}, "work_room"),
    ({"reminder_band": -1}, "reminder_band"), ({"buffer_band": -1}, "buffer_band"),
    ({"work_room": 100, "reminder_band": 100}, "reminder_band"),
    ({"min_work_multiple": 0}, "min_work_multiple"),
    ({"min_work_multiple": float("inf")}, "min_work_multiple"),
    ({"min_absolute_work_room": -1}, "min_absolute_work_room"),
    ({"futility_windows": 0}, "futility_windows"),
])
def test_every_bad_policy_setting_has_a_specific_error(settings, setting):
    with pytest.raises(CompactionSettingsError) as caught:
        PolicyConfig(**settings)
    assert caught.value.setting == setting


def test_one_result_may_use_a_third_of_the_work_room_at_least_512_and_at_most_all_of_it():
    from ctxopt.transcript.policy import result_budget

    assert result_budget(192000) == 64000
    assert result_budget(1200) == 512
    # trial 4: the floor gave 512 tokens of a 100-token window
    assert result_budget(100) == 100 and result_budget(512) == 512
    assert policy().max_result_tokens == result_budget(policy().work_room)
