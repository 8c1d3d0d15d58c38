"""What every scenario offers beside its document's inputs: doses, a releases-only result,
and the medium of a release the document leaves open.

The registry adds these to every scenario it discovers (:func:`with_options`), so a
scenario declares none of them, and :func:`finish` applies them to the scenario's result:

- **Dose basis** (``BW``, ``EY``, ``AT``, ``ATc``, ``ED``): each exposure estimate gets its acute
  potential dose rate, average daily dose and lifetime average daily dose
  (:mod:`.models.doses`, INTERFACE.md "Additions, version 2"), over the exposure days the
  exposure prints, or the reviewer's ``ED`` (version 3); the result carries the basis
  once, as ``dose_basis``.
- **Releases only** (``include_exposures``): ``no`` (or JSON ``false``) gives
  ``"exposures": []``, as the EPA 2018 update's sample IRER (§7, "releases only").
- **Media chosen** (``medium_N``): a scenario lists, with :class:`OpenMedium`, the releases
  whose document names several media without saying which one takes the release; each
  becomes a choice among the listed media, defaulting to the one the document prefers (or
  lists first), with its citation. The release keeps the document's list; the totals by
  medium count it under the chosen medium, and the release says whether the reviewer
  chose it or the document's default stands.

Nothing here imports Django.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from .irer import irer_label, standard_sentence
from .models import doses
from .parameters import CHOICE, EngineValidationError, Param, ParamSet, Step, When, when
from .results import MEDIUM_NAMES, Exposure, Medium, Release, Result

# --- The dose basis -----------------------------------------------------------------------

DOSES = "doses"
STEP_DOSES = Step(
    DOSES, "Doses and report",
    "The body weight, working years and averaging times that turn each daily exposure into "
    "dose rates (APDR, ADD, LADD), and whether the report gives worker exposures at all.",
)

#: Body weight [kg]: the mean adult body weight of EPA's Exposure Factors Handbook, which
#: INTERFACE.md's dose basis and EPA's recent TSCA risk evaluations use. ChemSTEER's older
#: default, 70 kg (spec/epa-standard-models.md), is an override with a reason.
BW_DEFAULT_KG = doses.BW_TSCA_KG
BW_SOURCE = ("U.S. EPA Exposure Factors Handbook, 2011 Edition (EPA/600/R-09/052F), Chapter 8: mean adult "
             "body weight 80 kg, as in TSCA risk evaluations (ChemSTEER's older default: 70 kg)")
_CATALOGUE = "EPA/OPPT dose averages (ChemSTEER v3.2 dose defaults)"

INCLUDE_EXPOSURES = "include_exposures"
YES, NO = "yes", "no"
RELEASES_ONLY = "Worker exposures are not assessed in this assessment (releases only)."

#: The dose basis applies when worker exposures are estimated.
WITH_EXPOSURES = when(include_exposures=YES)

#: Exposure days a year (ChemSTEER's ED): left empty, each exposure's ADD and LADD use the
#: days a year the exposure itself prints, which already follow its document's per-worker
#: rule (photoresist: at most ``max_exposure_days``, ESD 2010 §5.3 to 5.7); no second cap
#: (INTERFACE.md, "Additions, version 3", issue 26). At most 365: the averaging times count
#: 365 days a year (:data:`.models.doses.DAYS_PER_YEAR`).
ED = "ED"
ED_MAX_DAYS = doses.DAYS_PER_YEAR
ED_SOURCE = (f"{_CATALOGUE}: ED, the days a year a worker is exposed, used as given: by default the days each "
             "exposure prints, which already follow its document's days per worker, with no second cap")
ED_IF_EMPTY = "each exposure's own days a year, as printed"
#: The dose basis's words for the exposure days (``dose_basis["source"]``; the pages print them).
ED_AS_PRINTED = "each exposure's days a year, as printed (ChemSTEER's ED)"
ED_AS_SET = "{days:g} a year for every exposure (ED, set by the reviewer)"

DOSE_PARAMS = (
    Param("BW", "Body weight of a worker", "kg", BW_DEFAULT_KG, BW_SOURCE, DOSES,
          lower=0, lower_open=True, upper=500, applies_when=WITH_EXPOSURES),
    Param("EY", "Working years exposed", "yr", doses.EY_DEFAULT_YR, f"{_CATALOGUE}: 40 working years",
          DOSES, lower=0, upper=100, applies_when=WITH_EXPOSURES),
    Param("AT", "Averaging time, non-cancer (ADD)", "yr", doses.AT_DEFAULT_YR,
          f"{_CATALOGUE}: equal to the working years, 40 yr", DOSES, lower=0, lower_open=True, upper=100,
          applies_when=WITH_EXPOSURES),
    Param("ATc", "Averaging time, cancer (LADD): a lifetime", "yr", doses.ATC_DEFAULT_YR,
          f"{_CATALOGUE}: a lifetime, 70 yr", DOSES, lower=0, lower_open=True, upper=120,
          applies_when=WITH_EXPOSURES),
    Param(ED, "Exposure days a year (ED), for every exposure's ADD and LADD", "days/yr", None, ED_SOURCE, DOSES,
          lower=0, lower_open=True, upper=ED_MAX_DAYS, applies_when=WITH_EXPOSURES, if_empty=ED_IF_EMPTY,
          help="Set only to give every exposure the same exposure days in its doses; left empty, each exposure's "
               "ADD and LADD use the days a year it prints."),
    Param(INCLUDE_EXPOSURES, "Estimate worker exposures", "", YES,
          "A releases-only report is a choice of the assessment (EPA 2018 update, §7: the sample IRER "
          "gives releases only)", DOSES, kind=CHOICE,
          choices=((YES, "Yes: releases and worker exposures"), (NO, "No: releases only")),
          booleans=(YES, NO)),  # JSON true/false too (INTERFACE.md, "Additions, version 3")
)
EY_ABOVE_AT = ("must be at most “Averaging time, non-cancer (ADD)” ({AT:g} yr): the working years are "
               "averaged over it")
EY_ABOVE_ATC = "must be at most “Averaging time, cancer (LADD): a lifetime” ({ATc:g} yr)"


def _dose_checks(v: Mapping[str, Any]) -> dict[str, str]:
    """EY within both averaging times (:func:`doses.add`, :func:`doses.ladd` refuse it)."""
    if v["EY"] > v["AT"]:
        return {"EY": EY_ABOVE_AT.format(AT=v["AT"])}
    if v["EY"] > v["ATc"]:
        return {"EY": EY_ABOVE_ATC.format(ATc=v["ATc"])}
    return {}


def dose_basis(v: Mapping[str, Any]) -> dict[str, Any]:
    """The result's ``dose_basis``: the effective dose inputs and where each comes from."""
    sources = {p.symbol: p.source for p in DOSE_PARAMS}
    days = v.get(ED)
    basis: dict[str, Any] = {
        "body_weight_kg": v["BW"],
        "working_years": v["EY"],
        "averaging_time_yr": v["AT"],
        "averaging_time_cancer_yr": v["ATc"],
    }
    if days is not None:
        basis["exposure_days"] = days
    in_words = ED_AS_PRINTED if days is None else ED_AS_SET.format(days=days)
    basis["source"] = (f"Body weight: {sources['BW']}. Working years and averaging times: {_CATALOGUE}. "
                       f"Exposure days: {in_words}, with no second cap.")
    return basis


