"""The conformance record: every worked-example figure of the documents, with the model that
computes it, the engine's number and, where known, ChemSTEER v3.2's (spec INTERFACE.md,
"Additions, version 4", "Conformance"; issue 42).

It is the validation table (:func:`.evaluation.table`, what ``esd verify`` prints) read
model by model. Each row is one printed figure:

- ``model``: the EPA/OPPT standard model that computes it, as the engine names it (the
  release's or exposure's model, the model an input's declared source names, the model an
  equation's arguments name), or else the document's own equations ("CVD ESD 2015
  equations"), as the validation rows group them by document; figures a run on ChemSTEER's
  daily-use rule computes as ChemSTEER does (its sites, days, daily use rate and totals) are
  :data:`CHEMSTEER_USE_MODEL`;
- ``source``: the document, its section and the quantity printed;
- ``printed``, ``engine``, ``agrees`` and ``note``: the validation row's figure as printed,
  the engine's full-precision number (None where it computes none), whether the number
  reads as printed (:func:`.compare.matches`) and the document's reason for a difference;
- ``tolerance``: the comparison :func:`.compare.matches` made, in words (:func:`tolerance`);
- ``chemsteer_v3_2``: ChemSTEER's figure where the model exists in ChemSTEER v3.2
  (:data:`CHEMSTEER_V3_2_MODELS`) and a document printed what ChemSTEER computed
  (:data:`CHEMSTEER_SAMPLES`); else, where ChemSTEER v3.2's own defaults move the figure
  (:mod:`..chemsteer_v32`: the run computed again with v3.2's value of each declared
  difference the run leaves at this engine's default) and the model that computes it so is
  one ChemSTEER v3.2 holds, the figure of that v3.2 mode, as the table prints the engine's
  (:func:`engine_text`); else None.

Added fields (INTERFACE.md, "Additions, version 4": a field may be added, none renamed):
``chemsteer_v3_2_source``, where the ChemSTEER v3.2 figure comes from (:data:`PRINTED`, a
document printed it; :data:`V32_MODE`, the v3.2 mode computed it; None),
``chemsteer_v3_2_differences``, the keys of the v3.2 defaults that move it, and
``chemsteer_v3_2_note``, its basis: the sample that printed it, or each v3.2 default that
moves the figure, this engine's value and v3.2's, with their citations. A figure a document
prints of a model's own table (the 2010 ESD's Table B-8, "420 × 0.7") keeps the document's
arguments: only the runs of a scenario take v3.2's defaults.

:func:`conformance_markdown` is docs/conformance.md, byte for byte (``manage.py esd
conformance --markdown`` writes it; a test compares); :func:`conformance_digest` its SHA-256,
which a report may cite; :func:`conformance_json` the rows of ``esd conformance --json``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import chemsteer_v32
from ..models import dermal, inhalation, residue, vapour
from ..results import ENGINE_VERSION
from ..text import e_notation, in_e_notation
from . import photoresist_2018
from .compare import parse_printed
from .evaluation import COMPUTED_DIGITS, UNCOMPUTED_TEXT, Row, documents, figures, table
from .sources import Equation, Figure, Pick, Results, Run, Source

#: The standard EPA/OPPT (and OAQPS, OSHA) models, as the engine's model modules declare
#: them (every ``*_MODEL`` name of :mod:`..models`): the User-Defined Loss Rate Model with
#: them, for ChemSTEER lists it among its models (:mod:`..irer`).
STANDARD_MODELS: tuple[str, ...] = tuple(
    value for module in (residue, vapour, inhalation, dermal)
    for name, value in vars(module).items() if name.endswith("_MODEL") and isinstance(value, str))

#: What ChemSTEER computes itself around its models, in a run on its daily-use rule
#: (``daily_use_basis = 'chemsteer'``): the sites from the production volume, the daily use
#: rate and the days, rounded up, and the daily use rate recalculated for the whole sites
#: (EPA 2018 update §7: "CS calculates 2.6 sites. Rounding up to 3 sites, CS calculates a
#: revised PMN use rate of 4.6 kg PMN/site-day"), the IRER's "Number of Sites" and
#: "Days/yr", its RELEASE TOTAL and its count of the workers exposed.
CHEMSTEER_USE_MODEL = "ChemSTEER's use calculations (sites, days, daily use rate, totals)"
#: The rule that makes a run compute as ChemSTEER does (:data:`CHEMSTEER_USE_MODEL`).
CHEMSTEER_DAILY_USE = ("daily_use_basis", "chemsteer")
#: The fields of a result ChemSTEER's use calculations give: (kind, name) of a
#: :class:`~.sources.Pick`.
CHEMSTEER_USE_FIGURES = frozenset({
    ("facts", "sites"), ("facts", "operating_days"), ("facts", "workers_per_site"),
    ("facility", "Nsites_calculated"), ("facility", "Nsites"), ("facility", "Qchem_day"),
    ("facility", "release_total_kg_yr"),
})

#: The models ChemSTEER v3.2 holds: every standard model (spec epa-standard-models.md: "EPA's
#: own desktop tool, ChemSTEER (v3.2, 2019, public domain), holds the same models in its
#: model table") and its use calculations.
CHEMSTEER_V3_2_MODELS = frozenset({*STANDARD_MODELS, CHEMSTEER_USE_MODEL})

#: The worked examples ChemSTEER generated, by (document, the start of the section): their
#: printed figures are ChemSTEER's. The EPA 2018 update's §7 sample IRER is "Generated by
#: the 09/30/2013 version of ChemSTEER" (seed 002, §7, "NOTES & KEY ASSUMPTIONS"), on the
#: daily-use rule the engine calls ``daily_use_basis = 'chemsteer'``; its models are those
#: ChemSTEER v3.2 holds, so its figures stand for v3.2's.
CHEMSTEER_SAMPLES = ((photoresist_2018.DOCUMENT.name, "§7 sample IRER"),)

#: The contract's fields, in its order (spec INTERFACE.md, "Additions, version 4").
CONTRACT_FIELDS = ("model", "source", "printed", "engine", "chemsteer_v3_2", "agrees", "tolerance", "note")
#: The fields added to the contract's: where the ChemSTEER v3.2 figure comes from, the v3.2
#: defaults that move it (keys of :data:`.chemsteer_v32.DIFFERENCES`) and its basis in words.
ADDED_FIELDS = ("chemsteer_v3_2_source", "chemsteer_v3_2_differences", "chemsteer_v3_2_note")
#: Where a ChemSTEER v3.2 figure comes from: a document printed it (a sample ChemSTEER
#: generated), or this engine computed it with ChemSTEER v3.2's own defaults.
PRINTED, V32_MODE = "printed", "v3.2 mode"

_COLUMNS = ("model", "source", "printed", "engine", "ChemSTEER v3.2", "agrees", "tolerance", "note")
_NONE = "—"


@dataclass(frozen=True)
class ConformanceRow:
    """One worked-example figure and the model that computes it (:func:`conformance_rows`).

    The first eight fields are the contract's; ``document`` (the document's short name)
    groups the rows of the markdown table; the last two are :data:`ADDED_FIELDS`.
    """

    model: str
    source: str
    printed: str
    engine: float | int | None
    chemsteer_v3_2: str | None
    agrees: bool
    tolerance: str
    note: str
    document: str
    chemsteer_v3_2_source: str | None = None
    chemsteer_v3_2_differences: tuple[str, ...] = ()
    chemsteer_v3_2_note: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The JSON object: the contract's :data:`CONTRACT_FIELDS`, then :data:`ADDED_FIELDS`."""
        out = {name: getattr(self, name) for name in CONTRACT_FIELDS + ADDED_FIELDS}
        out["chemsteer_v3_2_differences"] = list(self.chemsteer_v3_2_differences)
        return out


