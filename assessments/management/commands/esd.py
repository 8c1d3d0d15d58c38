"""``manage.py esd``: the calculation engine's command line (shared spec INTERFACE.md).

    python manage.py esd list                     # JSON array of the scenarios
    python manage.py esd defaults KEY             # JSON: every input of KEY with its default
    python manage.py esd compute KEY [FILE|-]     # JSON inputs in (file or stdin), results out

Only JSON goes to stdout. Any bad input (unknown scenario or symbol, a value out of range,
a string where a number belongs, malformed or non-object JSON, an unreadable file, bad
arguments) writes ``{"errors": {SYMBOL or "__all__": message}}`` to stderr and exits with
status 2; nothing escapes as a traceback. The engine needs no database, so the command
skips Django's system and migration checks.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn, TextIO

from django.core.management.base import BaseCommand, CommandParser, DjangoHelpFormatter

from assessments.esd import registry
from assessments.esd.parameters import ALL, EngineValidationError

LIST, DEFAULTS, COMPUTE = "list", "defaults", "compute"
ACTIONS = (LIST, DEFAULTS, COMPUTE)
STDIN = "-"
EXIT_BAD_INPUT = 2

HELP = """The calculation engine's command line; JSON on stdout, errors as JSON on stderr (exit 2).

  esd list
      [{"key", "title", "source"}, ...]
  esd defaults KEY
      {"scenario", "title", "source",
       "inputs": {SYMBOL: {"default", "required", "label", "units", "source", "step",
                           "allowed", "lower", "upper" | "choices", "from_case"?}, ...},
       "steps": [{"key", "title", "help"}], "presets": [{"key", "label", "values", "source"}]}
      "default" is null for an input with no default (required, or computed when left out).
  esd compute KEY [FILE|-]
      reads one JSON object {SYMBOL: value} from FILE, or from stdin when FILE is "-" or
      left out; prints the result: scenario, engine_version, inputs, facility, releases,
      exposures, warnings, trace, notes, default_set, process, facts, totals_by_medium,
      mass_balance {used_kg_yr, released_kg_yr, consumed_kg_yr, difference_kg_yr, basis,
      allowance_kg_yr, allowance_basis}.
Errors: {"errors": {"SYMBOL" or "__all__": "message"}} on stderr, exit status 2.
"""

USAGE = "usage: esd list | esd defaults KEY | esd compute KEY [FILE|-]"
NEEDS_KEY = "{action} needs a scenario KEY; " + USAGE
UNKNOWN_ACTION = "unknown action {action!r}; " + USAGE
EXTRA_ARGUMENT = "unexpected argument {argument!r}; " + USAGE
UNREADABLE = "cannot read the inputs from {source}: {reason}"
MALFORMED = "malformed JSON in {source}: {reason}"
EMPTY = "no JSON in {source}: expected one object of {{symbol: value}}"
NOT_AN_OBJECT = "the inputs must be one JSON object of {{symbol: value}}, not a JSON {kind}"
INTERNAL = "the engine failed on these inputs ({kind}: {reason}); nothing was computed"


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
        parser.error = self._argument_error  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", nargs="?", help="list, defaults or compute")
        parser.add_argument("key", nargs="?", help="scenario key, e.g. photoresist-2010")
        parser.add_argument("source", nargs="?", help='JSON inputs file, or "-" (the default) for stdin')
        parser.add_argument("extra", nargs="*", help="(not accepted)")
        parser.add_argument("--indent", type=int, default=2, help="JSON indent (default 2; 0 for one line)")

    def handle(self, *args: Any, **options: Any) -> None:
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
        unexpected = extra or ([source] if action != COMPUTE and source is not None else [])
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
        return scenario.compute(inputs).as_dict()

    # --- errors --------------------------------------------------------------------------

    def _fail(self, errors: dict[str, str]) -> NoReturn:
        self.stderr.write(json.dumps({"errors": errors}, indent=2), style_func=lambda text: text)
        raise SystemExit(EXIT_BAD_INPUT)

    def _argument_error(self, message: str) -> NoReturn:
        self._fail({ALL: f"{message}; {USAGE}"})


def defaults_payload(scenario: registry.Scenario) -> dict[str, Any]:
    """Every input of the scenario with its default, label, units, source, step and bounds."""
    return {
        "scenario": scenario.key,
        "title": scenario.title,
        "source": scenario.source,
        "inputs": {p.symbol: p.as_dict() for p in scenario.params.params},
        "steps": [{"key": s.key, "title": s.title, "help": s.help} for s in scenario.params.steps],
        "presets": [{"key": p.key, "label": p.label, "values": dict(p.values), "source": p.source}
                    for p in scenario.presets],
    }


def read_inputs(source: str, stdin: TextIO) -> Any:
    """The JSON inputs from a file or stdin; bad files and bad JSON become validation errors."""
    name = "standard input" if source == STDIN else source
    try:
        if source == STDIN:
            text = stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise EngineValidationError({ALL: UNREADABLE.format(source=name, reason=getattr(exc, "strerror", None) or exc)})
    if not text.strip():
        raise EngineValidationError({ALL: EMPTY.format(source=name)})
    try:
        inputs = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EngineValidationError(
            {ALL: MALFORMED.format(source=name, reason=f"{exc.msg} at line {exc.lineno}, column {exc.colno}")})
    except (ValueError, RecursionError) as exc:  # a 5,000-digit integer; arrays nested 100,000 deep
        raise EngineValidationError({ALL: MALFORMED.format(source=name, reason=str(exc) or "nested too deeply")})
    if not isinstance(inputs, dict):
        raise EngineValidationError({ALL: NOT_AN_OBJECT.format(kind=_json_kind(inputs))})
    return inputs


def _json_kind(value: Any) -> str:
    """The JSON name of a parsed value's type.

    >>> _json_kind([1]), _json_kind("x"), _json_kind(None), _json_kind(2.5)
    ('array', 'string', 'null', 'number')
    """
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "number"
