"""The IRER's environmental releases as ChemSTEER prints them: medium headings from its list
and in its order, one block per estimate and medium, the label, "to:", "from:" and "basis:".

ChemSTEER v3.2 (decompiled, ChemSteer4 repository) writes the releases of an operation
medium by medium in the order of its ``ListOfMedia`` table (``Save_Irer``): a release with
a share in a medium is printed under that medium at its share of the daily amount; a
release whose medium is left open prints under the joint heading ("Water or Incineration").
``to:`` is text the engineer edits (the ESD's destination "(per ESD)" by default), ``from:``
the source's name, ``basis:`` the model's standard sentence and the engineer's words; the
engine's computed narrative of each estimate is printed in the appendix instead
(``context.UseBuilder.computed_bases``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..esd.results import MEDIA, MEDIUM_NAMES
from ..esd.text import irer_percent
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


def _order(heading: str) -> int:
    return CHEMSTEER_HEADINGS.index(heading) if heading in CHEMSTEER_HEADINGS else len(CHEMSTEER_HEADINGS)


def _shares(release: dict) -> list[tuple[str, float, list[str]]]:
    """(heading, share of the release, media) under which the release is printed."""
    media = release.get("media", [])
    if release.get("chosen_medium") and release.get("medium_chosen_by") == REVIEWER_CHOSE:
        return [(_heading([release["chosen_medium"]]), 1.0, [release["chosen_medium"]])]
    if media and all(m.get("fraction") is not None for m in media):
        return [(_heading([m["medium"]]), m["fraction"], [m["medium"]]) for m in media if m["fraction"]]
    names = [m["medium"] for m in media]
    return [(_heading(names), 1.0, names)]


def default_destination(release: dict, media: list[str], share: float, per: str) -> str:
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


def release_rows(result: dict, release_texts: dict, per: str) -> list[tuple[str, list[ReleaseRow]]]:
    """The releases under their medium headings in ChemSTEER's order, one row per estimate
    (and per medium of a split release, at its share); within a heading by release number."""
    rows = []
    for index, release in enumerate(result.get("releases", [])):
        texts = release_texts.get(str(release["number"]), {})
        for heading, share, media in _shares(release):
            for estimate_index, estimate in enumerate(release["estimates"]):
                rows.append((heading, index, release, share, media, estimate_index, estimate, texts))
    rows.sort(key=lambda row: (_order(row[0]), row[0], row[2]["number"]))
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
            standard_basis=release.get("standard_basis") or f"{release['model']}.",
            engineer_basis=texts.get("basis", "").strip(),
        ))
    return groups


def release_groups_texts(scenario) -> tuple[list[dict], dict[int, str]]:
    """The use's releases as the report-text page lists them (number, the document's name,
    ChemSTEER's source name) and each one's default "to:" line, as the report prints it."""
    from ..esd import registry
    from ..esd.parameters import EngineValidationError

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
