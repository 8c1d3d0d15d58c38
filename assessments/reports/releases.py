"""The IRER's environmental releases as ChemSTEER prints them: medium headings from its list,
one block per estimate and medium, the label, "to:", "from:" and "basis:", in the seed
sample's order; on the reviewer's choice, same-medium releases stacked as ChemSTEER stacks them.

ChemSTEER v3.2 (decompiled, ChemSteer4 repository) writes the releases of an operation
medium by medium (``Save_Irer``, media from its ``ListOfMedia`` table): a release with
a share in a medium is printed under that medium at its share of the daily amount; a
release whose medium is left open prints under the joint heading ("Water or Incineration").
The order of the blocks is the EPA 2018 update's sample IRER's (§7, pp. 7-4 and 7-5): by the
first medium a heading names, in ``ListOfMedia``'s order (water first), then by release, a
heading printed again where the next block's differs ("Water", "Water or Incineration",
"Incineration", "Incineration or Landfill", "Incineration"). ChemSTEER's report layout is
not readable, so the rule is the one the sample prints.

Combined (:func:`combine`, off unless the reviewer asks): the blocks under one heading are
stacked by days as ``Save_Irer`` stacks them: the shortest remaining days first, the daily
rates of the releases still running summed over those days, their "from:" and "basis:"
joined with "; ", the label and sites of the last release of the stack.
``to:`` is text the engineer edits (the ESD's destination "(per ESD)" by default), ``from:``
the source's name, ``basis:`` the model's standard sentence and the engineer's words; the
engine's computed narrative of each estimate is printed in the appendix instead
(``context.UseBuilder.computed_bases``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..esd import registry
from ..esd.irer import irer_basis
from ..esd.parameters import EngineValidationError
from ..esd.results import MEDIA, MEDIUM_NAMES
from ..esd.text import irer_percent
from ..models import Scenario
from ..presentation import MEDIUM_LABELS, REVIEWER_CHOSE, medium_choice_text

#: ChemSTEER's media headings, in its report order (ListOfMedia by SortID); a heading not
#: in the list (fuel blending) follows them.
CHEMSTEER_HEADINGS = (
    "Water", "Water or Air", "Water or Air or Incineration", "Water or Air or Landfill",
    "Water or Air or Incineration or Landfill", "Water or Incineration", "Water or Incineration or Landfill",
    "Water or Landfill", "Air", "Air or Incineration", "Air or Incineration or Landfill", "Air or Landfill",
    "Incineration", "Incineration or Landfill", "Landfill", "Deepwell Injection", "Destroyed", "Other",
)
#: The order of media within a joint heading: ChemSTEER names water first ("Water or Air",
#: never "Air or Water"), then the engine's order of the media.
_IN_HEADING = tuple(sorted(MEDIA, key=lambda medium: medium != "water"))

#: Where each medium goes, as the IRER's "to:" line says it by default: the medium's name
#: in title case, but for the media whose destination ChemSTEER words otherwise.
_DESTINATION_WORDS = {"water": "On-Site Wastewater Treatment", "destroyed": "Destroyed in the process"}
DESTINATIONS = {medium: _DESTINATION_WORDS.get(medium, name.title()) for medium, name in MEDIUM_NAMES}


def _heading(media: list[str]) -> str:
    ordered = sorted(media, key=lambda m: _IN_HEADING.index(m) if m in _IN_HEADING else len(_IN_HEADING))
    return " or ".join(MEDIUM_LABELS.get(m, m).title() for m in ordered)


def _order(heading: str) -> tuple[int, int]:
    """Where a heading's blocks go: by the first medium it names (``ListOfMedia``'s order of
    the single media: Water, Air, Incineration, Landfill ...), then by the list's order."""
    def place(name: str) -> int:
        return CHEMSTEER_HEADINGS.index(name) if name in CHEMSTEER_HEADINGS else len(CHEMSTEER_HEADINGS)

    return place(heading.split(" or ")[0]), place(heading)


