"""Exposure days of A and B follow the ESD's printed rule when several containers are emptied a day.

ESD 2010 §5.3 (Eqn 5-3): "This exposure will occur over [the lesser of Ncont_site_yr (see
Section 3.6) or TIMEapply_days, up to 250] days per year"; §5.4 (Eqn 5-4) the same for
Exposure B. The containers a year count, not the days on which containers are emptied.
"""

from __future__ import annotations

import pytest

from assessments.esd import registry


def exposure(result, letter):
    (found,) = [x for x in result.exposures if x.letter == letter and x.route == "dermal"]
    return found


@pytest.mark.parametrize("qchem_yr, per_day, containers, release_days", [
    # By hand: Ncont_site_yr = Qchem_yr / (0.15 × 3.8 × 1 site), rounded up; containers are emptied
    # Ncont_site_day at a time, on Ncont_site_yr / Ncont_site_day days (Release 1, Eqn 4-1a)
    (50, 2, 88, 44),    # 87.7 -> 88 containers on 44 days
    (100, 3, 176, 59),  # 175.4 -> 176 containers on 58.7 -> 59 days
])
def test_a_and_b_run_over_the_containers_a_year(qchem_yr, per_day, containers, release_days):
    result = registry.compute("photoresist-2010", {"Qchem_yr": qchem_yr, "Fchem": 0.15, "Ncont_site_day": per_day})
    assert result.facility["Ncont_site_yr"] == containers
    assert result.releases[0].estimates[0].days_per_year == release_days
    assert exposure(result, "A").days_per_year == exposure(result, "B").days_per_year == containers
    assert f"Ncont_site_yr ({containers} containers a year)" in exposure(result, "A").estimates[0].basis


def test_the_250_day_cap_still_applies():
    # 200 kg/yr: 200 / 0.57 = 350.9 -> 351 containers < 360 days, 3 a day; the lesser of 351 and 360, up to 250
    result = registry.compute("photoresist-2010", {"Qchem_yr": 200, "Fchem": 0.15, "Ncont_site_day": 3})
    assert exposure(result, "A").days_per_year == 250
