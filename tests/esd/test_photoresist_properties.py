"""Invariants of the photoresist scenarios over valid inputs (hypothesis).

The central one is the mass balance the ESD's equations imply (ESD 2010 Sections 3 and 4):
with Qchem_day recalculated for whole sites from the amount dispensed (the ``dispensed``
basis), the container residue is Fcontainer_disp of what is shipped and Releases 2 to 5
split the rest (Fequip_disp, then 1 − Fphoto_wafer, then Fphoto_develop and its
complement), so the five releases over a year and all sites add up to Qchem_yr. The one
exception is the document's own rounding: with fewer containers than days (Eqn 4-1a) the
containers a site-year are rounded up to whole containers, which adds at most one day's
containers' residue per site.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assessments.esd import registry

REVISED = ("photoresist-2010", "photoresist-2018")
SETTINGS = settings(max_examples=150, deadline=None)

fraction_below_one = st.floats(min_value=0, max_value=0.5)
fraction = st.floats(min_value=0, max_value=1)

facility_inputs = {
    "Qchem_yr": st.floats(min_value=1, max_value=1e7),
    "Fchem": st.floats(min_value=0.01, max_value=1),
    "Napply": st.floats(min_value=10, max_value=5_000),
    "TIMEapply_hours": st.floats(min_value=1, max_value=24),
    "Qapply": st.floats(min_value=0.1, max_value=10),
    "RHOphoto": st.floats(min_value=0.5, max_value=2),
    "TIMEapply_days": st.integers(min_value=1, max_value=365),
    "Napp_ratio": st.floats(min_value=0.05, max_value=1),
    "Fcontainer_disp": fraction_below_one,
    "Fequip_disp": fraction_below_one,
    "Fphoto_develop": fraction,
}
revised_inputs = st.fixed_dictionaries(
    {**facility_inputs,
     "Vcont": st.floats(min_value=0.5, max_value=300),
     "Ncont_site_day": st.integers(min_value=1, max_value=5),
     "Fphoto_wafer": fraction},
    optional={"Nsites": st.integers(min_value=1, max_value=2_000)},
)
inputs_2004 = st.fixed_dictionaries(
    {**facility_inputs, "Fphoto_wafer_low": st.floats(0, 0.5), "Fphoto_wafer_high": st.floats(0.5, 1)},
    optional={"Nsites": st.integers(min_value=1, max_value=2_000)},
)


def total_kg_yr(result, numbers=range(1, 6)) -> float:
    """Releases 1 to 5 over a year and all sites (the first estimate: one consistent set)."""
    return sum(r.estimates[0].kg_year_all_sites for r in result.releases if r.number in numbers)


def container_rounding_allowance(result, inputs) -> float:
    """At most one day's containers' residue per site, when Eqn 4-1a rounds containers up."""
    if not result.releases[0].equation.startswith("ESD 2010 Eqn 4-1a"):
        return 0.0
    f = result.facility
    return inputs["Fcontainer_disp"] * inputs["Fchem"] * f["Qcont"] * inputs["Ncont_site_day"] * f["Nsites"]


@pytest.mark.parametrize("key", REVISED)
@SETTINGS
@given(inputs=revised_inputs)
def test_five_releases_add_up_to_the_production_volume(key, inputs):
    result = registry.compute(key, inputs)
    pv = inputs["Qchem_yr"]
    excess = total_kg_yr(result) - pv
    assert -1e-9 * pv <= excess <= container_rounding_allowance(result, inputs) + 1e-9 * pv


@pytest.mark.parametrize("key", REVISED)
@SETTINGS
@given(inputs=revised_inputs)
def test_with_a_container_a_day_the_balance_is_exact(key, inputs):
    result = registry.compute(key, inputs)
    if result.releases[0].equation.startswith("ESD 2010 Eqn 4-1b"):
        assert total_kg_yr(result) == pytest.approx(inputs["Qchem_yr"], rel=1e-9)


@SETTINGS
@given(inputs=revised_inputs)
def test_chemsteer_basis_releases_the_production_volume_plus_its_residue(inputs):
    # irer.md: ChemSTEER divides the whole PV; with Eqn 4-1b the releases then add up to
    # Qchem_yr / (1 − Fcontainer_disp)
    result = registry.compute("photoresist-2010", {**inputs, "daily_use_basis": "chemsteer"})
    if result.releases[0].equation.endswith("4-1b"):
        assert total_kg_yr(result) == pytest.approx(inputs["Qchem_yr"] / (1 - inputs["Fcontainer_disp"]), rel=1e-9)


@SETTINGS
@given(inputs=revised_inputs, cleanings=st.integers(min_value=1, max_value=365))
def test_accumulated_cleaning_keeps_the_balance_when_the_interval_spans_the_year(inputs, cleanings):
    # §4.3 note: cleanings a year × days of residue each; an interval of TIMEapply_days / cleanings
    # accumulates exactly the residue of the application days
    cleanings = min(cleanings, inputs["TIMEapply_days"])
    interval = inputs["TIMEapply_days"] / cleanings
    result = registry.compute("photoresist-2010", {**inputs, "cleanings_per_year": cleanings,
                                                   "cleaning_interval_days": interval})
    two = result.releases[1].estimates[0]
    assert two.days_per_year == cleanings
    pv = inputs["Qchem_yr"]
    excess = total_kg_yr(result) - pv
    assert -1e-9 * pv <= excess <= container_rounding_allowance(result, inputs) + 1e-9 * pv


@SETTINGS
@given(inputs=revised_inputs, other=fraction)
def test_fphoto_wafer_moves_mass_between_releases_without_changing_the_total(inputs, other):
    # ESD 2010 §4.4: 0.07 or 0.01 only shifts chemical between spin-off and the water releases
    a = registry.compute("photoresist-2010", inputs)
    b = registry.compute("photoresist-2010", {**inputs, "Fphoto_wafer": other})
    assert total_kg_yr(a) == pytest.approx(total_kg_yr(b), rel=1e-9)


@pytest.mark.parametrize("key", REVISED)
@SETTINGS
@given(inputs=revised_inputs)
def test_sites_are_rounded_up_and_the_daily_use_falls(key, inputs):
    result = registry.compute(key, inputs)
    f = result.facility
    if f["Nsites_calculated"] is not None:
        # ESD 2010 Eqn 3-3 footnote: round up, then recalculate Qchem_day for the whole sites
        assert f["Nsites"] == math.ceil(round(f["Nsites_calculated"], 9))
        assert f["Qchem_day"] <= f["Qchem_day_eqn_3_2"] * (1 + 1e-9)
    assert f["Ncont_site_yr"] >= f["Ncont_site_yr_calculated"] - 1e-9


@pytest.mark.parametrize("key", REVISED)
@SETTINGS
@given(inputs=revised_inputs, cap=st.integers(min_value=1, max_value=365))
def test_exposure_days_never_exceed_the_cap_or_the_application_days(key, inputs, cap):
    result = registry.compute(key, {**inputs, "max_exposure_days": cap})
    for x in result.exposures:
        assert x.days_per_year <= min(cap, inputs["TIMEapply_days"])
        low, high = (e.mg_day for e in x.estimates)
        assert low <= high


@SETTINGS
@given(inputs=revised_inputs, process=st.sampled_from(["plasma", "aqueous", "organic_solvent", "unknown"]))
def test_release_5_media_are_a_split_or_left_open(inputs, process):
    result = registry.compute("photoresist-2018", {**inputs, "stripping_process": process})
    fractions = [m.fraction for m in result.releases[4].media]
    assert all(f is None for f in fractions) or sum(fractions) == pytest.approx(1)


@SETTINGS
@given(inputs=revised_inputs)
def test_annual_figures_are_daily_times_days_times_sites(inputs):
    result = registry.compute("photoresist-2010", inputs)
    for r in result.releases:
        for e in r.estimates:
            assert e.kg_site_year == pytest.approx(e.kg_site_day * e.days_per_year)
            assert e.kg_year_all_sites == pytest.approx(e.kg_site_year * e.sites)
            assert e.sites == result.facility["Nsites"]


@SETTINGS
@given(inputs=inputs_2004)
def test_2004_releases_add_up_to_the_daily_use_at_every_site(inputs):
    # ESD 2004 Eqns 3-4 to 3-8 sum to Qchem_day (container residue, then (1 − Fc) split), at
    # either end of the Fphoto_wafer range
    result = registry.compute("photoresist-2004", inputs)
    f = result.facility
    expected = f["Qchem_day"] * f["TIMEapply_days"] * f["Nsites"]
    for end in (0, 1):
        total = sum(r.estimates[min(end, len(r.estimates) - 1)].kg_year_all_sites for r in result.releases)
        assert total == pytest.approx(expected, rel=1e-9)