def _shares(release: dict[str, Any]) -> list[tuple[str, float, list[str]]]:
    """(heading, share of the release, media) under which the release is printed."""
    media = release.get("media", [])
    if release.get("chosen_medium") and release.get("medium_chosen_by") == REVIEWER_CHOSE:
        return [(_heading([release["chosen_medium"]]), 1.0, [release["chosen_medium"]])]
    if media and all(m.get("fraction") is not None for m in media):
        return [(_heading([m["medium"]]), m["fraction"], [m["medium"]]) for m in media if m["fraction"]]
    names = [m["medium"] for m in media]
    return [(_heading(names), 1.0, names)]


def default_destination(release: dict[str, Any], media: list[str], share: float, per: str) -> str:
    """The "to:" line when the engineer wrote none: the destinations of ``media`` and where
    the document says so, e.g. ``On-Site Wastewater Treatment or Incineration (per revised ESD)``."""
    ordered = sorted(media, key=lambda m: _IN_HEADING.index(m) if m in _IN_HEADING else len(_IN_HEADING))
    text = " or ".join(DESTINATIONS.get(m, m) for m in ordered)
    if share < 1:
        return f"{text} ({irer_percent(share)} of the release, {per})"
    if release.get("medium_chosen_by") == REVIEWER_CHOSE:
        return f"{text} ({medium_choice_text(release)})"
    return f"{text} ({per})"


@dataclass(frozen=True)
class ReleaseRow:
    """One block of the IRER's releases: an estimate of a release (at its share of a medium,
    for a release split between media), with where it sits in the result
    (``release_index``, ``estimate_index``: the report's provenance reads them)."""

    release_index: int
    estimate_index: int
    number: int
    label: str
    site_specific: bool
    kg_site_day: float
    days: float
    sites: float
    kg_site_year: float
    kg_year_all_sites: float
    to: str
    to_by_engineer: bool
    source: str
    standard_basis: str
    engineer_basis: str
    #: A combined block: the blocks whose daily rates it sums (each at its own figures);
    #: empty for one release's block.
    stacked: tuple[ReleaseRow, ...] = ()
    #: A combined block: every block of its stack, whose days its days derive from.
    stack: tuple[ReleaseRow, ...] = ()
    #: The estimate's output slot: 1 for a release's last estimate (ChemSTEER's "Output 2"
    #: slot), 0 for the first of a pair; blocks stack slot by slot.
    slot: int = 1

    @property
    def members(self) -> tuple[ReleaseRow, ...]:
        """The blocks this one prints: itself, or the ones it sums."""
        return self.stacked or (self,)

    @property
    def derived_from(self) -> tuple[ReleaseRow, ...]:
        """The blocks its figures derive from: itself, or its whole stack."""
        return self.stack or (self,)


def release_rows(result: dict[str, Any], release_texts: dict[str, Any], per: str,
                 combined: bool = False) -> list[tuple[str, list[ReleaseRow]]]:
    """The releases under their medium headings in the sample IRER's order, one row per
    estimate (and per medium of a split release, at its share), a heading again where the
    heading changes; ``combined``: each heading's blocks stacked by days (:func:`combine`)."""
    rows = []
    for index, release in enumerate(result.get("releases", [])):
        texts = release_texts.get(str(release["number"]), {})
        for heading, share, media in _shares(release):
            for estimate_index, estimate in enumerate(release["estimates"]):
                rows.append((heading, index, release, share, media, estimate_index, estimate, texts))
    rows.sort(key=lambda row: (_order(row[0])[0], row[2]["number"], _order(row[0])[1], row[5]))
    groups: list[tuple[str, list[ReleaseRow]]] = []
    for heading, index, release, share, media, estimate_index, estimate, texts in rows:
        if not groups or groups[-1][0] != heading:
            groups.append((heading, []))
        to = texts.get("to", "").strip()
        groups[-1][1].append(ReleaseRow(
            release_index=index,
            estimate_index=estimate_index,
            number=release["number"],
            label=estimate.get("irer_label") or estimate["label"].title(),
            site_specific=release.get("site_specific", False),
            kg_site_day=estimate["kg_site_day"] * share,
            days=estimate["days_per_year"],
            sites=estimate["sites"],
            kg_site_year=estimate["kg_site_year"] * share,
            kg_year_all_sites=estimate["kg_year_all_sites"] * share,
            to=to or default_destination(release, media, share, per),
            to_by_engineer=bool(to),
            # a site-specific release's name carries the reviewer's activity
            source=release.get("irer_source") or release["source"],
            standard_basis=irer_basis(release.get("standard_basis") or "", release["model"]),
            engineer_basis=texts.get("basis", "").strip(),
            slot=estimate_index - len(release["estimates"]) + 2,
        ))
    return combine(groups) if combined else groups


