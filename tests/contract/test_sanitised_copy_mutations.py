"""Each redaction of the sanitised copy is needed: taken away, two cases that differ only in
their claimed values no longer print the same sanitised copy.

The property (``test_sanitised_copy_property.py``) would then fail. Shown here on fixed pairs
of cases, far apart in every claimed value, for each mechanism (the engine's provenance of
figures and sentences, the figures composed from several, lists withheld whole, people's
words, the case's items, units that agree with a count, classes and marks that describe a
value) and for each single figure or sentence the copy hides.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from assessments.reports import context as report_context
from assessments.reports import derivation, document
from assessments.reports.cbi import redaction_for
from assessments.reports.document import Report, Value, Withheld
from assessments.reports.html import report_html
from tests.contract.sanitised import CLAIMABLE, PLAIN, build, sanitised_copies

pytestmark = pytest.mark.django_db

# 0.4 is the photoresist ESD's default concentration (ESD 2010 §3.1): one case keeps it.
SMALL = {**PLAIN, "production_volume_kg_yr": 3.0, "molecular_weight": 45.0, "use_concentration": 0.4,
         "submitter": "Zqalpha Fabrication Ltd", "chemical_name": "3-Quuxbetayl sulfonate", "cas_number": "11111-22-3"}
LARGE = {**PLAIN, "production_volume_kg_yr": 4.5e6, "molecular_weight": 2400.0, "use_concentration": 0.73,
         "submitter": "Zqgamma Fabrication Ltd", "chemical_name": "3-Quuxdeltayl sulfonate", "cas_number": "99999-88-7"}


@pytest.fixture
def pair(reviewer):
    """Two photoresist cases, every field claimed, a volatile chemical against a 1 ppm limit:
    one site and many, the default concentration and another, light and heavy."""
    return [build("photoresist-2018", values, list(CLAIMABLE), branch={}, site_data=True, reviewer=reviewer,
                  tlv_ppm=True) for values in (SMALL, LARGE)]


def _same(pair) -> bool:
    a, b = (sanitised_copies(assessment) for assessment in pair)
    return a == b


def test_the_pair_prints_the_same_sanitised_copy(pair):
    assert _same(pair)


def _without_provenance(monkeypatch):
    monkeypatch.setattr(derivation.UseDerivation, "of", lambda self, *paths: self.everything)


def _without_composed(monkeypatch):
    monkeypatch.setattr(derivation.UseDerivation, "under", lambda self, *paths: self.everything)


def _withheld_printed(monkeypatch):
    original = document.Redaction.block

    def block(self, b):
        if isinstance(b, Withheld):
            for inner in b.blocks:
                yield from original(self, inner)
            return
        yield from original(self, b)

    monkeypatch.setattr(document.Redaction, "block", block)


def _words_as_typed(monkeypatch):
    monkeypatch.setattr(document.Redaction, "words", lambda self, text: text)


def _items_printed(monkeypatch):
    original = report_context._item
    monkeypatch.setattr(report_context, "_item",
                        lambda submission, name, text, claimed: original(submission, name, text, frozenset()))


def _units_agreeing(monkeypatch):
    original = report_context.UseBuilder.count

    def count(self, number, units, *paths):
        parts = original(self, number, units, *paths)
        return (*parts[:2], dataclasses.replace(parts[2], hidden=parts[2].text))

    monkeypatch.setattr(report_context.UseBuilder, "count", count)


def _classes_kept(monkeypatch):
    monkeypatch.setattr(document, "KEPT_CELL_CLASSES", ("num", "above"))


def _marks_kept(monkeypatch):
    original = document.Redaction.block

    def block(self, b):
        for out in original(self, b):
            if isinstance(out, document.Table) and isinstance(b, document.Table):
                out = dataclasses.replace(out, marked_rows=b.marked_rows)
            yield out

    monkeypatch.setattr(document.Redaction, "block", block)


MUTATIONS = {
    "the engine's provenance of each figure and sentence": _without_provenance,
    "figures composed of several (totals, mass balance)": _without_composed,
    "lists withheld whole": _withheld_printed,
    "people's words": _words_as_typed,
    "the case's claimed items": _items_printed,
    "units agreeing with a withheld count": _units_agreeing,
    "a cell's class describing its value": _classes_kept,
    "an overridden input's mark": _marks_kept,
}


@pytest.mark.parametrize("mutation", MUTATIONS, ids=list(MUTATIONS))
def test_taking_a_redaction_away_makes_the_copies_differ(pair, monkeypatch, mutation):
    MUTATIONS[mutation](monkeypatch)
    assert not _same(pair), f"without {mutation}, the two cases still print the same copy"


# --- Each figure and sentence -----------------------------------------------------------


def _values(blocks) -> Iterator[tuple[tuple, Value]]:
    """Every :class:`Value` outside a :class:`Withheld` block, with where it is."""
    for i, block in enumerate(blocks):
        if isinstance(block, Withheld):
            continue
        yield from _in(block, (i,))


def _in(node, where: tuple) -> Iterator[tuple[tuple, Value]]:
    if isinstance(node, Value):
        yield where, node
    elif isinstance(node, Withheld):
        return
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            yield from _in(getattr(node, f.name), (*where, f.name))
    elif isinstance(node, tuple):
        for i, item in enumerate(node):
            yield from _in(item, (*where, i))


def _replace(node, where: tuple, value):
    if not where:
        return value
    head, *rest = where
    if isinstance(node, tuple):
        return (*node[:head], _replace(node[head], tuple(rest), value), *node[head + 1:])
    return dataclasses.replace(node, **{head: _replace(getattr(node, head), tuple(rest), value)})


def test_each_figure_and_sentence_the_copy_hides_is_needed(pair):
    """For every figure or sentence the sanitised copy hides whose text differs between the
    two cases, printing it (its claims taken away, in both) makes the copies differ."""
    reports = [report_context.irer_report(report_context.as_printed(a)) for a in pair]
    redactions = [redaction_for(a.submission) for a in pair]

    def sheets(first: Report, second: Report) -> list[str]:
        return [report_html(r.copy(x), preview=False).replace(a.submission.case_number, "CASE")
                for r, x, a in zip((first, second), redactions, pair)]

    before = sheets(*reports)
    assert before[0] == before[1]
    hidden = [(where, value) for where, value in _values(reports[0].blocks) if value.claims]
    other = dict(_values(reports[1].blocks))
    differing = [where for where, value in hidden if where in other and other[where].text != value.text]
    assert len(differing) > 10, "the pair should differ in many hidden figures"
    for where in differing:
        shown = [dataclasses.replace(r, blocks=_replace(r.blocks, where, dataclasses.replace(
            _at(r.blocks, where), claims=frozenset()))) for r in reports]
        after = sheets(*shown)
        assert after[0] != after[1], f"the figure at {where} ({_at(reports[0].blocks, where).text!r}) is hidden for nothing"


def _at(node, where: tuple):
    for step in where:
        node = node[step] if isinstance(node, tuple) else getattr(node, step)
    return node