def _dosed(exposure: Exposure, v: Mapping[str, Any]) -> Exposure:
    """``exposure`` with the dose rates of each estimate, over the exposure days it prints
    (or the reviewer's ED for every exposure). An estimate whose daily exposure overflowed
    keeps none: the registry refuses the result with the overflowed figure."""
    if not (math.isfinite(exposure.days_per_year) and all(math.isfinite(e.mg_day) for e in exposure.estimates)):
        return exposure
    days = exposure.days_per_year if v.get(ED) is None else v[ED]  # ChemSTEER's ED, as printed or as set
    estimates = [
        dataclasses.replace(
            e,
            apdr_mg_kg_day=doses.apdr(e.mg_day, BW=v["BW"]),
            add_mg_kg_day=doses.add(e.mg_day, days, EY=v["EY"], BW=v["BW"], AT=v["AT"]),
            ladd_mg_kg_day=doses.ladd(e.mg_day, days, EY=v["EY"], BW=v["BW"], ATc=v["ATc"]),
        )
        for e in exposure.estimates
    ]
    return dataclasses.replace(exposure, estimates=estimates)


# --- Media a document leaves open -------------------------------------------------------------


@dataclass(frozen=True)
class Alternative:
    """Media another source gives a release, which a reviewer may take instead of the
    document's (the EPA 2018 update's Table 1-1 reports the Consortium's): ``key`` is the
    choice's value, ``media`` the release's media when it is chosen (fractions adding to 1)."""

    key: str
    label: str
    media: tuple[Medium, ...]
    source: str


