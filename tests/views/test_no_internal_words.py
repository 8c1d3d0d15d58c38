"""Words a reviewer can read (issue 26): no page, email or report of the demo data shows an
internal name, a raw choice value, an index or a JSON dump.

The demo data (``load_demo``, as a newcomer's first look has it: ``tests/test_demo_first_look.py``)
with, on the sample case's draft revision, the submitter's site data that take the
releases above the use (so their warning, history and report text are read too), is
rendered page by page for the reviewer and the supervisor: home, the review queue, the
due list, the notices, the method validation page, each case, its calendar and custody
log, each revision (its page, notes, report preview, history and comparison with the
revision before), each use (results, every wizard step, the report text). A review cycle
(submit, return with a comment, resubmit, approve) sends the emails, read from the
locmem outbox, and the report's text is read from its document (``irer_context``),
full and sanitised.

Only the visible text is checked: the HTML is parsed, ``script`` and ``style`` dropped,
attributes never read (a field's ``name``, a link's ``href`` hold internal names by
design). Each finding names the page and the words around it.
"""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command

from assessments import services, workflow
from assessments.esd import registry
from assessments.esd.site_data import METHODS
from assessments.models import Assessment, Scenario, Submission
from assessments.reports.context import irer_context
from assessments.reports.document import plain_text
from assessments.site_data import SITE_STEP

pytestmark = pytest.mark.django_db

SAMPLE, CVD = "P-18-0123", "P-26-0042"
#: Material balance data that put more in the air than the use holds: its warning names the entry.
SITE_DATA = [{
    "method": "material_balance",
    "inputs": {"pollutant_class": "organic", "OH": 2000.0, "days_per_year": 250.0, "Q_in": 2.0, "Q_out": 0.5,
               "C_x": 2.0},
    "replaces": None,
    "source": "Submitter's mass balance, PMN attachment 2",
}]


# --- What counts as an internal word ---------------------------------------------------------


def _internal_looking(value: str) -> bool:
    """A choice value that cannot be read as a word of the language (``organic_solvent``,
    ``twa_8h``, ``photoresist-2010``); a single plain word (``plasma``, ``draft``) reads as
    prose and is not looked for."""
    return bool(re.fullmatch(r"[A-Za-z0-9]+(?:[_\-][A-Za-z0-9]+)+", value))


def choice_values() -> set[str]:
    """Every choice value, of every engine input (each scenario's, the site data methods')
    and every model field, that differs from its label and does not read as a word."""
    pairs: list[tuple[object, object]] = []
    for scenario in registry.scenarios():
        for param in scenario.params.params:
            pairs += list(param.choices or ())
    for method in METHODS.values():
        for param in method.params.params:
            pairs += list(param.choices or ())
    for model in apps.get_models():
        for model_field in model._meta.get_fields():
            if getattr(model_field, "choices", None):
                pairs += list(model_field.flatchoices)
    return {value for value, label in pairs
            if isinstance(value, str) and str(label).lower() != value.lower() and _internal_looking(value)}


#: An identifier in lower case, words joined by underscores (``stripping_process``, ``medium_2``);
#: a document's symbol (``Qchem_day``, ``TIMEapply_days``, EIIP's ``d_x``: a capital, or
#: one-letter parts) is not one.
SNAKE_CASE = re.compile(r"(?<![\w./:-])(?=[a-z0-9_]*[a-z]{2})[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w-])")
INDEX = re.compile(r"\w\[\d+\]")
JSON = re.compile(r"\[\s*\"|\{\s*\"|\[\s*'|\{\s*'")
#: Counted things whose "1 …" must be singular (the units of ``assessments.numbers`` and the pages' nouns).
COUNTED = ("sites", "workers", "days", "hours", "years", "containers", "cleanings", "batches", "wafers", "lines",
           "shifts", "applications", "incidents", "units", "uses", "cases", "revisions", "entries", "figures",
           "changes", "values", "inputs", "steps", "releases", "exposures", "notices", "comments", "operators",
           "technicians", "printed figures")
ONE_PLURAL = re.compile(r"(?<![\d.,])\b1 (?:" + "|".join(COUNTED) + r")\b")
TINY_DECIMAL = re.compile(r"(?<![\d.,])0\.0000\d*[1-9]")
URL = re.compile(r"https?://\S+|(?<!\w)/[\w./?=&-]*")