def tolerance(printed: str, *, count: bool = False) -> str:
    """The comparison :func:`.compare.matches` makes with ``printed``, in words.

    >>> tolerance("4.3E+0"), tolerance("0.0278"), tolerance("1,800"), tolerance("7%")
    ('as printed (2 significant figures)', 'as printed (3 significant figures)', 'as printed (2 significant figures)', 'as printed (1 significant figure)')
    >>> tolerance("360", count=True), tolerance("blsites", count=True), tolerance("0")
    ('exact (a count)', 'none (not a figure as printed)', 'as printed (to 1)')
    """
    try:
        figure = parse_printed(printed)
    except ValueError:
        return "none (not a figure as printed)"
    if count:
        return "exact (a count)"
    if figure.value == 0:
        return f"as printed (to {figure.quantum})"
    digits = len(str(abs(int(figure.value / figure.quantum))))
    return f"as printed ({digits} significant figure{'' if digits == 1 else 's'})"


def engine_text(value: float | int | None) -> str:
    """The engine's number as the table prints it: :data:`.evaluation.COMPUTED_DIGITS`
    significant figures, no float tail, thousands separated, EPA's E-notation below a
    thousandth or from a million, as ``esd verify`` prints it (``assessments.numbers.significant``);
    :data:`.evaluation.UNCOMPUTED_TEXT` for none.

    >>> engine_text(4.601851851851852), engine_text(5.3999999999999995), engine_text(2924)
    ('4.60185', '5.4', '2,924')
    >>> engine_text(3.1421279521271038e-06), engine_text(5030.181086519114), engine_text(None)
    ('3.14213E-6', '5,030.18', 'not computed')
    """
    if value is None:
        return UNCOMPUTED_TEXT
    number = float(value)
    if number == 0 or not math.isfinite(number):
        return "0" if number == 0 else str(number)
    decimals = max(COMPUTED_DIGITS - 1 - math.floor(math.log10(abs(number))), 0)
    rounded = round(number, decimals)
    if in_e_notation(rounded):
        return e_notation(number, COMPUTED_DIGITS, pad=False)
    text = f"{rounded:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _named_model(text: str) -> str:
    """The first standard model ``text`` names (an input's declared source), or ""."""
    found = [(text.find(model), model) for model in STANDARD_MODELS if model in text]
    return min(found)[1] if found else ""


