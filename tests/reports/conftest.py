import io
from unittest import mock

import pytest
from pypdf import PdfReader

from assessments import services
from assessments.models import Assessment, Scenario
from benchmarks._sample import SAMPLE_CASE, add_sample_use
from tests.conftest import make_assessment, make_submission


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return "\n".join(page.extract_text() for page in reader.pages)


def pdf_pages(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def report_cache(settings, tmp_path):
    """The ``reports`` storage in a fresh folder (the test settings' folder is shared by the
    whole run), so what a test stores and finds is its own."""
    settings.STORAGES = {
        **settings.STORAGES,
        "reports": {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": tmp_path}},
    }
    return tmp_path


@pytest.fixture
def renders():
    """Counts WeasyPrint renders (``HTML.write_pdf``), still rendering."""
    from weasyprint import HTML

    with mock.patch.object(HTML, "write_pdf", autospec=True, side_effect=HTML.write_pdf) as spy:
        yield spy


@pytest.fixture
def sample_assessment(reviewer) -> Assessment:
    return build_sample_assessment(reviewer)


@pytest.fixture(scope="module")
def sample_pdf(django_db_setup, django_db_blocker) -> bytes:
    """The sample report rendered once per module (in a transaction rolled back after)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from assessments.reports.context import irer_context
    from assessments.reports.render import irer_pdf
    from tests.conftest import make_user

    with django_db_blocker.unblock(), transaction.atomic():
        user = make_user(get_user_model(), "sample-engineer", group="reviewer", first_name="Riley", last_name="Reviewer")
        pdf = irer_pdf(irer_context(assessment=build_sample_assessment(user)))
        transaction.set_rollback(True)
    return pdf


def build_sample_assessment(reviewer, case_number: str = "P-18-0123") -> Assessment:
    """The sample case of spec/irer.md (EPA 2018 photoresist update, Section 7), computed
    with the daily-use basis ChemSTEER used there."""
    case = make_submission(case_number=case_number, **SAMPLE_CASE)
    assessment = make_assessment(case, reviewer, occupational_exposure_rating="NR",
                                 occupational_exposure_rating_reason="The sample IRER prints NR: exposures not assessed.")
    add_sample_use(assessment, reviewer)
    return assessment


@pytest.fixture
def cbi_assessment(reviewer) -> Assessment:
    case = make_submission(
        case_number="P-26-0042",
        submitter="Deposition Materials Supplier Inc.",
        chemical_name="Tetrakis(ethylmethylamino)hafnium",
        generic_name="Hafnium amide CVD precursor",
        cas_number="352535-01-4",
        production_volume_kg_yr=1234,
        use_concentration=0.85,
        physical_state="liquid",
        use_description="Precursor for chemical vapour deposition.",
        cbi_claims=["chemical_name", "cas_number", "submitter", "production_volume_kg_yr", "use_concentration"],
    )
    assessment = make_assessment(case, reviewer)
    for key in ("cvd-2015", "photoresist-2010"):
        scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key=key)
        services.scenario_compute(scenario=scenario, by=reviewer)
    assert Scenario.objects.filter(assessment=assessment, result__isnull=False).count() == 2
    return assessment
