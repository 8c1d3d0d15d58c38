"""The IRER's content for one assessment: what ``templates/reports/irer.html`` prints,
for the browser preview and the PDF alike (spec/irer.md; EPA 2018 photoresist update,
Section 7, is the layout).

Everything is read from the stored snapshots (``Scenario.result``), so an approved
report prints exactly what was approved. Numbers are formatted here, as EPA prints
them (two significant figures in E-notation), and CBI is applied here: the full copy
brackets each claimed item; the sanitised copy replaces it (and the figures and words
that would reveal it) with the generic name or ``[CBI]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from ..esd import registry
from ..models import Assessment, Status, Submission
from ..selectors import MEDIUM_LABELS, inputs_used
from ..templatetags.figures import epa, significant

CBI_TEXT = "[CBI]"
SANITISED_NOTE = (
    "SANITISED COPY: items claimed as confidential business information (CBI) are replaced by "
    "the generic name or [CBI], as are the figures that would reveal them."
)
CBI_BANNER = "CONTAINS CONFIDENTIAL BUSINESS INFORMATION: claimed items are in [brackets]"
RELEASE_NOTE = (
    "The daily releases listed for any source below may coincide with daily releases from the "
    "other sources to the same medium."
)

# The engine inputs that carry a case field's value.
CLAIMED_SYMBOLS = {
    "production_volume_kg_yr": ("Qchem_yr",),
    "use_concentration": ("Fchem",),
    "molecular_weight": ("MWchem", "MW"),
}

STATUS_LABELS = {
    Status.DRAFT: "Staff Draft",
    Status.SUBMITTED: "Staff Draft: submitted for approval",
    Status.RETURNED: "Staff Draft: returned for revision",
    Status.APPROVED: "Approved",
}

# Where each medium goes, as the IRER's "to:" line says it.
DESTINATIONS = {
    "air": "Air",
    "water": "On-Site Wastewater Treatment (water)",
    "incineration": "Incineration",
    "landfill": "Landfill",
    "fuel_blending": "Fuel Blending",
    "destroyed": "Destroyed in the process",
}
MEDIUM_ORDER = ("air", "water", "incineration", "landfill", "fuel_blending", "destroyed")

PROCESS_CHAINS = {
    "photoresist": (
        "Application (spin-coat)",
        "Soft Bake",
        "Image application via radiation",
        "Hard Bake",
        "Developing",
        "Intermediate processing (e.g., baking)",
        "Etching",
        "Stripping",
        "chemical fully released or destroyed",
    ),
    "cvd": (
        "connected to the gas cabinet or liquid delivery system",
        "vaporised and delivered to the CVD chamber",
        "Deposition (a fraction of the precursor reacts onto the wafer)",
        "unreacted precursor exhausted to point-of-use abatement",
        "abatement effluent to air or water",
    ),
}


@dataclass
class Cbi:
    """Applies a case's CBI claims to what the report prints."""

    submission: Submission
    sanitised: bool
    words: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.sanitised:
            self.words = sorted(_claimed_words(self.submission), key=len, reverse=True)

    def item(self, name: str, text: Any) -> dict:
        """A header item: ``{"text", "cbi"}``; claimed items bracketed or replaced."""
        text = "" if text is None else str(text)
        if not self.submission.is_claimed(name):
            return {"text": self.scrub(text), "cbi": False}
        if self.sanitised:
            replacement = self.submission.generic_name if name == "chemical_name" else CBI_TEXT
            return {"text": replacement, "cbi": True}
        return {"text": f"[{text}]" if text else "", "cbi": True}

    def symbol_claimed(self, symbol: str) -> bool:
        return any(
            symbol in symbols and self.submission.is_claimed(name) for name, symbols in CLAIMED_SYMBOLS.items()
        )

    def number(self, symbol: str, text: str) -> str:
        return CBI_TEXT if self.sanitised and self.symbol_claimed(symbol) else text

    @property
    def hides_annual_totals(self) -> bool:
        """All-site annual totals add up to the production volume: hidden with it."""
        return self.sanitised and self.submission.is_claimed("production_volume_kg_yr")

    def scrub(self, text: str) -> str:
        """Replace every claimed value's spellings in free text (sanitised copy only)."""
        if not self.sanitised or not text:
            return text
        for word in self.words:
            text = re.sub(rf"(?<![\w.]){re.escape(word)}(?![\w])", CBI_TEXT, text, flags=re.IGNORECASE)
        return text