@dataclass(frozen=True)
class OpenMedium:
    """A release whose medium a reviewer chooses.

    ``media``: the media the document lists for the release, in its order, when it leaves
    the choice open among them; ``default``: the one it prefers (its first when it prefers
    none); ``source``: where it says so; ``step``: the wizard step of the choice;
    ``applies``: when the release is open only for some inputs (the 2018 stripping release
    when the process is unknown), the words that say so, and ``applies_when`` the same as a
    condition (the choice applies only then); ``alternatives``: media from another source,
    chosen instead of the document's.
    """

    release: int
    media: tuple[str, ...]
    default: str
    source: str
    step: str
    applies: str = ""
    alternatives: tuple[Alternative, ...] = ()
    applies_when: When | None = None

    def __post_init__(self) -> None:
        if self.default not in self.media:
            raise ValueError(f"release {self.release}: default medium {self.default!r} is not listed")

    @property
    def symbol(self) -> str:
        return medium_symbol(self.release)

    def param(self) -> Param:
        names = dict(MEDIUM_NAMES)
        when = f" {self.applies}" if self.applies else ""
        listed = (f"The document leaves Release {self.release}'s medium open among {media_in_words(self.media)}"
                  if len(self.media) > 1 else f"The document sends Release {self.release} to {media_in_words(self.media)}")
        others = "".join(f" {a.label}: {a.source}." for a in self.alternatives)
        return Param(
            self.symbol, f"Medium of Release {self.release}", "", self.default, self.source, self.step,
            kind=CHOICE,
            choices=tuple((m, names[m]) for m in self.media) + tuple((a.key, a.label) for a in self.alternatives),
            help=f"{listed}; the totals by medium count the release under the medium chosen here.{when}{others}",
            applies_when=self.applies_when,
        )


REVIEWER = "reviewer"
DOCUMENT = "document"
NOT_LISTED = "must be one of the media the document lists for Release {number} here: {listed}"


def medium_symbol(number: int) -> str:
    return f"medium_{number}"


