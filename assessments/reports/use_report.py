"""One use in the IRER: its section (facility estimates, releases, exposures, doses, notes)
and its appendix parts (mass balance, releases as computed, inputs, calculation trace), as
blocks of the report's document (:mod:`.document`), each figure and engine sentence a
:class:`~.document.Value` carrying the claimed case fields it derives from
(:class:`.derivation.UseDerivation`). Put together with the header and the summary across
the uses by :mod:`.context`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..basis_text import shared_clauses
from ..case_links import case_changes, case_field_label
from ..esd import registry
from ..esd.irer import chemsteer_name
from ..esd.parameters import EngineValidationError, Param
from ..exposure_limits import LimitCheck
from ..models import Scenario, Submission
from ..numbers import entered, unit_for
from ..presentation import (
    DOSE_KEYS,
    DOSES_NOT_COMPUTED,
    NOT_COMPUTED,
    NOT_CURRENT,
    RELEASED_IS,
    STALE,
    UNCOMPUTED,
    dose_basis_text,
    exposure_rows,
    inputs_used,
    mass_balance_rows,
    medium_choice_text,
    medium_label,
    over_release_warning,
    result_facts,
    scenario_state,
)
from ..site_data import SITE_STEP_TITLE, result_entries
from ..templatetags.figures import epa, significant
from ..trace import step_names, trace_names, trace_words
from .derivation import UseDerivation
from .document import (
    Block,
    Cell,
    Fields,
    Group,
    Heading,
    Inline,
    Items,
    Para,
    Row,
    Table,
    Text,
    Value,
    Withheld,
    Words,
    inline,
)
from .releases import ReleaseRow, release_rows

#: Printed in the sanitised copy in place of a list whose steps or entries move with a claimed value.
TRACE_WITHHELD = "Calculation trace: withheld from the sanitised copy (its steps depend on claimed values)."
LIST_WITHHELD = "{what}: withheld from the sanitised copy (they depend on claimed values)."
#: Printed in the sanitised copy in place of the over-release warning, whether there is one or
#: not, when it (or whether there is one) moves with a claimed value (issue 26).
OVER_RELEASE_WITHHELD = ("Whether the releases exceed the use beyond whole-container rounding: withheld from the "
                         "sanitised copy (it depends on claimed values).")
#: Printed in the sanitised copy in place of a sentence saying which claimed case value moved.
CASE_CHANGED_WITHHELD = "Computed with an earlier {field} than the case's: compute again."
#: The standing of an input of the submitter's site data in the inputs table.
SITE_DATA_STANDING = "Site data"

ROUTES = (("inhalation", "Inhalation"), ("dermal", "Dermal"))


def strong(text: str) -> Text:
    return Text(text, "strong")


def _named(param: Param, label: str) -> tuple[Text, ...]:
    """An input as the inputs table names it: its document symbol, then ``label``; an input
    the engine keys by a name of its own (``Param.shown_symbol``) by ``label`` alone."""
    if not param.shown_symbol:
        return (Text(label),)
    return (Text(param.shown_symbol, "code"), Text(f" {label}"))


class UseBuilder:
    """The blocks of one use: its section and its appendix parts."""

    def __init__(self, scenario: Scenario, number: int, submission: Submission, claimed: frozenset[str],
                 case_name: Words, release_note: str = "", *, combined: bool = False, appendix: bool = True) -> None:
        self.scenario = scenario
        #: Same-medium releases stacked as ChemSTEER stacks them (the reviewer's choice).
        self.combined = combined
        #: Whether the report prints the appendix (the calculation trace the basis cites).
        self.appendix_printed = appendix
        self.number = number
        self.submission = submission
        self.claimed = claimed
        self.case_name = case_name
        self.release_note = release_note
        self.result: dict[str, Any] = scenario.result or {}
        self.d = UseDerivation(scenario, claimed)
        self.state = scenario_state(scenario)
        self.not_current = {STALE: NOT_CURRENT, UNCOMPUTED: NOT_COMPUTED}.get(self.state, "")
        # Where the case is why (its amendment reached the linked inputs), in words: each
        # sentence quotes the case's values, so it derives from that field's claim.
        self.case_changes = case_changes(scenario, submission) if self.state == STALE else []
        try:
            spec = registry.get(scenario.scenario_key)
            self.method, self.source, self.per = spec.title, spec.source, spec.irer_per
            # A use keeps its method's title until the reviewer names it: then it is their words.
            declared = {spec.title, spec.full_title}
        except EngineValidationError:
            self.method, self.source, self.per = scenario.scenario_key, "", "per ESD"
            declared = set()
        self.title: Text | Words = Text(scenario.title) if scenario.title in declared else Words(scenario.title)
        self.facts = result_facts(self.result)

    # figures ----------------------------------------------------------------------
    def value(self, text: str, *paths: str, hidden: str | None = None, style: str = "") -> Value:
        claims = self.d.of(*paths)
        return Value(text, claims, hidden if hidden is not None else "[CBI]", style)

    def name(self, printed: str, path: str, style: str = "") -> Value:
        """A trace step's printed name (``trace.step_names``): it reads the step's symbol,
        qualifier, note and citation, and which other steps share its symbol (the trace's
        structure, which withholds the lists it is printed in)."""
        return self.value(printed, f"{path}/symbol", f"{path}/qualifier", f"{path}/note", f"{path}/citation",
                          style=style)

    def input_name(self, printed: str, key: str, step: int, plain: str) -> Value:
        """The printed name of step ``step``'s input ``key``: the name of the earlier step whose
        value it read (``names.input_names``), which is found by comparing values, so it
        moves with what those values move with (withheld as ``plain``: the key as the trace
        names it without telling its values apart)."""
        trace = self.result.get("trace", [])
        compared = [f"trace/{j}/value" for j in range(step)
                    if trace[j]["symbol"] == key or trace[j]["symbol"].startswith(f"{key}_")]
        return Value(printed, self.d.of(f"trace/{step}/inputs/{key}", *compared), plain)

    def engine_text(self, text: str, path: str) -> Value:
        """A sentence the engine wrote: withheld whole when anything in it derives from a claim."""
        return Value(text, self.d.under(path))

    def count(self, number: Any, units: str, *paths: str) -> Inline:
        """A count with its units agreeing with it ("1 site", "3 sites"); withheld, the units
        print as declared, which tell nothing."""
        claims = self.d.of(*paths)
        return (Value(significant(number, 3), claims), Text(" "), Value(unit_for(number, units), claims, units))

    @property
    def sites_claims(self) -> frozenset[str]:
        return self.d.of("facts/sites")

    # the use's section ---------------------------------------------------------------
    def section(self) -> Group:
        r = self.result
        sites = self.facts.get("sites")
        head: list[Block] = [
            Heading(2, (self.case_name, Text(f": Use {self.number}"))),
            Fields((
                ("Use:", (self.title,)),
                ("", inline("site(s) as reported by the submitter" if self.facts.get("sites_known") else "unknown site(s)")),
                ("Number of Sites/Location:", (self.value(significant(sites, 3), "facts/sites"),)),
                ("Days/yr:", (self.value(significant(self.facts.get("operating_days"), 3), "facts/operating_days"),)),
            )),
        ]
        if self.not_current:
            head.append(Para((strong(self.not_current),), cls="not-current"))
        for change in self.case_changes:
            hidden = CASE_CHANGED_WITHHELD.format(field=case_field_label(change.field))
            head.append(Para((Value(f"{change.text}.", self.claimed & {change.field}, hidden),), cls="not-current"))
        blocks: list[Block] = [Group(tuple(head), cls="use-head")]
        if not r:
            blocks.append(Para((strong("This use has not been computed."),)))
            return Group(tuple(blocks), cls="use", tag="section")
        blocks.append(Para((strong("Basis:"), Text(
            f" Per the {self.method} ({self.source}); each estimate's equation and inputs are in the appendix's "
            "calculation trace, at the step in brackets:" if self.appendix_printed else
            f" Per the {self.method} ({self.source}); the general facility estimates, with the step of the "
            "calculation trace each comes from (the trace is in the appendix of the copy printed with it):"))))
        blocks.append(self.facility_basis())
        blocks.append(Para((strong("Process Description:"), Text(" "),
                            self.engine_text(" --> ".join(r.get("process", [])), "process"))))
        blocks.append(Withheld(self.d.of("warnings"), tuple(
            Para((strong("Warning:"), Text(" "), self.engine_text(w, f"warnings/{i}")))
            for i, w in enumerate(r.get("warnings", []))
        ), LIST_WITHHELD.format(what="Warnings")))
        blocks.append(self.over_release())
        blocks += self.releases()
        blocks += self.occupational()
        return Group(tuple(blocks), cls="use", tag="section")

    def over_release(self) -> Block:
        """The engine's warning that the use releases more than it uses beyond whole-container
        rounding (issue 26), a paragraph under the use's warnings: one engine sentence, a
        :class:`Value` with its path into the result (``mass_balance/over_release_warning``),
        so the sanitised copy withholds it, and whether there is one, when it moves with a
        claimed value (its figures and the inputs it names move with the production volume,
        the concentration ...)."""
        path = "mass_balance/over_release_warning"
        text = over_release_warning(self.result)
        claims = self.d.under(path)
        paragraph = (Para((strong("Warning:"), Text(" "), Value(text, claims)), cls="over-release"),) if text else ()
        return Withheld(claims, paragraph, OVER_RELEASE_WITHHELD) if claims else Group(paragraph)

    def _trace_structure(self) -> frozenset[str]:
        """The claims the trace's steps (which there are, in which order) move with."""
        trace = self.result.get("trace", [])
        return self.d.of("trace", *(f"trace/{i}/symbol" for i in range(len(trace))))

    def facility_basis(self) -> Block:
        """The general facility estimates, one short line each: the value, its units and
        its citation, and the number of its step in the appendix's calculation trace."""
        facility_keys = set(self.result.get("facility", {}))
        items = []
        named = step_names(result=self.result, scenario_key=self.scenario.scenario_key)
        for number, (step, (name, _)) in enumerate(zip(self.result.get("trace", []), named), start=1):
            if step["symbol"] not in facility_keys:
                continue
            path = f"trace/{number - 1}"
            items.append((
                Text(f"[{number}] "), self.name(name, path), Text(" = "),
                self.value(significant(step["value"]), f"{path}/value"),
                Text(" "),
                self.value(unit_for(step["value"], step["units"]), f"{path}/value", f"{path}/units", hidden=step["units"]),
                Text(" ("), self.value(step["citation"], f"{path}/citation"), Text(")"),
            ))
        listed = Group((Items(tuple(items), cls="facility"),), cls="irer-detail",
                       fold=inline(f"General facility estimates ({len(items)})"))
        return Withheld(self._trace_structure() | self.d.of("facility"), (listed,),
                        LIST_WITHHELD.format(what="General facility estimates"))

    def releases(self) -> list[Block]:
        blocks: list[Block] = [
            Heading(3, inline("ENVIRONMENTAL RELEASES ESTIMATE SUMMARY")),
            Para(inline(f"IRER Note: {self.release_note}"), cls="note"),
        ]
        groups: list[Block] = []
        structure = self.d.of("releases")
        for heading, rows in release_rows(self.result, self.scenario.release_texts or {}, self.per, self.combined):
            groups.append(Heading(4, inline(heading), cls="medium"))
            for row in rows:
                structure |= self._release_structure(row)
                groups.append(self.release_block(row))
        blocks.append(Withheld(structure, tuple(groups), LIST_WITHHELD.format(what="Release estimates")))
        totals = self.result.get("totals_by_medium") or {}
        blocks.append(Para((strong("RELEASE TOTAL\n"),
                            Value(epa(sum(totals.values())), self.d.under("totals_by_medium"), style="strong"),
                            strong(" kg/yr - all sites")), cls="total"))
        return blocks

    def _estimate_paths(self, row: ReleaseRow, *keys: str) -> list[str]:
        """``keys`` of the estimates a block's figures derive from (its whole stack, combined)."""
        return [f"releases/{m.release_index}/estimates/{m.estimate_index}/{key}" for m in row.derived_from
                for key in keys]

    def _release_structure(self, row: ReleaseRow) -> frozenset[str]:
        """What decides the block's place, heading and, combined, its stack: its media, its
        estimates and labels, and (combined) the days that order the stack."""
        claims: frozenset[str] = frozenset()
        for m in row.derived_from:
            path = f"releases/{m.release_index}"
            estimate = f"{path}/estimates/{m.estimate_index}"
            claims |= self.d.of(f"{path}/estimates", f"{path}/media", f"{path}/chosen_medium",
                                f"{path}/medium_chosen_by", f"{estimate}/label", f"{estimate}/irer_label",
                                *((f"{estimate}/days_per_year",) if row.stack else ()))
        return claims

    def _joined(self, row: ReleaseRow, part: Callable[[ReleaseRow], Inline]) -> list[Any]:
        """One text of each block a combined block sums, joined with "; " as ChemSTEER joins
        them (a text two blocks share, once)."""
        out: list[Any] = []
        seen: list[Inline] = []
        for m in row.members:
            parts = part(m)
            if parts and parts not in seen:
                seen.append(parts)
                out += [*((Text("; "),) if out else ()), *parts]
        return out

    def release_block(self, row: ReleaseRow) -> Group:
        """One block of the releases (one estimate, or a stack of them, combined): its figures
        derive from the estimates they are computed from."""
        def figure(text: str, *keys: str) -> Value:
            return Value(text, self.d.of(*self._estimate_paths(row, *keys)))

        sites_claims = self.d.of(*self._estimate_paths(row, "sites"))
        sites = (figure(significant(row.sites, 3), "sites"), Text(" "),
                 Value(unit_for(row.sites, "sites"), sites_claims, "sites"))
        day: tuple[str, ...] = ("kg_site_day",)
        year: tuple[str, ...] = ("kg_site_year",)
        all_sites: tuple[str, ...] = ("kg_year_all_sites",)
        if row.stack:  # a stack's rates are sums over the days the stack leaves
            day = year = all_sites = ("kg_site_day", "days_per_year", "sites")
        label_claims = frozenset().union(*(self.d.of(f"releases/{m.release_index}/estimates/{m.estimate_index}/label",
                                                     f"releases/{m.release_index}/estimates/{m.estimate_index}/irer_label")
                                           for m in row.members)) if row.stack else frozenset()

        def to(m: ReleaseRow) -> Inline:
            path = f"releases/{m.release_index}"
            return (Words(m.to) if m.to_by_engineer else Value(m.to, self.d.of(
                f"{path}/media", f"{path}/chosen_medium", f"{path}/medium_chosen_by")),)

        def source(m: ReleaseRow) -> Inline:
            return (Words(m.source) if m.site_specific else self.engine_text(m.source, f"releases/{m.release_index}/irer_source"),)

        def basis(m: ReleaseRow) -> Inline:
            return (self.engine_text(m.standard_basis, f"releases/{m.release_index}/standard_basis"),
                    *((Text(" "), Words(m.engineer_basis)) if m.engineer_basis else ()))

        label = f"{row.label}{', site-specific data' if row.site_specific else ''}:"
        return Group((
            Para((Value(label, label_claims, style="strong") if label_claims else strong(label), Text(" "),
                  figure(epa(row.kg_site_day), *day), Text(" kg/site-day over "),
                  figure(significant(row.days, 3), "days_per_year"), Text(" days/yr from "), *sites)),
            Para((Text("or "), figure(epa(row.kg_site_year), *year), Text(" kg/site-yr from "), *sites, Text(" or "),
                  figure(epa(row.kg_year_all_sites), *all_sites), Text(" kg/yr-all sites"))),
            Para((Text("to: "), *self._joined(row, to))),
            Para((Text("from: "), *self._joined(row, source))),
            Para((), detail=tuple(self._joined(row, basis)), detail_label="basis:"),
        ), cls="block")

    def workers_total(self) -> Para:
        """"Tot. # of workers exposed via assessed routes" as ChemSTEER prints it: over all
        sites (workers per site × sites; 198 for the sample's 66 per site at 3 sites), with the
        per-site count and its basis in the basis line."""
        per_site, sites = self.facts.get("workers_per_site"), self.facts.get("sites")
        workers_claims = self.d.of("facts/workers_per_site")
        basis = self.engine_text((self.facts.get("workers_basis") or "").rstrip("."), "facts/workers_basis")
        lead = Text("Tot. # of workers exposed via assessed routes: ")
        if not isinstance(per_site, (int, float)) or not isinstance(sites, (int, float)):
            return Para((lead, Value(significant(per_site, 3), workers_claims), Text("\nBasis: "), basis, Text(".")))
        claims = workers_claims | self.sites_claims
        total = Value("0" if not per_site else significant(per_site * sites, 3), claims)
        if not per_site and not claims:
            return Para((lead, total, Text("\nBasis: "), basis, Text(".")))
        return Para((lead, total, Text("\nBasis: "), Value(significant(per_site, 3), workers_claims),
                     Text(" workers per site × "),
                     *self.count(sites, "sites", "facts/sites"), Text("; "), basis, Text(".")))

    def _route_statement(self, route: str) -> tuple[str, int]:
        """Why a route has no block: the engine's own note on it (and its place), if any."""
        keyword = "Inhalation" if route == "inhalation" else "Dermal"
        notes = self.result.get("notes", [])
        for i, note in enumerate(notes):
            if note.startswith(keyword) or f"{keyword.lower()} exposure" in note.lower():
                return note, i
        for i, note in enumerate(notes):
            if "exposure" in note.lower() and ("none" in note.lower() or "negligible" in note.lower()):
                return note, i
        return f"{keyword} exposure is not assessed for this use.", -1

    def occupational(self) -> list[Block]:
        blocks: list[Block] = [Heading(3, inline("OCCUPATIONAL EXPOSURES ESTIMATE SUMMARY")), self.workers_total()]
        routes: list[Block] = []
        printed: set[int] = set()
        shared: dict[str, int] = {}
        exposures = self.result.get("exposures", [])
        for route, title in ROUTES:
            mine = [(i, x) for i, x in enumerate(exposures) if x["route"] == route]
            if mine:
                routes.append(Para((strong(f"{title}:"),), cls="route"))
                routes += [self.exposure_block(i, x) for i, x in mine]
                continue
            note, at = self._route_statement(route)
            if at >= 0:
                printed.add(at)
            if note in shared:  # a use-wide statement ("no exposure") printed once, for both routes
                heading = routes[shared[note]]
                assert isinstance(heading, Para)
                routes[shared[note]] = Para((strong(f"{heading.content[0].text[:-1]} and {title.lower()}:"),),
                                            cls="route")
                continue
            shared[note] = len(routes)
            routes.append(Para((strong(f"{title}:"),), cls="route"))
            routes.append(Para((self.engine_text(note, f"notes/{at}") if at >= 0 else Text(note),), cls="block"))
        structure = self.d.of("exposures", "notes", *(f"exposures/{i}/route" for i in range(len(exposures))))
        blocks.append(Withheld(structure, tuple(routes), LIST_WITHHELD.format(what="Exposure estimates")))
        blocks.append(self.dose_table())
        notes = [(i, n) for i, n in enumerate(self.result.get("notes", [])) if i not in printed]
        if notes:
            blocks.append(Withheld(self.d.of("notes"), (
                Heading(3, inline("Notes")),
                Items(tuple((self.engine_text(n, f"notes/{i}"),) for i, n in notes)),
            ), LIST_WITHHELD.format(what="Notes")))
        return blocks

    def exposure_block(self, index: int, x: dict[str, Any]) -> Group:
        path = f"exposures/{index}"
        estimates = x["estimates"]
        common, own = shared_clauses(x["model"], [e["basis"] for e in estimates])
        workers = x["workers_per_site"]
        first = [
            strong(f"{x['letter']}. "), Value(x["activity"], self.d.of(f"{path}/activity"), style="strong"),
            Text(" ("), self.value(f"{chemsteer_name(x['model'])}, {x['equation']}", f"{path}/model", f"{path}/equation"),
            Text("): "),
            *self.count(workers, "workers", f"{path}/workers_per_site"),
            Text(" per site, "), self.value(significant(x["days_per_year"], 3), f"{path}/days_per_year"), Text(" days/yr"),
        ]
        basis_claims = self.d.under(*(f"{path}/estimates/{i}/basis" for i in range(len(estimates))))
        if common:
            first += [Text("; "), Value(common, basis_claims)]
        lines: list[Block] = [Para((*first, Text(".")))]
        for i, (e, text) in enumerate(zip(estimates, own)):
            label = e.get("irer_label") or e["label"].title()
            lines.append(Para(
                (self.value(label, f"{path}/estimates/{i}/label", f"{path}/estimates/{i}/irer_label"), Text(": "),
                 self.value(epa(e["mg_day"]), f"{path}/estimates/{i}/mg_day"), Text(" mg/day.")),
                detail=(Value(text, basis_claims), Text(".")) if text else (), detail_label="basis:" if text else "",
            ))
        return Group(tuple(lines), cls="block")

    def dose_table(self) -> Block:
        """The use's doses and airborne concentrations, one row per estimate, and the dose
        basis, printed once per use. Columns without a figure in any row are left out."""
        exposures = exposure_rows(result=self.result, submission=self.submission)
        rows = [(x, e) for x in exposures for e in x["estimates"]]
        if not rows:
            return Group(())
        if not self.result.get("dose_basis"):
            return Para(inline(f"Doses (APDR, ADD, LADD) and airborne concentrations: {DOSES_NOT_COMPUTED}."), cls="note")
        show_concentrations = any(x["has_concentrations"] for x in exposures)
        show_limit = any(e["limit"] for _, e in rows)
        head = ["Activity", "Route", "Estimate", "mg/day"] + (["mg/m³", "ppm"] if show_concentrations else [])
        head += ["APDR", "ADD", "LADD"] + (["TLV/PEL"] if show_limit else [])
        body: list[Row] = []
        for x, e in rows:
            path = f"exposures/{x['index']}/estimates/{e['index']}"
            cells = [Cell(inline(x["letter"]), header=True, scope="row"), Cell(inline(x["route"].capitalize())),
                     Cell(inline(e.get("irer_label") or e["label"].title())),
                     Cell((self.value(epa(e["mg_day"]), f"{path}/mg_day"),), cls="num")]
            if show_concentrations:
                cells += [Cell((self.value(epa(e["mg_m3"]), f"{path}/mg_m3"),), cls="num"),
                          Cell((self.ppm(e, path),), cls="num")]
            cells += [Cell((self.value(epa(e[name]), f"{path}/{key}"),), cls="num") for name, key, _ in DOSE_KEYS]
            if show_limit:
                limit = e["limit"]
                cells.append(Cell((self.limit_value(limit, path),), cls="above" if limit and limit.above else ""))
            body.append(tuple(cells))
        caption = f"Use {self.number}: doses (mg/kg-day)" + (
            " and airborne concentrations (8-h TWA)" if show_concentrations else "")
        structure = self.d.of("exposures", *(f"exposures/{x['index']}/{key}" for x in exposures
                                             for key in ("letter", "route", "estimates")),
                              *(f"exposures/{x['index']}/estimates/{e['index']}/{key}" for x, e in rows
                                for key in ("label", "irer_label", "mg_m3?", "ppm?")))
        table = Table(tuple(Cell(inline(h), header=True, scope="col") for h in head), (tuple(body),), caption, cls="doses")
        return Group((
            Withheld(structure, (table,), LIST_WITHHELD.format(what="Doses")),
            Para((Text("Dose basis: "), self.engine_text(dose_basis_text(self.result), "dose_basis"), Text(".")),
                 cls="note"),
        ))

    def ppm(self, estimate: dict[str, Any], path: str) -> Value:
        """An estimate's ppm: with its mg/m³ beside it, it gives the molecular weight away
        (ppm = mg/m³ × 24.45 / MW), so it derives from the molecular weight too."""
        claims = self.d.of(f"{path}/ppm") | (self.claimed & {"molecular_weight"})
        return Value(epa(estimate["ppm"]), claims)

    def limit_value(self, limit: LimitCheck | None, path: str) -> Value:
        """The TLV/PEL comparison, which may convert with the case's molecular weight; a STEL's
        or a ceiling's prints the concentration during the task and its minutes."""
        if not limit:
            return Value("—")
        claims = self.d.of(*(f"{path}/{key}" for key in ("mg_m3", "ppm", "task_mg_m3", "task_ppm", "task_minutes")))
        claims |= self.claimed & {"molecular_weight"}
        return Value(limit.text, claims)

    # the appendix ------------------------------------------------------------------------
    def appendix(self) -> list[Block]:
        if not self.result:
            return []
        blocks: list[Block] = []
        balance = mass_balance_rows(self.result)
        if balance is not None:
            blocks += self.mass_balance(balance)
        blocks.append(self.computed_bases())
        blocks.append(self.inputs())
        blocks.append(self.trace())
        return blocks

    def _use_heading(self, what: str) -> Heading:
        return Heading(3, (Text(f"Use {self.number}: "), self.title, Text(f": {what}")))

    def mass_balance(self, balance: dict[str, Any]) -> list[Block]:
        rows: list[Row] = [(Cell(inline("Used"), header=True, scope="row"),
                            Cell((self.value(epa(balance["used"]), "mass_balance/used_kg_yr"),), cls="num"))]
        # The media in the engine's order, not by amount: an order by amount would tell which is larger.
        for medium, amount in self.result["mass_balance"]["released_kg_yr"].items():
            rows.append((Cell(inline(f"Released: {medium_label(medium)}"), header=True, scope="row"),
                         Cell((self.value(epa(amount), f"mass_balance/released_kg_yr/{medium}"),), cls="num")))
        rows += [
            (Cell(inline(f"Released in all: {RELEASED_IS}"), header=True, scope="row"),
             Cell((Value(epa(balance["released"]), self.d.under("mass_balance/released_kg_yr")),), cls="num")),
            (Cell(inline("Consumed or destroyed in the process"), header=True, scope="row"),
             Cell((self.value(epa(balance["consumed"]), "mass_balance/consumed_kg_yr"),), cls="num")),
            (Cell(inline("Difference (used − released − consumed)"), header=True, scope="row"),
             Cell((self.value(epa(balance["difference"]), "mass_balance/difference_kg_yr"),), cls="num")),
        ]
        note: list[Any] = [self.engine_text(balance["basis"], "mass_balance/basis")]
        # Why a difference below zero is not a release beyond the use; whether there is one may
        # move with a claimed value, so it is then withheld whole (printed or not).
        below, below_claims = balance["below_zero"], self.d.under("mass_balance")
        if below or below_claims:
            note.append(Value(f" {below}" if below else "", below_claims, " [CBI]"))
        # Whether there is an allowance may move with a claimed value: the sentence is one part,
        # withheld whole (and said in the sanitised copy whether or not this case has one).
        allowance = self.d.under("mass_balance/allowance_kg_yr", "mass_balance/allowance_basis")
        text = (f" The documents' conventions release up to {epa(balance['allowance'])} kg/yr beyond the use: "
                f"{balance['allowance_basis']}") if balance["allowance"] else ""
        if text or allowance:
            note.append(Value(text, allowance, " The documents' conventions may release more than the use: [CBI]"))
        blocks: list[Block] = [self._use_heading("mass balance (kg/yr, all sites)")]
        if self.not_current:
            blocks.append(Para((strong(self.not_current),), cls="not-current"))
        # Which media are listed moves with the estimates: the rows are withheld together when it does.
        table = Table((), ((*rows,),), cls="mass-balance")
        blocks.append(Withheld(self.d.of("mass_balance/released_kg_yr"), (table,),
                               LIST_WITHHELD.format(what="Mass balance")))
        blocks.append(Para(tuple(note), cls="note"))
        return blocks

    def computed_bases(self) -> Block:
        """Each release estimate's computed narrative (the blocks' "basis:" is the IRER's)."""
        items: list[Inline] = []
        for i, release in enumerate(self.result.get("releases", [])):
            choice = medium_choice_text(release)
            for j, estimate in enumerate(release["estimates"]):
                label = estimate.get("irer_label") or estimate["label"].title()
                at = f"releases/{i}"
                items.append((
                    Text(f"Release {release['number']}, "),
                    Words(release["source"]) if release.get("site_specific")
                    else self.engine_text(release["source"], f"{at}/source"),
                    Text(" ("), self.value(f"{release['model']}, {release['equation']}", f"{at}/model", f"{at}/equation"),
                    Text("), "), self.value(label, f"{at}/estimates/{j}/label", f"{at}/estimates/{j}/irer_label"),
                    Text(": "), self.engine_text(estimate["basis"], f"{at}/estimates/{j}/basis"),
                    self.value(f" Medium: {choice}." if choice else "", f"{at}/media", f"{at}/chosen_medium",
                               f"{at}/medium_chosen_by"),
                ))
        if not items:
            return Group(())
        listed = Group((Items(tuple(items), cls="computed-bases"),), cls="irer-detail irer-part",
                       fold_heading=self._use_heading("releases as computed"))
        return Withheld(self.d.of("releases", *(f"releases/{i}/estimates" for i in range(len(self.result["releases"])))),
                        (listed,), LIST_WITHHELD.format(what="Releases as computed"))

    def inputs(self) -> Block:
        """The "inputs used" rows, each citing its source by number: many inputs share one
        source (a table of the document), which is printed once below the table."""
        sources: list[Inline] = []
        keys: list[tuple[object, ...]] = []
        rows: list[Row] = []
        marked: list[tuple[int, int, frozenset[str]]] = []

        def cite(key: tuple[object, ...], parts: Inline) -> int:
            if key not in keys:
                keys.append(key)
                sources.append(parts)
            return keys.index(key) + 1

        for row in inputs_used(scenario=self.scenario, result=self.result, case=self.submission):
            param, value = row["param"], row["value"]
            reason = row["reason"]
            path = f"facility/{param.symbol}" if row["standing"] == "Computed" else f"inputs/{param.symbol}"
            claims = self.d.of(path) | self.d.input(param.symbol)
            if claims:  # whether a claimed value came with a reason (or is the default) is withheld too
                words = f"{param.source} (reviewer: {reason})" if reason and not row["given"] else (reason or param.source)
                ref = cite(("claimed", param.symbol), (Value(words, claims, "[CBI]"),))
            elif reason and row["given"]:
                ref = cite(("reason", reason), (Words(reason),))
            elif reason:
                ref = cite(("source", param.source, reason), (Text(f"{param.source} (reviewer: "), Words(reason), Text(")")))
            else:
                ref = cite(("source", param.source), (Text(param.source),))
            if row["overridden"]:  # whether a claimed value is the default is itself withheld
                marked.append((0, len(rows), claims))
            rows.append((
                Cell(_named(param, param.label)),
                Cell((Value(row["text"], claims),), cls="num"),
                Cell((Value(row["units"], claims, param.units),)),
                Cell((Value(row["standing"], claims),)),
                Cell(inline(f"[{ref}]"), cls="num"),
            ))
        for entry in result_entries(self.result):  # the submitter's site data (EIIP), one source each
            ref = cite(("site", entry["number"]), (
                Text(f"{SITE_STEP_TITLE} {entry['number']}: {entry['method'].title}, {entry['replaces']}; source: "),
                Words(entry["source"]),
                *((Text("; activity: "), Words(entry["activity"])) if entry["activity"] else ()),
            ))
            for site_row in entry["rows"]:
                param, value = site_row["param"], site_row["value"]
                rows.append((
                    Cell(_named(param, f"{param.label} (site data {entry['number']})")),
                    Cell((Value(entered(value), self.d.input(param.symbol)),), cls="num"),
                    Cell(inline(param.units)),
                    Cell(inline(SITE_DATA_STANDING)),
                    Cell(inline(f"[{ref}]"), cls="num"),
                ))
        head = tuple(Cell(inline(h), header=True, scope="col") for h in ("Input", "Value", "Units", "Standing",
                                                                         "Source or reason"))
        table = Table(head, (tuple(rows),), cls="inputs", marked_rows=tuple(marked),
                      columns=("c-input", "c-value", "c-units", "c-standing", "c-source"))
        listed = tuple((Text(f"[{n}] "), *parts) for n, parts in enumerate(sources, start=1))
        return Group((table, Items(listed, ordered=True, cls="sources")), cls="irer-detail irer-part",
                     fold_heading=self._use_heading("inputs"))

    def trace(self) -> Block:
        given = self.result.get("inputs", {})
        names = trace_names(result=self.result, scenario_key=self.scenario.scenario_key)
        items: list[Inline] = []
        named = step_names(result=self.result, scenario_key=self.scenario.scenario_key)
        for n, (step, (printed, input_names)) in enumerate(zip(self.result.get("trace", []), named)):
            path = f"trace/{n}"
            symbol = step["symbol"]
            parts: list[Any] = [self.name(printed, path, style="" if symbol in names else "code"), Text(" = "),
                                self.value(trace_words(step["equation"], names), f"{path}/equation")]
            step_inputs = list(step.get("inputs", {}).items())
            for k, (name, value) in enumerate(step_inputs):
                is_given = name in given and given[name] == value and not isinstance(value, bool)
                text = entered(value) if is_given else significant(value)
                claims = self.d.of(f"{path}/inputs/{name}") | (self.d.input(name) if is_given else frozenset())
                parts += [Text(" with " if k == 0 else ", "), self.input_name(input_names[name], name, n, trace_words(name, names)),
                          Text(" = "), Value(text, claims)]
            parts += [Text(" → "), self.value(significant(step["value"]), f"{path}/value", style="strong"), Text(" "),
                      self.value(unit_for(step["value"], step["units"]), f"{path}/value", f"{path}/units",
                                 hidden=step["units"]),
                      Text(" ("), self.value(step["citation"], f"{path}/citation")]
            if step.get("note"):
                parts += [Text("; "), self.engine_text(step["note"], f"{path}/note")]
            parts.append(Text(")"))
            items.append(tuple(parts))
        listed = Group((Items(tuple(items), ordered=True, cls="trace"),), cls="irer-detail irer-part",
                       fold_heading=self._use_heading("calculation trace"))
        return Withheld(self._trace_structure(), (listed,), TRACE_WITHHELD)
