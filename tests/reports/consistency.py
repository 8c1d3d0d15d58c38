"""What a copy of the IRER may not say, read from its rendered text (issue 41): the rules of
the consistency property (``test_consistency_property.py``), over the text a reader gets
from the HTML, the PDF and the Word copy, full or sanitised. Because they read the text, a
new template line is held to them without a new test.

The rules:

- **No missing-value statement beside the value.** Where the header prints a property of
  the case (``VP: 1E-6 torr @ 20 °C``), nothing says it is missing ("no vapour pressure was
  given", an inputs row "Vapour pressure of the chemical  not given"). The properties and
  their labels are the header's (``reports.header.PROPERTY_LABELS``), their words the case
  fields' (``case_links.case_field_label``).
- **A printed name names one value** within a use (its section and its appendix parts). The
  names a use defines are those of its general facility estimates (``[3] Nsites = 2.56
  sites``) and of its calculation trace (``3. Nsites = ... → 2.56 sites``); any other
  ``NAME = [expression =] number`` of the same use that names one of them (a note, an
  input of a later step) must print the same value, to the precision printed. An equation's
  own argument named nowhere else (``with Qliquid_skin = 0.7``) is local to its step.
- **No empty slot**: no ``=`` or ``@`` without its value, no ``()``, no header field label
  (``OTHER USES:``, ``%<500:``) with nothing after it.
- **Counts agree**: the total of workers exposed via the assessed routes is the workers per
  site times the sites its basis names, and where it is 0 no sentence says workers are exposed.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from assessments.case_links import case_field_label
from assessments.numbers import NOT_GIVEN
from assessments.reports.header import PROPERTY_LABELS

#: How the report says a value is missing (``numbers.NOT_GIVEN``).
MISSING = re.escape(NOT_GIVEN)
#: A printed number: thousands separators, decimals, E-notation, a percent sign.
NUMBER = r"[-−]?\d[\d,]*(?:\.\d+)?(?:E[+-]?\d+)?%?"
#: A printed name: a symbol, with what tells it apart in brackets (one level of brackets inside).
NAME = r"[A-Za-z][A-Za-z0-9_]*(?: \((?:[^()]|\([^()]*\))*\))?"
_OPERATOR_BEFORE = r"(?<![-−+×*/÷] )(?<! x )(?<![\w(])"
# NAME = NUMBER, or NAME = an expression = NUMBER (no "with", "→" or "=" in the expression).
# A number followed by an operator is a formula's constant (``Q_NF = 0.984 × FSA × v_NF``), not a value.
_NOT_AN_OPERAND = r"(?!\d|[,.]\d|E[+-]?\d|%)(?!\s*[×*/÷+^]|\s+[-−x]\s)"
BINDING = re.compile(rf"{_OPERATOR_BEFORE}({NAME}) = (?:({NUMBER}){_NOT_AN_OPERAND}"
                     rf"|(?:(?! with | → )[^=→;•\[\]]){{1,160}}? = ({NUMBER}){_NOT_AN_OPERAND})")
BASIS_ITEM = re.compile(rf"\[\d+\] ({NAME}) = ({NUMBER})(?!\d|[,.]\d|E[+-]?\d|%)")
TRACE_STEP = re.compile(rf"(?<![\w.,])\d+\. ({NAME}) = (?:(?!\s\d+\. [A-Za-z])[^→]){{0,1200}}?→ ({NUMBER})(?!\d|[,.]\d|E[+-]?\d|%)")
USE_MARK = re.compile(r"(?i)(?::\s*use (\d+)\b|\buse (\d+): )")

EMPTY_EQUALS = re.compile(r"=\s*(?=$|[)\],;])")
EMPTY_AT = re.compile(r"@(?!\s*[-−]?\d)")
EMPTY_BRACKETS = re.compile(r"\(\s*\)")
INLINE_LABEL = re.compile(r"(?<!\S)%<\d+:")

WORKERS_TOTAL = re.compile(r"Tot\. # of workers exposed via assessed routes: (\S+)")
WORKERS_BASIS = re.compile(r"Basis: (\d[\d,]*) workers? per site × (\d[\d,]*) sites?")
WORKERS_EXPOSED = re.compile(r"(\d[\d,]*) (?:distinct )?workers? per site (?:is|are) exposed")


@dataclass(frozen=True)
class Problem:
    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"


def flat(text: str) -> str:
    """``text`` as one line: every run of white space (line breaks of the PDF's layout, a
    soft hyphen's break) one space, so a statement broken across lines reads whole."""
    return re.sub(r"\s+", " ", text.replace("\u00ad", "")).strip()


def html_text(markup: str) -> str:
    """The text of an HTML copy, a space between elements (so ``<dt>MW:</dt><dd>200</dd>``
    reads ``MW: 200``); scripts and styles left out."""
    markup = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", markup)
    markup = re.sub(r"(?is)<ol\b[^>]*>.*?</ol>", _numbered, markup)
    return flat(html.unescape(re.sub(r"<[^>]+>", " ", markup)))


def _numbered(match: re.Match[str]) -> str:
    """An ordered list with its items' numbers in the text, as a reader sees them drawn."""
    count = iter(range(1, 100_000))
    return re.sub(r"(?i)<li\b[^>]*>", lambda _: f" {next(count)}. ", match.group(0))


def field_labels(markup: str) -> list[str]:
    """The header's field labels as the HTML copy prints them (``<dt>``)."""
    return [flat(html.unescape(re.sub(r"<[^>]+>", "", label))) for label in re.findall(r"(?s)<dt>(.*?)</dt>", markup)]


def number(text: str) -> float:
    """A printed number's value (``7%`` is 0.07)."""
    text = text.replace(",", "").replace("−", "-")
    return float(text[:-1]) / 100 if text.endswith("%") else float(text)


def agree(a: str, b: str) -> bool:
    """Two printed numbers name the same value: equal to the precision the less precise
    of them prints (``4.63`` and ``4.6``; not ``2.56`` and ``3``)."""
    x, y = number(a), number(b)
    return abs(x - y) <= max(_half_unit(a), _half_unit(b)) * 1.000001 + 1e-300


def _half_unit(text: str) -> float:
    """Half a unit of the last figure ``text`` stands for: the digits E-notation prints
    (``1.6E-1`` → 0.005: EPA's two figures), else three significant figures at least, as
    the report prints a figure without its trailing zeros (``3`` is 3.00 → 0.005, ``4.63``
    → 0.005, ``2,924`` → 0.5)."""
    raw = text.replace(",", "").replace("−", "-").rstrip("%")
    scale = 0.01 if text.endswith("%") else 1.0
    mantissa, _, exponent = raw.partition("E")
    decimals = len(mantissa.partition(".")[2])
    printed = 0.5 * 10 ** (-decimals + (int(exponent) if exponent else 0))
    value = abs(float(mantissa)) * 10 ** (int(exponent) if exponent else 0)
    if exponent or value == 0:
        return printed * scale
    return min(printed, 0.5 * 10 ** (math.floor(math.log10(value)) - 2)) * scale


def scopes(text: str) -> dict[int, str]:
    """The text of each use (its section and its appendix parts, joined), 0 for the rest."""
    parts: dict[int, list[str]] = {}
    at, use = 0, 0
    for mark in USE_MARK.finditer(text):
        parts.setdefault(use, []).append(text[at:mark.start()])
        use, at = int(mark.group(1) or mark.group(2)), mark.start()
    parts.setdefault(use, []).append(text[at:])
    return {u: " ".join(p) for u, p in parts.items()}


def problems(text: str, labels: Iterable[str] = ()) -> list[Problem]:
    """Every rule the copy's ``text`` breaks; ``labels``: the header's field labels
    (:func:`field_labels` of the HTML copy)."""
    text = flat(text)
    found = missing_beside_printed(text) + names_with_two_values(text) + empty_slots(text, labels)
    return found + counts_that_disagree(text)


def missing_beside_printed(text: str) -> list[Problem]:
    found = []
    for field, label in PROPERTY_LABELS.items():
        printed = re.search(rf"(?<!\S){re.escape(label)} (?!{MISSING})\S", text)
        if not printed:
            continue
        words = re.escape(case_field_label(field))
        for pattern in (rf"(?i)\bno {words} was given", rf"(?i)\b{words}\b[^.;:]{{0,60}}?\b{MISSING}"):
            found += [Problem("missing beside printed", f"{label} printed, and “{m.group(0)}”")
                      for m in re.finditer(pattern, text)]
    return found


def names_with_two_values(text: str) -> list[Problem]:
    found = []
    for use, part in scopes(text).items():
        defined: dict[str, list[str]] = {}
        for pattern in (BASIS_ITEM, TRACE_STEP):
            for m in pattern.finditer(part):
                defined.setdefault(m.group(1), []).append(m.group(2))
        seen = {name: list(values) for name, values in defined.items()}
        for m in BINDING.finditer(part):
            if m.group(1) in seen:
                seen[m.group(1)].append(m.group(2) or m.group(3))
        for name, values in seen.items():
            if any(not agree(values[0], v) for v in values[1:]):
                found.append(Problem("one name, two values", f"use {use}: {name} = {' and '.join(dict.fromkeys(values))}"))
    return found


def empty_slots(text: str, labels: Iterable[str]) -> list[Problem]:
    found = []
    for rule, pattern in (("empty “=”", EMPTY_EQUALS), ("empty “@”", EMPTY_AT), ("empty “()”", EMPTY_BRACKETS)):
        found += [Problem(rule, text[max(0, m.start() - 50):m.end() + 20]) for m in pattern.finditer(text)]
    label_list = sorted({label for label in labels if label.endswith(":")}, key=len, reverse=True)
    if label_list:
        any_label = "|".join(re.escape(label) for label in label_list) + r"|%<\d+:"
        for m in re.finditer(rf"(?<!\S)({any_label})\s*(?=$|(?:{any_label})(?:\s|$))", text):
            found.append(Problem("empty field", text[max(0, m.start() - 30):m.end() + 30]))
    else:
        found += [Problem("empty field", text[max(0, m.start() - 30):m.end() + 30])
                  for m in re.finditer(rf"{INLINE_LABEL.pattern}\s*(?=$|{INLINE_LABEL.pattern})", text)]
    return found


def counts_that_disagree(text: str) -> list[Problem]:
    found = []
    for use, part in scopes(text).items():
        total = WORKERS_TOTAL.search(part)
        if not total:
            continue
        value = total.group(1).rstrip(".")
        basis = WORKERS_BASIS.search(part, total.end())
        if basis and re.fullmatch(NUMBER, value) and number(value) != number(basis.group(1)) * number(basis.group(2)):
            found.append(Problem("counts disagree", f"use {use}: {total.group(0)} against {basis.group(0)}"))
        if value == "0":
            found += [Problem("counts disagree", f"use {use}: {total.group(0)} against “{m.group(0)}”")
                      for m in WORKERS_EXPOSED.finditer(part) if number(m.group(1)) > 0]
    return found