def source_model(source: Any, results: Results) -> str:
    """The model that computes a figure's source, or "" where it is the document's own
    equations: see the module's docstring.

    An equation takes the model of the release or exposure it reads, or of a model its
    arguments name (Table B-8's dermal models); an input it reads does not give it the
    input's model (the 2018 sample's loss fractions read the equipment residue).
    """
    if isinstance(source, Pick):
        if (source.kind, source.name) in CHEMSTEER_USE_FIGURES:
            symbol, rule = CHEMSTEER_DAILY_USE
            if source.run.effective_inputs().get(symbol) == rule:
                return CHEMSTEER_USE_MODEL
        if source.kind == "input":
            return _named_model(source.run.scenario.offered().params[source.name].source)
        return source.model(results)
    if isinstance(source, Equation):
        for argument in source.args:
            if isinstance(argument, str) and argument in STANDARD_MODELS:
                return argument
            if isinstance(argument, Pick) and argument.kind != "input" and argument.model(results):
                return argument.model(results)
            if isinstance(argument, Equation) and source_model(argument, results):
                return source_model(argument, results)
    return ""


def chemsteer_figure(row: Row, model: str) -> str | None:
    """ChemSTEER v3.2's figure for ``row``: the printed figure of a worked example ChemSTEER
    generated (:data:`CHEMSTEER_SAMPLES`) where ``model`` is one it holds; else None."""
    generated = any(row.document == document and row.section.startswith(section)
                    for document, section in CHEMSTEER_SAMPLES)
    return row.printed if generated and model in CHEMSTEER_V3_2_MODELS else None


def in_v32_mode(source: Source, only: frozenset[str] | None = None) -> tuple[Source, list[chemsteer_v32.Standing]]:
    """``source`` with each run it reads computed in ChemSTEER v3.2 mode
    (:func:`.chemsteer_v32.v32_inputs`: v3.2's value of each declared difference the run's
    inputs, its preset's included, leave at this engine's default; ``only`` those
    differences), and the standings of the differences in each run. An equation keeps its
    own arguments and takes its sources' values in v3.2 mode."""
    if isinstance(source, Pick):
        effective = source.run.effective_inputs()
        changed, standings = chemsteer_v32.v32_inputs(source.run.scenario.offered(), effective, only=only)
        extra = {k: v for k, v in changed.items() if k not in effective or effective[k] != v}
        run = Run(source.run.scenario, {**source.run.inputs, **extra}, source.run.preset)
        return dataclasses.replace(source, run=run), standings
    if isinstance(source, Equation):
        args: list[Any] = []
        found: list[chemsteer_v32.Standing] = []
        for argument in source.args:
            if isinstance(argument, (Pick, Equation)):
                argument, standings = in_v32_mode(argument, only)
                found += standings
            args.append(argument)
        return dataclasses.replace(source, args=tuple(args)), found
    return source, []


