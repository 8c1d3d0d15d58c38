"""``manage.py esd``: the calculation engine's command line (shared spec INTERFACE.md).

    python manage.py esd list                     # JSON array of the scenarios
    python manage.py esd defaults KEY             # JSON: every input of KEY with its default
    python manage.py esd compute KEY [FILE|-]     # JSON inputs in (file or stdin), results out
    python manage.py esd sensitivity KEY [FILE|-] # the same inputs (+ "samples", "seed"), sensitivity out
    python manage.py esd verify [--json]          # the documents' worked examples, recomputed
    python manage.py esd impact [--override KEY.INPUT=VALUE ...] [--against REF] [--json]  # what a change moves
    python manage.py esd conformance [--json]     # the conformance record (docs/conformance.md)

For list, defaults, compute and sensitivity only JSON goes to stdout. Any bad input (unknown scenario or
symbol, a value out of range, a string where a number belongs, malformed or non-object
JSON, an unreadable file, bad arguments) writes ``{"errors": {SYMBOL or "__all__":
message}}`` to stderr and exits with status 2; nothing escapes as a traceback. The engine
needs no database (``impact`` alone reads it), so the command skips Django's system and
migration checks.

``verify`` (INTERFACE.md, "Additions, version 2", "Self-verification") prints the engine's
validation table (:mod:`assessments.esd.verification`): one row a figure printed in the
documents' worked examples, as a table with a closing count on stdout, or with ``--json``
as a JSON array on stdout and the count on stderr. It exits 0 when every figure that
differs has a note, else 1 with the unexplained rows on stderr; bad arguments exit 2 as
above. It takes no KEY.

``sensitivity`` (INTERFACE.md, "Additions, version 3", "Sensitivity") reads what ``compute``
reads, plus the optional keys ``"samples"`` (the band's samples, default 0: no band) and
``"seed"`` (default 1), and prints :func:`assessments.esd.sensitivity.analyse`'s JSON. Bad
inputs give exactly ``compute``'s errors (and a bad ``samples`` or ``seed`` its own).

``impact`` (INTERFACE.md, "Additions, version 4", "Impact of a change") parses the
``--override`` and ``--against`` options (:mod:`assessments.impact_engines`) and prints :func:`assessments.impact.impact`'s rows: every assessment
whose stored numbers move with the change, as the contract's JSON with ``--json``, else as a
table with a closing count. It takes no KEY; a bad override exits 2 with its errors under
``"--override"``, a REF that is neither an engine version nor a git ref under ``"--against"``. All the logic is :mod:`assessments.impact`'s; this only reads and prints.

``conformance`` (INTERFACE.md, "Additions, version 4", "Conformance") prints the conformance
record (:mod:`assessments.esd.verification.conformance`): the markdown table checked in as
``docs/conformance.md`` (byte for byte: ``esd conformance > docs/conformance.md`` writes it
again), or with ``--json`` its rows as the contract's JSON array. It takes no KEY and exits 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser, DjangoHelpFormatter

from assessments import impact
from assessments.esd import registry, verification
from assessments.esd.contract import INTERNAL, STDIN, defaults_payload, json_words, read_inputs, sensitivity_payload
from assessments.esd.parameters import ALL, EngineValidationError
from assessments.esd.verification import conformance
from assessments.impact_engines import parse_against
from assessments.numbers import signed_percent, significant

LIST, DEFAULTS, COMPUTE, SENSITIVITY, VERIFY, IMPACT = "list", "defaults", "compute", "sensitivity", "verify", "impact"
CONFORMANCE = "conformance"
#: The actions of the JSON contract (INTERFACE.md's first section): JSON on stdout, exit 0
#: or 2. ``verify`` and ``impact`` are apart: they print a table by default (``verify``
#: exits 1 on a difference no note explains; ``impact`` reads the database).
ACTIONS = (LIST, DEFAULTS, COMPUTE, SENSITIVITY)
#: The actions that read JSON inputs (FILE, or stdin).
READING = (COMPUTE, SENSITIVITY)
EXIT_BAD_INPUT = 2
EXIT_UNEXPLAINED = 1

HELP = """The calculation engine's command line; JSON on stdout (verify: a table unless --json),
errors as JSON on stderr (exit 2).

  esd list
      [{"key", "title", "source"}, ...]
  esd defaults KEY
      {"scenario", "title", "source",
       "inputs": {SYMBOL: {"default", "required", "label", "units", "source", "step",
                           "allowed", "lower", "upper" | "choices", "from_case"?,
                           "share"? ("fraction": 0 to 1, or "percent": 0 to 100)}, ...},
       "steps": [{"key", "title", "help"}], "presets": [{"key", "label", "values", "source"}]}
      "default" is null for an input with no default (required, or computed when left out).
  esd compute KEY [FILE|-]
      reads one JSON object {SYMBOL: value} from FILE, or from stdin when FILE is "-" or
      left out; prints the result: scenario, engine_version, inputs, facility, releases,
      exposures, warnings, trace, notes, default_set, process, facts, totals_by_medium,
      mass_balance {used_kg_yr, released_kg_yr, consumed_kg_yr, difference_kg_yr, basis,
      allowance_kg_yr, allowance_basis, rounding_limit_kg_yr, over_release_kg_yr,
      over_release_warning, over_release_inputs} (the last four added by issue 26: the
      warning, "" when none, that the releases exceed the use beyond whole-container rounding).
  esd sensitivity KEY [FILE|-]
      reads compute's JSON inputs, plus "samples" (default 0) and "seed" (default 1) for the
      Monte Carlo band; prints {"scenario", "engine_version", "outputs": [{"id", "estimate",
      "quantity", "label", "base", "drivers": [{"input", "low", "high", "source",
      "output_at_low", "output_at_high"}], "overrides": [{"input", "value", "default",
      "output_at_default"}], "band"?: {"samples", "seed", "p5", "p50", "p95"}}]}.
  esd verify [--json]
      runs every worked example of the documents through the engine (no KEY): one row a
      printed figure, {"document", "section", "quantity", "printed", "computed", "match",
      "note", "remark", "method", "error"}; "match" is true when the engine's number equals
      the printed figure at the printed precision, "note" the document's reason where it
      does not. A table and a closing count on stdout; with --json a JSON array on stdout
      and the count on stderr. Exit status 0 when every figure that differs has a note,
      1 otherwise (the unexplained rows on stderr).
  esd impact [--override KEY.INPUT=VALUE ...] [--against REF] [--json]
      compares the stored results of every assessment with the engine as changed: each
      override is a changed default, KEY.INPUT=VALUE (e.g. photoresist-2018.Fcontainer_disp=0.01;
      several after one --override, or --override repeated), VALUE read and checked as the
      wizard reads it. It applies to every use of scenario KEY whose stored inputs leave INPUT
      at its default (not given, or equal to it); an input the reviewer set keeps the
      reviewer's value. Lists every assessment (case, revision) with an output that moves
      (the outputs of sensitivity), newest revision first: {"engine_version", "change":
      {"overrides": [{"scenario", "input", "value"}]}, "cases": [{"case", "revision",
      "status", "action" ("recompute"; "note only" for an approved revision, whose sealed
      record never changes), "moves": [{"use", "id", "route", "estimate", "new_estimate",
      "quantity", "old", "new", "relative", "threshold"}], "refused": [{"use", "errors"}]}]}.
      "new" is compute's figure for the use's stored inputs with the change; "threshold" is
      null or says the move crosses a review threshold: "rank changed" (the estimate's place
      among its use's releases, or exposures, by that quantity), "now above ..." or
      "no longer above the TLV/PEL ..." (the case's exposure limit). "refused": the uses whose
      stored inputs the engine now refuses, with its errors. A table without --json.
      --against REF: an engine version (e.g. 1.1.0) compares only the results that release
      stored with the installed engine; "older" every result an earlier release stored; any
      other REF is a git ref of this repository (setting ENGINE_REPOSITORY) whose engine
      computes the new figures. "change" then has "against" (REF) and "stored_by" (the
      version, "older", or null).
  esd conformance [--json]
      the conformance record: one row a model and worked-example figure, {"model", "source",
      "printed", "engine", "chemsteer_v3_2", "agrees", "tolerance", "note"}; the markdown
      table checked in as docs/conformance.md (esd conformance > docs/conformance.md), or
      with --json the rows. No KEY; exit status 0.
      Nothing is written. A bad override exits 2: {"errors": {"--override": "..."}}; a bad
      REF {"errors": {"--against": "..."}}.
Errors: {"errors": {"SYMBOL" or "__all__": "message"}} on stderr, exit status 2.
"""

USAGE = ("usage: esd list | esd defaults KEY | esd compute KEY [FILE|-] | esd sensitivity KEY [FILE|-] | "
         "esd verify [--json] | esd impact [--override KEY.INPUT=VALUE ...] [--against REF] [--json] | "
         "esd conformance [--json]")
NEEDS_KEY = "{action} needs a scenario KEY; " + USAGE
UNKNOWN_ACTION = "unknown action {action!r}; " + USAGE
EXTRA_ARGUMENT = "unexpected argument {argument!r}; " + USAGE
JSON_NOT_HERE = "--json is an option of verify, impact and conformance only; " + USAGE
OVERRIDE_NOT_HERE = "--override is an option of impact only; " + USAGE
AGAINST_NOT_HERE = "--against is an option of impact only; " + USAGE
IMPACT_FAILED = "the impact could not be worked out ({kind}: {reason}); nothing was written"
CONFORMANCE_FAILED = "the conformance record could not be drawn ({kind}: {reason})"
#: The columns of ``impact``'s table; a use the engine refuses has a row of its own.
IMPACT_HEADINGS = ("case", "revision", "status", "action", "use", "output", "estimate", "quantity", "old", "new",
                   "relative", "threshold")
NO_CHANGE = "none (the engine as it is)"
AGAINST_REF = "the engine of {ref}"
AGAINST_STORED = "the results stored by engine {version} against this one"
IMPACT_CHANGE = "Change: {change}; engine {version}."
NOTHING_MOVES = "No assessment's numbers move."
IMPACT_COUNT = ("{revisions} revision(s) of {cases} case(s) listed: {recompute} to recompute, {noted} approved "
                "(note only).")
REFUSED_ROW = "refused by the engine: {errors}"
#: Significant figures of the table's numbers (the JSON's are full precision).
IMPACT_DIGITS = 6
VERIFY_FAILED = "the validation table could not be built ({kind}: {reason})"
UNEXPLAINED = "{count} printed figure(s) differ from the engine with no note to explain them:"


class _HelpFormatter(DjangoHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Django's argument order, with the description's layout kept."""


class Command(BaseCommand):
    help = HELP
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    #: Lets tests pass a stream as standard input through call_command(stdin=...).
    stealth_options = ("stdin",)

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.error = self._argument_error  # type: ignore[method-assign]  # the contract's exit 2 and words
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", nargs="?",
                            help="list, defaults, compute, sensitivity, verify, impact or conformance")
        parser.add_argument("key", nargs="?", help="scenario key, e.g. photoresist-2010")
        parser.add_argument("source", nargs="?", help='JSON inputs file, or "-" (the default) for stdin')
        parser.add_argument("extra", nargs="*", help="(not accepted)")
        parser.add_argument("--indent", type=int, default=2, help="JSON indent (default 2; 0 for one line)")
        parser.add_argument("--json", action="store_true",
                            help="verify, impact and conformance: JSON instead of the table (verify and "
                            "conformance: a JSON array)")
        parser.add_argument("--against", metavar="REF",
                            help="impact: the other release: an engine version (the stored results it computed, "
                            "against the installed engine), older (every earlier version's), or a git ref (that "
                            "commit's engine against every stored result)")
        parser.add_argument("--override", action="extend", nargs="+", default=[], metavar="KEY.INPUT=VALUE",
                            help="impact: a changed default of scenario KEY's input INPUT; it applies to every use "
                            "that leaves INPUT at its default (an input the reviewer set keeps the reviewer's "
                            "value); repeatable")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == VERIFY:
            self._verify(options)
            return
        if options["action"] == IMPACT:
            self._impact(options)
            return
        if options["action"] == CONFORMANCE:
            self._conformance(options)
            return
        try:
            payload = self._dispatch(options)
            indent = options["indent"] if options["indent"] > 0 else None
            text = json.dumps(payload, indent=indent, allow_nan=False)
        except EngineValidationError as exc:
            self._fail(exc.errors)
        except SystemExit:
            raise
        except Exception as exc:  # never a traceback: the contract promises JSON
            self._fail({ALL: INTERNAL.format(kind=type(exc).__name__, reason=exc)})
        self.stdout.write(text)

    # --- actions -------------------------------------------------------------------------

    def _dispatch(self, options: dict[str, Any]) -> Any:
        action, key, source, extra = options["action"], options["key"], options["source"], options["extra"]
        if action not in ACTIONS:
            raise EngineValidationError({ALL: UNKNOWN_ACTION.format(action=action) if action else USAGE})
        if options.get("json"):
            raise EngineValidationError({ALL: JSON_NOT_HERE})
        if options.get("override"):
            raise EngineValidationError({ALL: OVERRIDE_NOT_HERE})
        if options.get("against") is not None:
            raise EngineValidationError({ALL: AGAINST_NOT_HERE})
        unexpected = extra or ([source] if action not in READING and source is not None else [])
        if action == LIST and key is not None:
            unexpected = [key, *unexpected]
        if unexpected:
            raise EngineValidationError({ALL: EXTRA_ARGUMENT.format(argument=unexpected[0])})
        if action == LIST:
            return [{"key": s.key, "title": s.title, "source": s.source} for s in registry.scenarios()]
        if key is None:
            raise EngineValidationError({ALL: NEEDS_KEY.format(action=action)})
        if action == DEFAULTS:
            return defaults_payload(registry.get(key))
        scenario = registry.get(key)
        inputs = read_inputs(source or STDIN, options.get("stdin") or sys.stdin)
        if action == SENSITIVITY:
            return sensitivity_payload(scenario, inputs)
        try:
            return scenario.compute(inputs).as_dict()
        except EngineValidationError as exc:
            raise EngineValidationError(json_words(scenario, exc.errors)) from exc

    def _verify(self, options: dict[str, Any]) -> None:
        """The validation table: a text table or a JSON array on stdout, the count on stdout
        (table) or stderr (JSON); exit 1 when a figure that differs has no note."""
        self._no_arguments(options)
        self._impact_options_refused(options)
        try:
            table = verification.validation()
            rows, summary = table.rows, table.summary
            if options["json"]:
                indent = options["indent"] if options["indent"] > 0 else None
                text = json.dumps([row.as_dict() for row in rows], indent=indent, allow_nan=False)
            else:
                text = verification_table_text(rows) + "\n\n" + summary.text
        except Exception as exc:  # never a traceback
            self._fail({ALL: VERIFY_FAILED.format(kind=type(exc).__name__, reason=exc)})
        self.stdout.write(text)
        if options["json"]:
            self.stderr.write(summary.text, style_func=lambda text: text)
        unexplained = [row for row in rows if not row.explained]
        if unexplained:
            lines = [UNEXPLAINED.format(count=len(unexplained))]
            lines += [f"  {row.document}, {row.section}: {row.quantity}: printed {row.printed}, engine "
                      f"{computed_text(row)}" + (f" ({row.error})" if row.error else "") for row in unexplained]
            self.stderr.write("\n".join(lines), style_func=lambda text: text)
            raise SystemExit(EXIT_UNEXPLAINED)

    def _impact(self, options: dict[str, Any]) -> None:
        """Every assessment whose numbers move with the change: the contract's JSON with
        ``--json``, else a table and a closing count; exit 0, or 2 on a bad override."""
        self._no_arguments(options)
        try:
            overrides = impact.parse_overrides(options["override"])
            found = impact.impact(overrides=overrides, against=parse_against(options["against"]))
            if options["json"]:
                indent = options["indent"] if options["indent"] > 0 else None
                text = json.dumps(found.as_dict(), indent=indent, allow_nan=False)
            else:
                text = impact_table_text(found)
        except EngineValidationError as exc:
            self._fail(exc.errors)
        except Exception as exc:  # never a traceback
            self._fail({ALL: IMPACT_FAILED.format(kind=type(exc).__name__, reason=exc)})
        self.stdout.write(text)

    def _conformance(self, options: dict[str, Any]) -> None:
        """The conformance record: docs/conformance.md's markdown, or its rows as JSON."""
        self._no_arguments(options)
        self._impact_options_refused(options)
        try:
            rows = conformance.conformance_rows()
            if options["json"]:
                indent = options["indent"] if options["indent"] > 0 else None
                text = json.dumps(conformance.conformance_json(rows), indent=indent, allow_nan=False)
            else:
                text = conformance.conformance_markdown(rows)
        except Exception as exc:  # never a traceback
            self._fail({ALL: CONFORMANCE_FAILED.format(kind=type(exc).__name__, reason=exc)})
        self.stdout.write(text, ending="" if not options["json"] else "\n")

    def _impact_options_refused(self, options: dict[str, Any]) -> None:
        """Refuse impact's options after another action."""
        if options["override"]:
            self._fail({ALL: OVERRIDE_NOT_HERE})
        if options["against"] is not None:
            self._fail({ALL: AGAINST_NOT_HERE})

    def _no_arguments(self, options: dict[str, Any]) -> None:
        """Refuse a KEY, FILE or more after an action that takes none."""
        unexpected = [a for a in (options["key"], options["source"], *options["extra"]) if a is not None]
        if unexpected:
            self._fail({ALL: EXTRA_ARGUMENT.format(argument=unexpected[0])})

    # --- errors --------------------------------------------------------------------------

    def _fail(self, errors: dict[str, str]) -> NoReturn:
        self.stderr.write(json.dumps({"errors": errors}, indent=2), style_func=lambda text: text)
        raise SystemExit(EXIT_BAD_INPUT)

    def _argument_error(self, message: str) -> NoReturn:
        self._fail({ALL: f"{message}; {USAGE}"})


def computed_text(row: verification.Row) -> str:
    """The engine's number in the table, as the Method validation page prints it.

    >>> computed_text(verification.Row("d", "s", "q", "5.84 × 10⁻⁵", 5.8450543e-05, False, "", "", "m"))
    '5.84505E-5'
    """
    if row.computed is None or isinstance(row.computed, bool):
        return verification.UNCOMPUTED_TEXT
    return significant(row.computed, verification.COMPUTED_DIGITS)


#: The text table's columns: (heading, the row's text).
TABLE_COLUMNS: tuple[tuple[str, Callable[[verification.Row], str]], ...] = (
    ("document", lambda row: row.document),
    ("section", lambda row: row.section),
    ("quantity", lambda row: row.quantity),
    ("printed", lambda row: row.printed),
    ("computed", lambda row: computed_text(row)),
    ("match", lambda row: "yes" if row.match else "NO"),
    ("note", lambda row: row.note or ("" if row.match else " ".join(["(no note)", row.error]).rstrip())),
)


def verification_table_text(rows: Sequence[verification.Row]) -> str:
    """The rows as a plain-text table: one line a figure, columns padded, the note last."""
    cells = [[text(row) for _, text in TABLE_COLUMNS] for row in rows]
    headings = [heading for heading, _ in TABLE_COLUMNS]
    widths = [max(len(line[i]) for line in [headings, *cells]) for i in range(len(headings) - 1)]

    def line(values: list[str]) -> str:
        padded = [value.ljust(width) for value, width in zip(values, widths)]
        return "  ".join([*padded, values[-1]]).rstrip()

    rule = "  ".join("-" * width for width in widths) + "  ----"
    return "\n".join([line(headings), rule, *(line(values) for values in cells)])


# --- impact's table ---------------------------------------------------------------------------


def _change_text(found: impact.Impact) -> str:
    """The change as typed: ``photoresist-2018.Fcontainer_disp=0.01``, several joined by commas."""
    texts = [f"{o.scenario}.{o.input}={o.value}" for o in found.overrides]
    if found.against.ref:
        texts.append(AGAINST_REF.format(ref=found.against.ref))
    elif found.against.stored_by:
        texts.append(AGAINST_STORED.format(version=found.against.stored_by))
    return ", ".join(texts) or NO_CHANGE


def _relative_text(relative: float | None) -> str:
    """A relative move as a signed percentage (``+67.3 %``); ``—`` where there is none."""
    return signed_percent(relative)


def _move_cells(move: impact.Move) -> list[str]:
    estimate = move.estimate if move.new_estimate in (None, move.estimate) else f"{move.estimate} → {move.new_estimate}"
    output = f"{move.id} {move.route}" if move.route else move.id
    return [str(move.use), output, estimate, move.quantity, significant(move.old, IMPACT_DIGITS),
            significant(move.new, IMPACT_DIGITS), _relative_text(move.relative), move.threshold or ""]


def impact_table_text(found: impact.Impact) -> str:
    """``esd impact``'s rows as a plain-text table: the change, one line a move (or a use the
    engine refuses), columns padded, the threshold last; then the count."""
    head = IMPACT_CHANGE.format(change=_change_text(found), version=found.engine_version)
    if not found.cases:
        return f"{head}\n{NOTHING_MOVES}"
    cells = []
    for case in found.cases:
        first = [case.case, str(case.revision), case.status, case.action]
        cells += [first + _move_cells(move) for move in case.moves]
        cells += [first + [str(r.use), "", "", "", "", "", "", REFUSED_ROW.format(
            errors="; ".join(f"{k}: {v}" if k != ALL else v for k, v in r.errors.items()))] for r in case.refused]
    widths = [max(len(line[i]) for line in [list(IMPACT_HEADINGS), *cells]) for i in range(len(IMPACT_HEADINGS) - 1)]

    def line(values: Sequence[str]) -> str:
        return "  ".join([*(value.ljust(width) for value, width in zip(values, widths)), values[-1]]).rstrip()

    rule = "  ".join("-" * width for width in widths) + "  ---------"
    noted = sum(case.action == impact.NOTE_ONLY for case in found.cases)
    count = IMPACT_COUNT.format(revisions=len(found.cases), cases=len({case.case for case in found.cases}),
                                recompute=len(found.cases) - noted, noted=noted)
    return "\n".join([head, "", line(IMPACT_HEADINGS), rule, *(line(values) for values in cells), "", count])