def _stack(rows: list[ReleaseRow]) -> list[ReleaseRow]:
    """One output slot's blocks of a medium stacked by days (``Save_Irer``): while any
    release has days left, the fewest days left among them, over which the daily rates of
    those still running are summed; the label and sites of the last of them. Each block
    keeps the ones it sums (``stacked``: its "from:" and "basis:") and the whole stack
    (``stack``: its days are what the stack's days leave).

    >>> a = ReleaseRow(0, 0, 1, "High End", False, 1.0, 100, 2, 100.0, 200.0, "to", False, "A", "M.", "")
    >>> b = ReleaseRow(1, 0, 2, "Output 2", False, 3.0, 300, 2, 900.0, 1800.0, "to", False, "B", "N.", "")
    >>> [(r.kg_site_day, r.days, r.kg_year_all_sites, [m.source for m in r.members]) for r in _stack([a, b])]
    [(4.0, 100, 800.0, ['A', 'B']), (3.0, 200, 1200.0, ['B'])]
    """
    timed = [row for row in rows if row.days > 0]
    if len(timed) < 2:
        return rows
    left = {id(row): row.days for row in timed}
    out: list[ReleaseRow] = []
    while any(days > 0 for days in left.values()):
        running = [row for row in timed if left[id(row)] > 0]
        days = min(left[id(row)] for row in running)
        rate = sum(row.kg_site_day for row in running)
        last = running[-1]
        for row in running:
            left[id(row)] -= days
        out.append(replace(last, kg_site_day=rate, days=days, kg_site_year=rate * days,
                           kg_year_all_sites=rate * days * last.sites, stacked=tuple(running), stack=tuple(timed)))
    return out + [row for row in rows if not row.days > 0]


def combine(groups: list[tuple[str, list[ReleaseRow]]]) -> list[tuple[str, list[ReleaseRow]]]:
    """Same-medium blocks stacked as ChemSTEER's ``Save_Irer`` stacks them, output slot by
    output slot (a release's last estimate in slot 2, the first of a pair in slot 1), at the
    place of the heading's first block."""
    by_heading: dict[str, list[ReleaseRow]] = {}
    for heading, rows in groups:
        by_heading.setdefault(heading, []).extend(rows)
    out: list[tuple[str, list[ReleaseRow]]] = []
    for heading, rows in by_heading.items():
        stacked = [row for slot in sorted({r.slot for r in rows}) for row in _stack([r for r in rows if r.slot == slot])]
        out.append((heading, stacked))
    return out


def release_groups_texts(scenario: Scenario) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """The use's releases as the report-text page lists them (number, the document's name,
    ChemSTEER's source name) and each one's default "to:" line, as the report prints it."""
    try:
        per = registry.get(scenario.scenario_key).irer_per
    except EngineValidationError:
        per = "per ESD"
    releases, defaults = [], {}
    for release in (scenario.result or {}).get("releases", []):
        heading, share, media = _shares(release)[0]
        releases.append({"number": release["number"], "source": release["source"],
                         "from": release.get("irer_source") or release["source"], "medium": heading})
        defaults[release["number"]] = default_destination(release, media, share, per)
    return releases, defaults