def _moved(value: Any, engine: Any) -> bool:
    """Whether a v3.2 mode value differs from the engine's (both numbers)."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (value, engine))
    return numbers and not math.isclose(value, engine, rel_tol=1e-12, abs_tol=0.0)


def _value(source: Source, results: Results) -> Any:
    try:
        return source.value(results)
    except Exception:  # the engine refuses the run with v3.2's values: no v3.2 figure
        return None


def difference_note(standings: Sequence[chemsteer_v32.Standing], model: str = "") -> str:
    """The v3.2 defaults that move a figure, each with this engine's value, v3.2's and the
    citation of both, in one sentence; ``model``: the model that computes the figure in v3.2
    mode, where it is not the engine's."""
    text = f"{chemsteer_v32.NAME} mode: " + "; ".join(
        f"{s.difference.name}, {s.engine_text} → {s.v32_text} ({s.difference.citation.rstrip('.')})"
        for s in standings) + "."
    return f"{text} Computed in that mode by {model}." if model else text


@dataclass(frozen=True)
class V32Figure:
    """A row's ChemSTEER v3.2 figure (:func:`v32_figure`): the figure as the table prints it,
    where it comes from, the keys of the v3.2 defaults that move it and its note."""

    text: str | None = None
    source: str | None = None
    differences: tuple[str, ...] = ()
    note: str = ""


def v32_figure(row: Row, figure: Figure, model: str, results: Results) -> V32Figure:
    """The row's ChemSTEER v3.2 figure: a sample's printed figure (:func:`chemsteer_figure`),
    else the v3.2 mode's figure where it moves the engine's and the model that computes it in
    that mode is one ChemSTEER v3.2 holds, with the differences that move it (each alone;
    all applied where none alone does). ``results``: the runs in v3.2 mode."""
    printed = chemsteer_figure(row, model)
    if printed is not None:
        return V32Figure(printed, PRINTED, (), f"As printed in {row.document} {row.section.split(',')[0]}, "
                                                "generated by ChemSTEER.")
    source, standings = in_v32_mode(figure.source)
    applied = list({s.difference.key: s for s in standings if s.applied}.values())
    value = _value(source, results) if applied else None
    if not _moved(value, row.computed):
        return V32Figure()
    v32_model = source_model(source, results) or ""
    if v32_model not in CHEMSTEER_V3_2_MODELS:
        return V32Figure()
    moving = [s for s in applied
              if _moved(_value(in_v32_mode(figure.source, frozenset({s.difference.key}))[0], results), row.computed)]
    moving = moving or applied
    return V32Figure(engine_text(value), V32_MODE, tuple(s.difference.key for s in moving),
                     difference_note(moving, v32_model if v32_model != model else ""))


def conformance_row(row: Row, figure: Figure, results: Results, v32_results: Results | None = None) -> ConformanceRow:
    """The record's row for one validation row and the figure it was computed from
    (``v32_results``: the runs in v3.2 mode, shared by the rows of one record)."""
    model = source_model(figure.source, results) or f"{figure.document.name} equations"
    v32 = v32_figure(row, figure, model, {} if v32_results is None else v32_results)
    return ConformanceRow(
        model=model,
        source=f"{row.document}, {row.section}: {row.quantity}",
        printed=row.printed,
        engine=row.computed,
        chemsteer_v3_2=v32.text,
        agrees=row.match,
        tolerance=tolerance(row.printed, count=figure.count),
        note=row.note,
        document=row.document,
        chemsteer_v3_2_source=v32.source,
        chemsteer_v3_2_differences=v32.differences,
        chemsteer_v3_2_note=v32.note,
    )


