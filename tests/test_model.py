"""Score bands and tiers: defined once in ``model``, consistent with each other."""
import pytest

from ctxopt.model import RING_BANDS, Band, Tier


@pytest.mark.parametrize(("score", "tier"), [
    (150, Tier.TRUNCATE), (100, Tier.TRUNCATE), (99.999, Tier.SIGNATURE),
    (60, Tier.SIGNATURE), (59.999, Tier.WHOLE), (10, Tier.WHOLE), (9.999, Tier.FILL),
    (0, Tier.FILL)])
def test_tier_of_a_score(score, tier) -> None:
    assert Tier.of(score) is tier


def test_each_ring_band_lies_in_one_tier_and_only_ring_0_reaches_100() -> None:
    tiers = [Tier.TRUNCATE, Tier.SIGNATURE, Tier.SIGNATURE, Tier.WHOLE, Tier.WHOLE]
    for ring, band in enumerate(RING_BANDS):
        assert Tier.of(band.score(0.0)) is tiers[ring]
        assert Tier.of(band.score(1.0)) is tiers[ring]
        if ring:
            assert band.score(1.0) < RING_BANDS[0].score(0.0)


def test_band_score_clamps_the_weight() -> None:
    band = Band(60.0, 30.0)
    assert (band.score(-1.0), band.score(0.5), band.score(2.0)) == (60.0, 75.0, 90.0)