class VisibleText(HTMLParser):
    """The text a reader sees: data outside ``script``, ``style`` and ``head`` (the title kept)."""

    HIDDEN = {"script", "style", "template"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0
        self._in_head = False
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self._hidden += 1
        elif tag == "head":
            self._in_head = True
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag == "head":
            self._in_head = False
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._hidden or (self._in_head and not self._in_title):
            return
        self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


def findings(where: str, text: str, values: set[str]) -> list[str]:
    """Each internal word in ``text``, with the words around it."""
    text = URL.sub(" ", text)
    found = []

    def hit(rule: str, match: re.Match) -> None:
        start, end = max(0, match.start() - 60), match.end() + 60
        found.append(f"{where}: {rule} {match.group(0)!r} in …{text[start:end]}…")

    for value in values:
        for match in re.finditer(r"(?<![\w-])" + re.escape(value) + r"(?![\w-])", text):
            hit("choice value", match)
    for rule, pattern in (("snake_case", SNAKE_CASE), ("index", INDEX), ("JSON", JSON),
                          ("singular wanted", ONE_PLURAL), ("E-notation wanted", TINY_DECIMAL)):
        for match in pattern.finditer(text):
            if rule == "snake_case" and match.group(0) in values:
                continue  # said once, as a choice value
            hit(rule, match)
    return found


# --- The demo data, and a review cycle that sends the emails ---------------------------------


def user(name: str):
    return get_user_model().objects.get(username=name)


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # load_demo runs only on a development machine
    call_command("load_demo", stdout=io.StringIO())
    draft = Assessment.objects.get(submission__case_number=SAMPLE, revision=2)
    use = draft.scenarios.get()
    services.scenario_save_site_data(scenario=use, by=user("reviewer"), entries=SITE_DATA)
    services.scenario_compute(scenario=Scenario.objects.get(pk=use.pk), by=user("reviewer"))


def pages(client) -> dict[str, str]:
    """Every page of the demo data the signed-in user may open, by URL: its visible text."""
    urls = ["/", "/review/", "/due/", "/notices/", "/methods/validation/", "/my-cbi-access/", "/cases/new/"]
    for case in Submission.objects.all():
        urls += [f"/cases/{case.pk}/", f"/cases/{case.pk}/edit/", f"/cases/{case.pk}/calendar/",
                 f"/cases/{case.pk}/custody/"]
    for assessment in Assessment.objects.all():
        urls += [f"/assessments/{assessment.pk}/{page}" for page in
                 ("", "notes/", "irer/", "history/", "compare/", "scenarios/new/")]
        for use in assessment.scenarios.all():
            urls += [f"/scenarios/{use.pk}/", f"/scenarios/{use.pk}/report-text/", f"/scenarios/{use.pk}/delete/"]
            params = registry.get(use.scenario_key).params
            urls += [f"/scenarios/{use.pk}/wizard/{step.key}/" for step in params.steps]
            urls += [f"/scenarios/{use.pk}/wizard/{SITE_STEP}/"]
    out = {}
    for url in urls:
        response = client.get(url)
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            out[url] = visible_text(response.content.decode())
    return out


def review_cycle(django_capture_on_commit_callbacks) -> None:
    """Revision 2 of the sample case submitted, returned with a comment, submitted again and
    approved, each step's emails sent (the commit's callbacks run)."""
    draft = Assessment.objects.get(submission__case_number=SAMPLE, revision=2)
    steps = [
        (workflow.assessment_submit, "reviewer", {"note": "Site data added."}),
        (workflow.assessment_return, "supervisor", {"comment": "Check the site data's source."}),
        (workflow.assessment_submit, "reviewer", {"note": "Source checked."}),
        (workflow.assessment_approve, "supervisor", {"comment": "Approved."}),
    ]
    for service, name, words in steps:
        with django_capture_on_commit_callbacks(execute=True):
            service(assessment=Assessment.objects.get(pk=draft.pk), by=user(name), **words)


def report_texts() -> dict[str, str]:
    out = {}
    for assessment in Assessment.objects.all():
        for sanitised in (False, True):
            document = irer_context(assessment=assessment, sanitised=sanitised)["document"]
            out[f"IRER of {assessment} ({'sanitised' if sanitised else 'full'})"] = " ".join(plain_text(document).split())
    return out


# --- The rules --------------------------------------------------------------------------------


def test_the_rules_catch_what_they_are_for():
    values = {"organic_solvent", "twa_8h"}
    text = ("Release 5: organic_solvent; limit twa_8h; site_specific[0]; claims [\"submitter\"]; "
            "{\"a\": 1}; at least 1 sites; 0.0000012 kg; release_total_kg_yr")
    rules = [f.split(" in …")[0].split(": ", 1)[1] for f in findings("t", text, values)]
    assert sorted(rules) == sorted([
        "choice value 'organic_solvent'", "choice value 'twa_8h'", "index 'c[0]'", "JSON '[\"'", "JSON '{\"'",
        "singular wanted '1 sites'", "E-notation wanted '0.0000012'", "snake_case 'release_total_kg_yr'",
        "snake_case 'site_specific'"])
    # The document's symbols, units, URLs and words with a capital stay readable.
    assert findings("t", "Qchem_day, TIMEapply_days, C_x, d_x, 1 site, 2 sites, 1.18E-6, /cases/1/site_data/",
                    values) == []


def test_the_choice_values_looked_for_include_the_engines_and_the_models():
    values = choice_values()
    assert "organic_solvent" in values
    assert "plasma" not in values  # a word: prose may say it


def test_the_visible_text_leaves_out_attributes_scripts_and_styles():
    html = ('<html><head><title>T one</title><style>a_b{}</style></head><body>'
            '<a href="/x_y/" data-x="p_q">Two</a><script>var c_d;</script></body></html>')
    assert visible_text(html) == "T one Two"


# --- The demo data, read as a reviewer reads it ------------------------------------------------


def test_no_page_of_the_demo_data_shows_an_internal_word(demo, client, django_capture_on_commit_callbacks):
    values = choice_values()
    found = []
    for name in ("reviewer", "supervisor"):
        client.force_login(user(name))
        shown = pages(client)
        # Every page of every revision and use is read (a page that failed to render would hide its words)
        must = {"/", "/methods/validation/"} | ({"/review/"} if name == "supervisor" else set()) | {
            f"/assessments/{a.pk}/{page}" for a in Assessment.objects.all() for page in ("", "irer/", "history/", "compare/")
        } | {f"/scenarios/{use.pk}/" for use in Scenario.objects.all()}
        assert must <= set(shown), sorted(must - set(shown))
        for url, text in shown.items():
            found += findings(f"{name} {url}", text, values)
    review_cycle(django_capture_on_commit_callbacks)
    for name in ("reviewer", "supervisor"):
        client.force_login(user(name))
        for url, text in pages(client).items():
            found += findings(f"{name}, after the review, {url}", text, values)
    assert not found, "\n".join(sorted(set(found)))


def test_no_email_of_the_review_shows_an_internal_word(demo, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    review_cycle(django_capture_on_commit_callbacks)
    assert len(mail.outbox) >= 4
    values = choice_values()
    found = [f for message in mail.outbox for f in findings(
        f"email “{message.subject}”", f"{message.subject} {message.body}", values)]
    assert not found, "\n".join(found)


def test_no_report_of_the_demo_data_shows_an_internal_word(demo):
    values = choice_values()
    found = [f for where, text in report_texts().items() for f in findings(where, text, values)]
    assert not found, "\n".join(sorted(set(found)))


# --- The cases the issue names, each said in words -------------------------------------------


def test_the_history_names_people_by_their_full_names_and_the_claims_by_their_labels(demo, client):
    client.force_login(user("reviewer"))
    cvd = Assessment.objects.get(submission__case_number=CVD)
    text = visible_text(client.get(f"/assessments/{cvd.pk}/history/").content.decode())
    assert "CBI claims Submitter, Specific chemical name, CAS number, Production volume (kg/yr)" in text
    assert "Riley Reviewer" in text and " reviewer · " not in text  # the demo reviewer, as the other pages name her


def test_a_site_data_warning_names_the_entry_in_words(demo, client):
    client.force_login(user("reviewer"))
    use = Assessment.objects.get(submission__case_number=SAMPLE, revision=2).scenarios.get()
    text = visible_text(client.get(f"/scenarios/{use.pk}/").content.decode())
    assert ("Release 6 (Submitter's site data, entry 1: Material balance (pollutant content); source: "
            "Submitter's mass balance, PMN attachment 2): the site-specific release") in text


def test_the_stripping_process_is_named_by_its_label_in_the_notes():
    result = registry.compute("photoresist-2018", {"Qchem_yr": 5000, "stripping_process": "organic_solvent"})
    (note,) = [n for n in result.notes if "stripping process" in n]
    assert note.endswith("Release 5 stripping process: “Organic solvent stripping: 25 % to water, 75 % to incineration”.")


def test_a_count_agrees_with_its_number_in_the_allowed_range_and_the_default(reviewer, client):
    from assessments.esd.parameters import INT, Param
    from tests.conftest import make_assessment, make_submission

    assert Param("N", "Sites", "sites", None, "doc", "s", kind=INT, lower=1).allowed_text() == (
        "a whole number at least 1 site")
    use = services.scenario_add(assessment=make_assessment(make_submission(), reviewer), by=reviewer,
                                scenario_key="photoresist-2010")
    client.force_login(reviewer)
    step = registry.get("photoresist-2010").params["Ncont_site_day"].step
    text = visible_text(client.get(f"/scenarios/{use.pk}/wizard/{step}/").content.decode())
    assert "Default: 1 container/site-day" in text and "1 containers" not in text