def conformance_rows() -> list[ConformanceRow]:
    """One row per worked-example figure of the documents, in the validation table's order,
    each with the model that computes it."""
    rows, declared = table(), figures()
    if [r.printed for r in rows] != [f.printed for f in declared]:
        raise RuntimeError("the validation table is not the declared figures")
    results: Results = {}
    v32_results: Results = {}
    return [conformance_row(row, figure, results, v32_results) for row, figure in zip(rows, declared)]


def conformance_json(rows: Iterable[ConformanceRow]) -> list[dict[str, Any]]:
    """The rows as ``esd conformance --json`` prints them."""
    return [row.as_dict() for row in rows]


def counts_text(rows: Sequence[ConformanceRow]) -> str:
    """The counts of some rows, in a sentence.

    >>> row = ConformanceRow("m", "s", "1", 1, None, True, "t", "", "d")
    >>> counts_text([row]), counts_text([row, ConformanceRow("m", "s", "2", 1, "2", False, "t", "n", "d", PRINTED)])
    ('1 figure: all agree; none with a ChemSTEER v3.2 figure.', '2 figures: 1 agrees; 1 differs, each explained in its note; 1 with a ChemSTEER v3.2 figure (1 printed, 0 from the v3.2 mode).')
    """
    total, agree = len(rows), sum(r.agrees for r in rows)
    differ, explained = total - agree, sum(1 for r in rows if not r.agrees and r.note)
    chemsteer = sum(r.chemsteer_v3_2 is not None for r in rows)
    printed = sum(r.chemsteer_v3_2_source == PRINTED for r in rows)
    mode = sum(r.chemsteer_v3_2_source == V32_MODE for r in rows)
    head = f"{total} figure{'' if total == 1 else 's'}: "
    if not differ:
        head += "all agree"
    else:
        head += f"{agree} agree{'s' if agree == 1 else ''}; {differ} differ{'s' if differ == 1 else ''}, "
        unexplained = differ - explained
        head += ("each explained in its note" if not unexplained
                 else f"{explained} explained in a note and {unexplained} with no note")
    where = f" ({printed} printed, {mode} from the v3.2 mode)" if chemsteer else ""
    return f"{head}; {chemsteer or 'none'} with a ChemSTEER v3.2 figure{where}."


