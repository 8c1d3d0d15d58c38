"""The IRER's environmental releases as ChemSTEER prints them: medium headings from its list
and in its order, one block per estimate and medium, the label, "to:", "from:" and "basis:".

ChemSTEER v3.2 (decompiled, ChemSteer4 repository) writes the releases of an operation
medium by medium in the order of its ``ListOfMedia`` table (``Save_Irer``): a release with
a share in a medium is printed under that medium at its share of the daily amount; a
release whose medium is left open prints under the joint heading ("Water or Incineration").
``to:`` is text the engineer edits (the ESD's destination "(per ESD)" by default), ``from:``
the source's name, ``basis:`` the model's standard sentence and the engineer's words; the
engine's computed narrative of each estimate is printed in the appendix instead
(:func:`computed_bases`).
"""

from __future__ import annotations

from ..esd.results import MEDIA, MEDIUM_NAMES
from ..esd.text import irer_percent
from ..numbers import unit_for
from ..presentation import MEDIUM_LABELS, REVIEWER_CHOSE, medium_choice_text
from ..templatetags.figures import epa, significant
from .cbi import CBI_TEXT, Cbi

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


def release_groups(result: dict, release_texts: dict, per: str, cbi: Cbi) -> list[dict]:
    """The releases under their medium headings in ChemSTEER's order, one block per estimate
    (and per medium of a split release, at its share); within a heading by release number."""
    rows = []
    for release in result.get("releases", []):
        texts = release_texts.get(str(release["number"]), {})
        for heading, share, media in _shares(release):
            for estimate in release["estimates"]:
                rows.append((heading, release, share, media, estimate, texts))
    rows.sort(key=lambda row: (_order(row[0]), row[0], row[1]["number"]))
    groups: list[dict] = []
    for heading, release, share, media, estimate, texts in rows:
        if not groups or groups[-1]["medium"] != heading:
            groups.append({"medium": heading, "blocks": []})
        engineer = texts.get("basis", "").strip()
        standard = release.get("standard_basis") or f"{release['model']}."
        groups[-1]["blocks"].append({
            "number": release["number"],
            "label": estimate.get("irer_label") or estimate["label"].title(),
            "kg_site_day": epa(estimate["kg_site_day"] * share),
            "days": significant(estimate["days_per_year"], 3),
            "sites": significant(estimate["sites"], 3),
            "sites_word": unit_for(estimate["sites"], "sites"),  # "from 1 site", "from 3 sites"
            "kg_site_year": epa(estimate["kg_site_year"] * share),
            "kg_year_all_sites": CBI_TEXT if cbi.hides_annual_totals else epa(estimate["kg_year_all_sites"] * share),
            "to": cbi.scrub(texts.get("to", "").strip() or default_destination(release, media, share, per)),
            # a site-specific release's name carries the reviewer's activity
            "from": cbi.scrub(release.get("irer_source") or release["source"]),
            "site_specific": release.get("site_specific", False),
            "basis": cbi.scrub(f"{standard} {engineer}".strip()),
        })
    return groups


def computed_bases(result: dict, cbi: Cbi) -> list[dict]:
    """Each release estimate's computed narrative for the appendix: the document's name of
    the release, its model and equation, the medium and how the totals count it, the basis."""
    out = []
    for release in result.get("releases", []):
        choice = medium_choice_text(release)
        for estimate in release["estimates"]:
            out.append({
                "number": release["number"],
                "source": cbi.scrub(release["source"]),
                "label": estimate.get("irer_label") or estimate["label"].title(),
                "model": release["model"],
                "equation": release["equation"],
                "medium": choice,
                "basis": cbi.scrub(estimate["basis"]),
            })
    return out


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
