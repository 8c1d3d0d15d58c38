"""The sanitised copy reveals nothing claimed, by any arithmetic: two cases that differ only
in their claimed values print the same sanitised copy (the sheet as the PDF and the
preview draw it, the PDF's HTML, the Word document's text and, in a slower test, the PDF's
text), for every registered scenario and every claimable field, claimed alone and all
together, down the scenario's branches, with and without the submitter's site data.

If the copies are the same whatever the claimed values are, no figure, sentence, sum,
ratio, count or trace line in them can be worked back to a claimed value. The values are
drawn by hypothesis across each field's range; people's words in the cases quote them.

Examples per test: ``PMN_PROPERTY_EXAMPLES`` (default 4 for a number claimed, 2 for words:
the engine is asked about every figure of the use for a number, about 0.2 s a case);
raise it locally for a longer search.
"""

from __future__ import annotations

import os
import string

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from assessments.esd import registry
from assessments.reports.render import irer_pdf
from tests.contract.sanitised import (
    CLAIMABLE,
    NUMERIC,
    PLAIN,
    branch_for,
    build,
    first_difference,
    sanitised_copies,
)
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("PMN_PROPERTY_EXAMPLES", "4"))
KEYS = [s.key for s in registry.scenarios()]
CLAIM_SETS = [(field,) for field in CLAIMABLE] + [tuple(CLAIMABLE)]

_letters = st.text(alphabet=string.ascii_lowercase, min_size=5, max_size=9)
VALUES = {
    "production_volume_kg_yr": st.floats(min_value=1.0, max_value=5e7, allow_nan=False),
    "molecular_weight": st.floats(min_value=30.0, max_value=3000.0, allow_nan=False),
    "use_concentration": st.floats(min_value=0.001, max_value=1.0, allow_nan=False),
    "submitter": _letters.map(lambda s: f"Zq{s} Fabrication Ltd"),
    "chemical_name": _letters.map(lambda s: f"3-Quux{s}yl sulfonate"),
    "cas_number": st.tuples(st.integers(10000, 99999), st.integers(10, 99), st.integers(0, 9)).map(
        lambda t: f"{t[0]}-{t[1]}-{t[2]}"),
    "use_description": _letters.map(lambda s: f"Resist for {s} wafers"),
    "other_uses": _letters.map(lambda s: f"{s.title()} inks"),
    "consumer_use": _letters.map(lambda s: f"{s.title()} toys"),
}
assert set(VALUES) == set(CLAIMABLE)


def _values(claims: tuple[str, ...]) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({f: VALUES[f] for f in claims}).map(lambda v: {**PLAIN, **v})


def _examples(claims: tuple[str, ...]) -> int:
    return EXAMPLES if set(claims) & set(NUMERIC) else max(1, EXAMPLES // 2)


def _check(key, claims, a, b, branch, site_data, tlv_ppm, reviewer):
    first = build(key, a, list(claims), branch=branch, site_data=site_data, reviewer=reviewer, tlv_ppm=tlv_ppm)
    second = build(key, b, list(claims), branch=branch, site_data=site_data, reviewer=reviewer, tlv_ppm=tlv_ppm)
    assume(first is not None and second is not None)
    copies_a, copies_b = sanitised_copies(first), sanitised_copies(second)
    for name in copies_a:
        assert copies_a[name] == copies_b[name], f"{key}, claimed {claims}, {name}:\n" + first_difference(
            copies_a[name], copies_b[name])
    return copies_a


@pytest.mark.parametrize("claims", CLAIM_SETS, ids=lambda c: "all" if len(c) > 1 else c[0])
@pytest.mark.parametrize("key", KEYS)
def test_cases_differing_only_in_claimed_values_print_the_same_sanitised_copy(key, claims, reviewer):
    # No shrinking: a failing pair is reported as found (each example builds and computes two
    # cases, so shrinking one takes minutes); the message shows where the copies part.
    @settings(max_examples=_examples(claims), deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(a=_values(claims), b=_values(claims), branch=st.integers(-1, len(registry.get(key).params.params)),
           site_data=st.booleans(), tlv_ppm=st.booleans())
    def check(a, b, branch, site_data, tlv_ppm):
        _check(key, claims, a, b, branch_for(key, branch), site_data, tlv_ppm, reviewer)

    check()


@pytest.mark.parametrize("key", KEYS)
def test_the_pdf_text_is_the_same_too(key, reviewer):
    """The PDF as WeasyPrint draws it, for every field claimed at once (two far-apart sets of
    values, the claimed copy's text read back from the PDF)."""
    a = {**PLAIN, "production_volume_kg_yr": 137.5, "molecular_weight": 61.2, "use_concentration": 0.013,
         "submitter": "Zqalpha Fabrication Ltd", "chemical_name": "3-Quuxbetayl sulfonate", "cas_number": "11111-22-3"}
    b = {**PLAIN, "production_volume_kg_yr": 987654.0, "molecular_weight": 1873.0, "use_concentration": 0.91,
         "submitter": "Zqgamma Fabrication Ltd", "chemical_name": "3-Quuxdeltayl sulfonate", "cas_number": "99999-88-7"}
    texts = []
    for values in (a, b):
        assessment = build(key, values, list(CLAIMABLE), branch={}, site_data=True, reviewer=reviewer, tlv_ppm=True)
        from assessments.reports.context import irer_context

        context = irer_context(assessment=assessment, sanitised=True)
        texts.append(pdf_text(irer_pdf(context)).replace(assessment.submission.case_number, "CASE"))
        for claimed in (values["submitter"], values["chemical_name"], values["cas_number"]):
            assert claimed not in texts[-1]
    assert texts[0] == texts[1], first_difference(*texts)
    assert "[CBI]" in texts[0]
