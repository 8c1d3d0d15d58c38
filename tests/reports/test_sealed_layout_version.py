"""A new report layout (issue 41: ``cache.KEY_VERSION`` raised) never redraws a copy sealed
before it: the sealed bytes are served as they were approved; the next approval prints the
corrected layout."""

from __future__ import annotations

import pytest

from assessments.models import SealedReport
from assessments.reports import cache
from assessments.reports.services import irer_download
from tests.reports.conftest import pdf_text
from tests.reports.test_sealed_irer import approve

pytestmark = pytest.mark.django_db


def test_a_copy_sealed_under_an_earlier_layout_is_served_as_sealed(sample_assessment, reviewer, supervisor,
                                                                    monkeypatch, renders):
    approved = approve(sample_assessment, reviewer, supervisor)
    sealed = bytes(SealedReport.objects.get(assessment=approved).pdf)
    renders.reset_mock()
    monkeypatch.setattr(cache, "KEY_VERSION", cache.KEY_VERSION + "-next")
    assert irer_download(user=reviewer, assessment=approved, sanitised=False).pdf == sealed
    assert renders.call_count == 0


def test_the_next_approval_prints_the_corrected_layout(sample_assessment, reviewer, supervisor):
    approved = approve(sample_assessment, reviewer, supervisor)
    text = " ".join(pdf_text(bytes(SealedReport.objects.get(assessment=approved).pdf)).split())
    assert "MW: 200 " in text and "200.00" not in text
    assert "VP: 1E-6 torr @ 20 °C" in text
    assert "S-H2O: 1E-6 g/L (temperature not given)" in text
    assert "no vapour pressure was given" not in text
    assert "Nsites (Eqn 3-3, unrounded) = 2.56 sites" in text