def _claimed_words(submission: Submission) -> set[str]:
    words: set[str] = set()
    for name in submission.cbi_claims:
        value = getattr(submission, name)
        if value in (None, ""):
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            words |= _number_spellings(float(value), percent=name == "use_concentration")
        else:
            text = str(value).strip()
            if text and not (name == "chemical_name" and text == submission.generic_name):
                words.add(text)
    return words


def _number_spellings(value: float, *, percent: bool) -> set[str]:
    spellings = {f"{value:g}", f"{value:,.0f}" if value >= 1000 else f"{value:g}", significant(value, 3), epa(value)}
    if value.is_integer():
        spellings |= {f"{int(value)}", f"{int(value):,}", f"{value:.1f}"}
    if percent:
        pct = value * 100
        spellings |= {f"{pct:g}%", f"{pct:g} %", f"{pct:g} percent"}
    return {s for s in spellings if s and s not in {"0", "1"}}


def _fmt(value: Any) -> str:
    return significant(value, 3) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def facility_basis(result: dict, cbi: Cbi) -> list[str]:
    """The general facility estimates as sentences, each with its equation, inputs and
    value: built from the calculation trace, so it always matches the numbers."""
    facility_keys = set(result.get("facility", {}))
    sentences = []
    for step in result.get("trace", []):
        if step["symbol"] not in facility_keys:
            continue
        inputs = ", ".join(
            f"{name} = {cbi.number(name, _fmt(value))}" for name, value in step.get("inputs", {}).items()
        )
        value = cbi.number(step["symbol"], _fmt(step["value"]))
        text = f"{step['symbol']} = {step['equation']}"
        if inputs:
            text += f" with {inputs}"
        text += f": {value} {step['units']} ({step['citation']})."
        sentences.append(cbi.scrub(text))
    return sentences


def process_description(scenario_key: str, result: dict, submission: Submission, cbi: Cbi) -> str:
    """The IRER's arrow chain, e.g. ``NCS is unloaded from 1-gallon (3.8-liter) bottles
    (liquid, 15%) --> charged to application equipment --> ...``."""
    inputs = result.get("inputs", {})
    family = "cvd" if scenario_key.startswith("cvd") else "photoresist"
    state = submission.get_physical_state_display().lower()
    fraction = inputs.get("Fchem")
    concentration = cbi.number("Fchem", f"{fraction * 100:g}%") if fraction is not None else "concentration not given"
    if family == "photoresist":
        volume = inputs.get("Vcont")
        container = f"{significant(volume, 3)}-liter containers" if volume else "containers"
        first = f"Chemical is unloaded from {container} ({state}, {concentration}) --> charged to application equipment"
    else:
        volume = inputs.get("Vcontainer")
        container = f"{significant(volume, 3)}-liter cylinders or canisters" if volume else "cylinders or canisters"
        first = f"Precursor is received in {container} ({inputs.get('physical_state', state)}, {concentration})"
    return cbi.scrub(" --> ".join((first,) + PROCESS_CHAINS[family]))


def _media_key(release: dict) -> tuple:
    media = [m["medium"] for m in release.get("media", [])]
    first = min((MEDIUM_ORDER.index(m) for m in media if m in MEDIUM_ORDER), default=len(MEDIUM_ORDER))
    return (first, len(media), release["number"])


def _media_heading(release: dict) -> str:
    media = release.get("media", [])
    if media and all(m.get("fraction") is not None for m in media):
        return " and ".join(f"{MEDIUM_LABELS[m['medium']]} ({m['fraction'] * 100:g} %)" for m in media)
    return " or ".join(MEDIUM_LABELS.get(m["medium"], m["medium"]) for m in media)


def _destination(release: dict) -> str:
    media = release.get("media", [])
    if media and all(m.get("fraction") is not None for m in media):
        return " and ".join(f"{DESTINATIONS[m['medium']]} ({m['fraction'] * 100:g} %)" for m in media)
    return " or ".join(DESTINATIONS.get(m["medium"], m["medium"]) for m in media)


def release_groups(result: dict, cbi: Cbi) -> list[dict]:
    """Releases grouped by medium in EPA's block format; one block per estimate."""
    groups: list[dict] = []
    for release in sorted(result.get("releases", []), key=_media_key):
        heading = _media_heading(release)
        if not groups or groups[-1]["medium"] != heading:
            groups.append({"medium": heading, "blocks": []})
        for estimate in release["estimates"]:
            groups[-1]["blocks"].append(
                {
                    "number": release["number"],
                    "label": estimate["label"].title(),
                    "kg_site_day": epa(estimate["kg_site_day"]),
                    "days": significant(estimate["days_per_year"], 3),
                    "sites": significant(estimate["sites"], 3),
                    "kg_site_year": epa(estimate["kg_site_year"]),
                    "kg_year_all_sites": CBI_TEXT if cbi.hides_annual_totals else epa(estimate["kg_year_all_sites"]),
                    "to": _destination(release),
                    "source": release["source"],
                    "model": release["model"],
                    "equation": release["equation"],
                    "site_specific": release.get("site_specific", False),
                    "basis": cbi.scrub(estimate["basis"]),
                }
            )
    return groups


