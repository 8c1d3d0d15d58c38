"""The sample case the IRER benchmark draws (spec/irer.md, EPA 2018 photoresist update,
Section 7), made through the services as the application makes it, and a PDF's page
count: what ``irer_render.py`` needs without the tests' modules, so it runs on the quick
start's environment (``requirements.txt``: no pytest, no pypdf). The tests' sample
(``tests/reports/conftest.py::build_sample_assessment``) takes its fields from here."""

from __future__ import annotations

import re
import zlib

#: The sample case of spec/irer.md (EPA 2018 photoresist update, Section 7): its fields as
#: the case form takes them (the benchmarks' and the tests' sample, declared once).
SAMPLE_CASE = {
    "case_name": "Example Photoresist Use IRER",
    "submitter": "Photoresist Application Company",
    "chemical_name": "Non-Volatile Photoresist Additive",
    "generic_name": "Non-Volatile Photoresist Additive",
    "production_volume_kg_yr": 5000,
    "volume_qualifier": "import_only",
    "molecular_weight": 200,
    "vapour_pressure_torr": 1e-6,
    "vapour_pressure_temp_c": 20,
    "water_solubility_g_l": 1e-6,
    "physical_state": "liquid",
    "use_description": "PMN is a component of a photoresist formulation (PMN is 15% of the composition) "
                       "used for semiconductor manufacturing.",
    "use_concentration": 0.15,
    "pbt_persistence": "2",
    "pbt_bioaccumulation": "1",
    "groundwater_migration": "negligible_to_slow",
}


def bench_user(username: str):
    """A reviewer cleared for CBI."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission

    from assessments.roles import REVIEWER_GROUP

    user = get_user_model().objects.create_user(username=username, password=None)
    user.groups.add(Group.objects.get(name=REVIEWER_GROUP))
    user.user_permissions.add(Permission.objects.get(codename="view_cbi", content_type__app_label="assessments"))
    return user


def sample_assessment(reviewer, case_number: str = "P-18-0123"):
    """The sample case and its assessment, computed with the daily-use basis ChemSTEER used."""
    from assessments.models import Assessment, Submission, refresh_latest_assessment

    case = Submission.objects.create(case_number=case_number, **SAMPLE_CASE)
    assessment = Assessment.objects.create(
        submission=case, engineer=reviewer, occupational_exposure_rating="NR",
        occupational_exposure_rating_reason="The sample IRER prints NR: exposures not assessed.")
    refresh_latest_assessment(submission_ids=[case.pk])
    add_sample_use(assessment, reviewer)
    return assessment


def add_sample_use(assessment, reviewer):
    """The sample's use on ``assessment``, computed: photoresist-2018 with ChemSTEER's daily
    use and the stripping process unknown, as the sample IRER prints it (the benchmark's and
    the tests' sample alike)."""
    from assessments import services

    scenario = services.scenario_add(assessment=assessment, by=reviewer, scenario_key="photoresist-2018",
                                     title="Photoresist in Semiconductor Manufacturing")
    scenario.inputs |= {"stripping_process": "unknown", "daily_use_basis": "chemsteer"}
    scenario.reasons |= {"stripping_process": "Not in the submission.", "daily_use_basis": "As ChemSTEER's IRER."}
    scenario.save()
    return services.scenario_compute(scenario=scenario, by=reviewer)


_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\nendstream", re.S)
_PAGES = re.compile(rb"/Type\s*/Pages\b.*?/Count\s+(\d+)|/Count\s+(\d+).*?/Type\s*/Pages\b", re.S)


def pdf_pages(pdf: bytes) -> int:
    """The page count of the page tree's root, read from the PDF as it is or from its
    compressed object streams (as WeasyPrint writes them)."""
    texts = [pdf]
    for stream in _STREAM.findall(pdf):
        try:
            texts.append(zlib.decompress(stream))
        except zlib.error:
            continue
    counts = [int(a or b) for text in texts for a, b in _PAGES.findall(text)]
    if not counts:
        raise ValueError("no page tree found in the PDF")
    return max(counts)