def media_in_words(media: Collection[str]) -> str:
    """The media as a sentence names them: ``water, incineration or landfill``."""
    names = [dict(MEDIUM_NAMES)[m].lower() for m in media]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _chosen(release: Release, open_media: Mapping[int, OpenMedium], v: Mapping[str, Any],
            given: Collection[str]) -> tuple[Release, str]:
    """``release`` with the medium chosen for it, and a note when another source's media
    replace the document's.

    A choice among the media the release lists applies where the release leaves them open
    (every fraction None); an alternative (:class:`Alternative`) replaces the media
    whatever they were; a choice of the document's media for a release whose medium the
    inputs have fixed (the 2018 stripping release of a known process) does not apply.
    """
    declared = open_media.get(release.number)
    if declared is None or declared.symbol not in v:
        return release, ""
    symbol, choice = declared.symbol, v[declared.symbol]
    by = REVIEWER if symbol in given else DOCUMENT
    alternative = next((a for a in declared.alternatives if a.key == choice), None)
    if alternative is not None:
        replaced = release.media
        release = dataclasses.replace(release, media=list(alternative.media), medium_chosen_by=by)
        if len(alternative.media) == 1:
            release = dataclasses.replace(release, chosen_medium=alternative.media[0].medium)
        return release, (f"Release {release.number}: {alternative.label} ({alternative.source}) instead of the "
                         f"document's {media_in_words([m.medium for m in replaced])}.")
    listed = [m.medium for m in release.media]
    if len(listed) < 2 or any(m.fraction is not None for m in release.media):
        return release, ""
    if choice not in listed:
        raise EngineValidationError({symbol: NOT_LISTED.format(number=release.number, listed=media_in_words(listed))})
    return dataclasses.replace(release, chosen_medium=choice, medium_chosen_by=by), ""


# --- Every scenario ---------------------------------------------------------------------------


def with_options(params: ParamSet, open_media: tuple[OpenMedium, ...] = ()) -> ParamSet:
    """A scenario's inputs with the medium choices and the dose-basis step added."""
    media = tuple(o.param() for o in open_media)
    return dataclasses.replace(  # keeps a scenario's own ParamSet subclass
        params,
        params=params.params + media + DOSE_PARAMS,
        steps=params.steps + (STEP_DOSES,),
        cross_checks=params.cross_checks + (_dose_checks,),
    )


def finish(result: Result, open_media: tuple[OpenMedium, ...], v: Mapping[str, Any],
           given: Collection[str]) -> Result:
    """The scenario's result with the media chosen, the doses added, and the exposures
    dropped for a releases-only result. ``v``: the effective inputs; ``given``: the
    symbols the reviewer entered (a medium not entered is the document's default)."""
    if INCLUDE_EXPOSURES not in v:  # a scenario run outside the registry (Scenario.offered)
        return result
    by_number = {o.release: o for o in open_media}
    chosen = [_chosen(r, by_number, v, given) for r in result.releases]
    releases = [release for release, _ in chosen]
    exposures = [] if v[INCLUDE_EXPOSURES] == NO else [_dosed(x, v) for x in result.exposures]
    notes = list(result.notes) + [note for _, note in chosen if note]
    facts = result.facts
    if v[INCLUDE_EXPOSURES] == NO:
        notes.append(RELEASES_ONLY)
        if facts is not None:  # no route is assessed, so no worker is exposed via one
            facts = dataclasses.replace(facts, workers_per_site=0, workers_basis=RELEASES_ONLY)
    return dataclasses.replace(result, releases=[_as_irer_prints(r) for r in releases],
                               exposures=[_labelled(x) for x in exposures], notes=notes, facts=facts,
                               dose_basis=dose_basis(v))


def _as_irer_prints(release: Release) -> Release:
    """``release`` with the IRER's labels and, where the scenario gave none, the model's sentence."""
    labels = tuple(e.label for e in release.estimates)
    estimates = [dataclasses.replace(e, irer_label=irer_label(e.label, release.model, labels))
                 for e in release.estimates]
    return dataclasses.replace(release, estimates=estimates,
                               standard_basis=release.standard_basis or standard_sentence(release.model))


def _labelled(exposure: Exposure) -> Exposure:
    labels = tuple(e.label for e in exposure.estimates)
    return dataclasses.replace(exposure, estimates=[
        dataclasses.replace(e, irer_label=irer_label(e.label, exposure.model, labels)) for e in exposure.estimates])


__all__ = ["Alternative", "DOSES", "DOSE_PARAMS", "INCLUDE_EXPOSURES", "MEDIUM_NAMES", "OpenMedium", "REVIEWER", "DOCUMENT",
           "dose_basis", "finish", "medium_symbol", "with_options"]