def release_total(result: dict) -> float:
    """kg/yr, all sites: the engine's totals by medium (``Result.totals_by_medium``), summed."""
    return sum((result.get("totals_by_medium") or {}).values())


def exposure_blocks(result: dict, route: str, cbi: Cbi) -> list[dict]:
    blocks = []
    for exposure in result.get("exposures", []):
        if exposure["route"] != route:
            continue
        blocks.append(
            {
                "letter": exposure["letter"],
                "activity": exposure["activity"],
                "model": exposure["model"],
                "equation": exposure["equation"],
                "workers": significant(exposure["workers_per_site"], 3),
                "days": significant(exposure["days_per_year"], 3),
                "estimates": [
                    {"label": e["label"].title(), "mg_day": epa(e["mg_day"]), "basis": cbi.scrub(e["basis"])}
                    for e in exposure["estimates"]
                ],
            }
        )
    return blocks


def _route_statement(result: dict, route: str) -> str:
    """Why a route has no block: the engine's own note on it, if any."""
    keyword = "Inhalation" if route == "inhalation" else "Dermal"
    for note in result.get("notes", []):
        if note.startswith(keyword) or f"{keyword.lower()} exposure" in note.lower():
            return note
    for note in result.get("notes", []):
        if "exposure" in note.lower() and ("none" in note.lower() or "negligible" in note.lower()):
            return note
    return f"{keyword} exposure is not assessed for this use."


def _workers(result: dict) -> tuple[Any, str]:
    facility = result.get("facility", {})
    if "Nworkers_exposed_site" in facility:
        return facility["Nworkers_exposed_site"], "distinct workers a site exposed via the assessed routes"
    if not result.get("exposures"):
        return 0, "no worker exposure is quantified for this use"
    return max(e["workers_per_site"] for e in result["exposures"]), "workers a site in the largest exposed group"


def scenario_section(scenario, submission: Submission, cbi: Cbi) -> dict:
    result = scenario.result or {}
    facility = result.get("facility", {})
    workers, workers_basis = _workers(result)
    days = facility.get("TIMEapply_days", facility.get("TIME_operating_days"))
    spec = registry.get(scenario.scenario_key)
    total = release_total(result)
    return {
        "title": scenario.title,
        "method": spec.title,
        "source": spec.source,
        "computed": bool(result),
        "sites": cbi.number("Nsites", significant(facility.get("Nsites"), 3)),
        "sites_given": result.get("inputs", {}).get("Nsites") is not None,
        "days": significant(days, 3),
        "basis": facility_basis(result, cbi),
        "process": process_description(scenario.scenario_key, result, submission, cbi) if result else "",
        "release_groups": release_groups(result, cbi),
        "release_total": CBI_TEXT if cbi.hides_annual_totals else epa(total),
        "workers": significant(workers, 3),
        "workers_basis": workers_basis,
        "inhalation": exposure_blocks(result, "inhalation", cbi),
        "inhalation_statement": cbi.scrub(_route_statement(result, "inhalation")),
        "dermal": exposure_blocks(result, "dermal", cbi),
        "dermal_statement": cbi.scrub(_route_statement(result, "dermal")),
        "warnings": [cbi.scrub(w) for w in result.get("warnings", [])],
        "notes": [cbi.scrub(n) for n in result.get("notes", [])],
        "engine_version": result.get("engine_version", ""),
        "default_set": result.get("default_set", {}),
        **_inputs_with_sources(scenario, result, cbi),
        "trace": [
            {
                "symbol": step["symbol"],
                "equation": step["equation"],
                "inputs": ", ".join(
                    f"{k} = {cbi.number(k, _fmt(v))}" for k, v in step.get("inputs", {}).items()
                ),
                "value": cbi.number(step["symbol"], _fmt(step["value"])),
                "units": step["units"],
                "citation": step["citation"],
                "note": cbi.scrub(step.get("note", "")),
            }
            for step in result.get("trace", [])
        ],
    }