def _cell(text: str) -> str:
    """Text in a markdown table's cell: one line, its pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _table(header: Sequence[str], lines: Iterable[Sequence[str]]) -> list[str]:
    """A markdown table: the header, its rule, a line per row."""
    def line(cells: Iterable[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    return [line(header), line("---" for _ in header), *(line(_cell(c) for c in cells) for cells in lines)]


def conformance_markdown(rows: Sequence[ConformanceRow]) -> str:
    """docs/conformance.md: the engine's version, the counts, the models and the rows grouped
    by document. The same rows give the same text, byte for byte (it holds no date)."""
    models = list(dict.fromkeys(row.model for row in rows))
    out = [
        f"# Conformance record: engine {ENGINE_VERSION}",
        "",
        "Generated by `python manage.py esd conformance > docs/conformance.md` from the "
        "worked examples declared in `assessments/esd/verification/`; do not edit it by hand "
        "(`tests/esd/test_conformance.py` fails when it differs from the engine's output).",
        "",
        "One row per figure a document prints in a worked example, with the model that computes it: "
        "an EPA/OPPT standard model as the engine names it, or the document's own equations. "
        "*printed* is the figure as the document prints it; *engine* the engine's number "
        f"({COMPUTED_DIGITS} significant figures here, full precision in `--json`); *agrees* whether "
        "the engine's number, rounded as the document rounded its figure (*tolerance*), reads as "
        "printed; *note* the document's reason for every difference. *ChemSTEER v3.2* is ChemSTEER's "
        "figure where the model is one ChemSTEER v3.2 holds and a document prints what ChemSTEER "
        "computed: the EPA 2018 update's §7 sample IRER, \"Generated by the 09/30/2013 version of "
        "ChemSTEER\" on its daily-use rule (the engine's `daily_use_basis = 'chemsteer'`), whose "
        "models ChemSTEER v3.2 holds unchanged; the figures the sample's engineer worked by hand "
        "from the ESD (its defaults, Eqns 3-1 and 3-2, the loss fractions of the User-Defined Loss "
        "Rate Model) have none.",
        "",
        "Where no document prints ChemSTEER's figure, *ChemSTEER v3.2* gives the figure of the engine's "
        "ChemSTEER v3.2 mode (`assessments/esd/chemsteer_v32.py`: the same run with v3.2's own value of "
        "each default below that the run leaves at this engine's), marked \"v3.2 mode\" with the defaults "
        "that move it, wherever they move the engine's figure and the model that computes it in that "
        "mode is one ChemSTEER v3.2 holds (`--json`: `chemsteer_v3_2_source`, "
        "`chemsteer_v3_2_differences`, `chemsteer_v3_2_note`). A figure a document prints of a model's "
        "own table (the 2010 ESD's Table B-8) keeps the document's arguments. The defaults where "
        "ChemSTEER v3.2 differs from this engine:",
        "",
        *(f"- **{d.name}** ({d.key}): this engine {_default_text(d.engine_value, d.units)}, {d.engine_source}; "
          f"ChemSTEER v3.2 {_default_text(d.v32_value, d.units)}, {d.v32_source}." for d in chemsteer_v32.DIFFERENCES),
        "",
        "No difference to declare: " + "; ".join(f"{kind.lower()}, {why}" for kind, why in chemsteer_v32.NO_DIFFERENCE)
        + ".",
        "",
        f"**{counts_text(rows)}** {len(models)} models.",
        "",
        "## Models",
        "",
        *_table(("model", "figures", "agree", "ChemSTEER v3.2 figures"), (
            (model, str(len(mine)), str(sum(r.agrees for r in mine)),
             str(sum(r.chemsteer_v3_2 is not None for r in mine)))
            for model in models for mine in [[r for r in rows if r.model == model]])),
    ]
    for document, _ in documents():
        mine = [row for row in rows if row.document == document.name]
        if not mine:
            continue
        out += ["", f"## {document.name}", "", f"{document.title}. {counts_text(mine)}", ""]
        out += _table(_COLUMNS, (
            (row.model, row.source, row.printed, engine_text(row.engine), v32_cell(row),
             "yes" if row.agrees else "no", row.tolerance, row.note or _NONE)
            for row in mine))
    return "\n".join(out) + "\n"


def _default_text(value: float | str, units: str) -> str:
    """A declared default as the record prints it: a number with its units, a choice by its key.

    >>> _default_text(1070.0, "cm²"), _default_text("chemsteer", "")
    ('1,070 cm²', '`chemsteer`')
    """
    return f"{engine_text(value)} {units}".strip() if isinstance(value, (int, float)) else f"`{value}`"


def v32_cell(row: ConformanceRow) -> str:
    """The record's ChemSTEER v3.2 cell: the figure, marked with the v3.2 defaults that move it
    when the v3.2 mode computed it; :data:`_NONE` for none.

    >>> v32_cell(ConformanceRow("m", "s", "1", 1, "1.2", True, "t", "", "d", V32_MODE, ("body-weight",)))
    '1.2 (v3.2 mode: body-weight)'
    """
    if row.chemsteer_v3_2 is None:
        return _NONE
    if row.chemsteer_v3_2_source != V32_MODE:
        return row.chemsteer_v3_2
    return f"{row.chemsteer_v3_2} (v3.2 mode: {', '.join(row.chemsteer_v3_2_differences)})"


def conformance_digest(text: str) -> str:
    """The SHA-256 of the record's text (UTF-8), in hex: what a report cites.

    >>> conformance_digest("")
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


__all__ = [
    "CHEMSTEER_SAMPLES",
    "CHEMSTEER_USE_MODEL",
    "CHEMSTEER_V3_2_MODELS",
    "ADDED_FIELDS",
    "CONTRACT_FIELDS",
    "PRINTED",
    "V32_MODE",
    "STANDARD_MODELS",
    "ConformanceRow",
    "conformance_digest",
    "conformance_json",
    "conformance_markdown",
    "conformance_rows",
    "counts_text",
    "difference_note",
    "engine_text",
    "in_v32_mode",
    "tolerance",
    "v32_cell",
    "v32_figure",
]