def _inputs_with_sources(scenario, result: dict, cbi: Cbi) -> dict:
    """The "inputs used" rows, each citing its source by number: many inputs share one
    source (a table of the document), which is printed once below the table."""
    sources: list[str] = []
    rows = []
    for row in inputs_used(scenario=scenario, effective=result.get("inputs", {})):
        param, value = row["param"], row["value"]
        source = cbi.scrub(row["reason"] or param.source)
        if source not in sources:
            sources.append(source)
        if row["overridden"]:
            standing = "Overridden"
        elif row["given"]:
            standing = "Given"
        else:
            standing = "Computed" if value is None else "Default"
        rows.append(
            {
                "symbol": param.symbol,
                "label": param.label,
                "units": param.units,
                "value": cbi.number(param.symbol, _fmt(value) if value is not None else "—"),
                "standing": standing,
                "source_ref": sources.index(source) + 1,
                "overridden": row["overridden"],
            }
        )
    return {"inputs": rows, "sources": sources}


def _yes_no(value: bool) -> str:
    return "Yes" if value else "No"


def header(submission: Submission, assessment: Assessment, cbi: Cbi) -> dict:
    s = submission

    def number(value, units=""):
        return "" if value is None else f"{significant(value, 3)}{units}"

    def at(value, units, temperature):
        if value is None:
            return ""
        text = f"{epa(value)} {units}"
        return text + (f" @ {temperature:g} °C" if temperature is not None else "")

    return {
        "pv": cbi.item("production_volume_kg_yr", f"{s.production_volume_kg_yr:,.0f}"),
        "import_only": s.import_only,
        "engineer": assessment.engineer.get_full_name() or assessment.engineer.get_username(),
        "submitter": cbi.item("submitter", s.submitter),
        "use": cbi.item("use_description", s.use_description),
        "concentration": cbi.item("use_concentration", f"{s.use_concentration * 100:g}%" if s.use_concentration else ""),
        "other_uses": cbi.item("other_uses", s.other_uses),
        "msds": _yes_no(s.msds),
        "label": _yes_no(s.label),
        "tlv_pel": cbi.scrub(s.tlv_pel),
        "chemical_name": cbi.item("chemical_name", s.chemical_name),
        "generic_name": s.generic_name,
        "cas_number": cbi.item("cas_number", s.cas_number),
        "solubility": at(s.water_solubility_g_l, "g/L", s.water_solubility_temp_c),
        "physical_state": s.get_physical_state_display(),
        "mw": cbi.item("molecular_weight", number(s.molecular_weight)),
        "pct_500": number(s.pct_below_500_da, " %"),
        "pct_1000": number(s.pct_below_1000_da, " %"),
        "vp": at(s.vapour_pressure_torr, "torr", s.vapour_pressure_temp_c),
        "consumer_use": cbi.item("consumer_use", s.consumer_use),
        "sat_migration": s.sat_migration,
        "pbt_rating": s.pbt_rating,
        "sat_health": s.sat_health,
        "sat_eco": s.sat_eco,
        "oer": assessment.occupational_exposure_rating,
        "notes": cbi.scrub(assessment.notes),
        "pollution_prevention": cbi.scrub(assessment.pollution_prevention),
        "exposure_based_review": _yes_no(assessment.exposure_based_review),
    }


def irer_context(*, assessment: Assessment, sanitised: bool = False) -> dict:
    """Everything the IRER template prints for ``assessment`` (full or sanitised copy).

    Who may have which copy is the caller's check (``reports.services``)."""
    submission = assessment.submission
    cbi = Cbi(submission, sanitised)
    approved = assessment.status == Status.APPROVED
    scenarios = [scenario_section(s, submission, cbi) for s in assessment.scenarios.all()]
    approver = assessment.approved_by
    return {
        "case_number": submission.case_number,
        "case_name": cbi.scrub(submission.case_name or submission.generic_name),
        "revision": assessment.revision,
        "cbi_case": submission.is_cbi,
        "cbi_label": f"CBI: {_yes_no(submission.is_cbi and not sanitised)}",
        "sanitised": sanitised,
        "sanitised_note": SANITISED_NOTE if sanitised and submission.is_cbi else "",
        "cbi_banner": CBI_BANNER if submission.is_cbi and not sanitised else "",
        "status_label": STATUS_LABELS[assessment.status],
        "draft": not approved,
        "approved_by": (approver.get_full_name() or approver.get_username()) if approved and approver else "",
        "approved_at": assessment.approved_at if approved else None,
        "printed_at": timezone.now(),
        "header": header(submission, assessment, cbi),
        "scenarios": scenarios,
        "release_note": RELEASE_NOTE,
        "all_uses_total": CBI_TEXT
        if cbi.hides_annual_totals
        else epa(sum(release_total(s.result or {}) for s in assessment.scenarios.all())),
    }
