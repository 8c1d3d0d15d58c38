"""The values a case's fields take: ChemSTEER's lists (case type, physical state, volume
qualifier, migration to groundwater, PBT scores, occupational exposure ratings), the
TLV/PEL rule, EPA's case numbers, the plausible dates of the review, and the reading of
text typed before a field became a choice (migration 0011 and the import of an older
case export)."""

from __future__ import annotations

import re
import sys
import unicodedata
from datetime import date

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.deconstruct import deconstructible

from ..esd.text import allowed_range

#: The largest finite double: the check constraints' upper bound on a positive quantity.
#: PostgreSQL orders NaN above every number (and Infinity above this), so ``x <= FINITE_MAX``
#: refuses both where ``x > 0`` alone lets them in.
FINITE_MAX = sys.float_info.max


@deconstructible
class NumberRange:
    """The values a case's number field may take, declared once: the field's validator
    (which the case form, the admin and the import all run, through ``full_clean``) and
    the database's check constraint (:meth:`condition`) both read it.

    >>> volume = NumberRange("The production volume", lower=0, lower_open=True, units="kg/yr")
    >>> volume.message
    'The production volume must be greater than 0 kg/yr.'
    >>> volume.contains(5000.0), volume.contains(0.0), volume.contains(float("nan")), volume.contains(float("inf"))
    (True, False, False, False)
    >>> NumberRange("% < 500 Da", lower=0, upper=100).message
    '% < 500 Da must be between 0 and 100.'
    """

    def __init__(self, subject: str, *, lower: float, upper: float | None = None, lower_open: bool = False,
                 units: str = "", hint: str = ""):
        self.subject, self.lower, self.upper, self.lower_open = subject, lower, upper, lower_open
        self.units, self.hint = units, hint

    @property
    def allowed(self) -> str:
        """The allowed range in words, with the units (``esd.text.allowed_range``); no upper
        bound is said where the only one is that the number be finite.

        >>> NumberRange("The vapour pressure temperature", lower=-273.15, lower_open=True, units="°C").allowed
        'greater than -273.15 °C'
        """
        units = f" {self.units}" if self.units else ""
        return f"{allowed_range(self.lower, self.upper, lower_open=self.lower_open)}{units}{self.hint}"

    @property
    def message(self) -> str:
        """The error, naming the allowed range (:attr:`allowed`)."""
        return f"{self.subject} must be {self.allowed}."

    def contains(self, value: float) -> bool:
        """``value`` is in the range (NaN is in none; infinity is above every range)."""
        above = value > self.lower if self.lower_open else value >= self.lower
        return above and value <= (FINITE_MAX if self.upper is None else self.upper)

    def __call__(self, value: float) -> None:
        if not self.contains(value):
            raise ValidationError(self.message, code="out_of_range")

    def condition(self, field: str, *, null: bool) -> Q:
        """The check constraint's condition on ``field`` (blank allowed when ``null``)."""
        lowest = "gt" if self.lower_open else "gte"
        upper = FINITE_MAX if self.upper is None else self.upper
        within = Q(**{f"{field}__{lowest}": self.lower}) & Q(**{f"{field}__lte": upper})
        return Q(**{f"{field}__isnull": True}) | within if null else within

    def _key(self) -> tuple[str, float, float | None, bool, str, str]:
        return self.subject, self.lower, self.upper, self.lower_open, self.units, self.hint

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NumberRange) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


#: Absolute zero [°C]: no temperature is below it (0 K; ITS-90 defines 0 K as -273.15 °C).
ABSOLUTE_ZERO_C = -273.15

# The case's number fields (Submission), each range once.
PRODUCTION_VOLUME = NumberRange("The production volume", lower=0, lower_open=True, units="kg/yr")
MOLECULAR_WEIGHT = NumberRange("The molecular weight", lower=0, lower_open=True, units="g/mol")
VAPOUR_PRESSURE = NumberRange("The vapour pressure", lower=0, units="torr")
WATER_SOLUBILITY = NumberRange("The water solubility", lower=0, units="g/L")
PCT_BELOW_500_DA = NumberRange("% < 500 Da", lower=0, upper=100)
PCT_BELOW_1000_DA = NumberRange("% < 1000 Da", lower=0, upper=100)
USE_CONCENTRATION = NumberRange("The concentration", lower=0, upper=1, lower_open=True,
                                hint=", as a fraction (0.15 for 15 %)")
VAPOUR_PRESSURE_TEMPERATURE = NumberRange("The vapour pressure temperature", lower=ABSOLUTE_ZERO_C, lower_open=True,
                                          units="°C", hint=" (absolute zero)")
WATER_SOLUBILITY_TEMPERATURE = NumberRange("The water solubility temperature", lower=ABSOLUTE_ZERO_C,
                                           lower_open=True, units="°C", hint=" (absolute zero)")
PCT_500_ABOVE_PCT_1000 = "% < 500 Da cannot exceed % < 1000 Da."
CASE_NUMBER_TAKEN = "A case with this case number already exists: {case_number}."


class CaseType(models.TextChoices):
    PMN = "PMN", "PMN (Premanufacture Notice)"
    LVE = "LVE", "LVE (Low Volume Exemption)"
    LOREX = "LoREX", "LoREX (Low Release and Exposure Exemption)"
    SNUN = "SNUN", "SNUN (Significant New Use Notice)"
    TMEA = "TMEA", "TMEA (Test Marketing Exemption Application)"


#: Each case type's number as EPA writes it: the letters before ``-YY-NNNN`` (YY the last two
#: digits of the year received, NNNN the sequence in that year, four digits with leading
#: zeros): P-18-0123 for a PMN, L- for an LVE, X- for a LoREX, SN- for a SNUN and T- for a
#: TMEA (EPA's monthly "Certain New Chemicals; Receipt and Status Information" notices in the
#: Federal Register number the cases so). Declared once: the model field's validator
#: (:class:`CaseNumberFormat`), ``Submission.clean()`` (the number agrees with the type) and
#: the messages read it.
CASE_NUMBER_PREFIXES: dict[str, str] = {
    CaseType.PMN: "P", CaseType.LVE: "L", CaseType.LOREX: "X", CaseType.SNUN: "SN", CaseType.TMEA: "T",
}
_CASE_NUMBER = re.compile(r"(?P<prefix>[A-Z]{1,2})-[0-9]{2}-[0-9]{4}")


def case_number_form(case_type: str) -> str:
    """A case type's number as a pattern and an example.

    >>> case_number_form("PMN"), case_number_form("SNUN")
    ('P-YY-NNNN (e.g. P-18-0123)', 'SN-YY-NNNN (e.g. SN-18-0123)')
    """
    prefix = CASE_NUMBER_PREFIXES[case_type]
    return f"{prefix}-YY-NNNN (e.g. {prefix}-18-0123)"


def _a(case_type: str) -> str:
    """The article before a case type's abbreviation, as it is said ("an L-V-E", "a PMN")."""
    return f"an {case_type}" if case_type == CaseType.LVE else f"a {case_type}"


CASE_NUMBER_INVALID = (
    "Enter the case number as EPA writes it: "
    + ", ".join(f"{prefix}-YY-NNNN for {_a(kind)}" for kind, prefix in CASE_NUMBER_PREFIXES.items())
    + " (YY the year, NNNN four digits), e.g. P-18-0123."
)
CASE_NUMBER_OTHER_TYPE = (
    "{number} is numbered as {other}: {case_type}'s case number is {form}. "
    "Change the number or the case type."
)


def case_number_type(number: str) -> str | None:
    """The case type whose pattern ``number`` matches (None: no type's).

    >>> case_number_type("P-18-0123"), case_number_type("SN-26-0004"), case_number_type("P-18-123")
    ('PMN', 'SNUN', None)
    >>> case_number_type("P-１８-0123"), case_number_type("Q-18-0123")
    (None, None)
    """
    match = _CASE_NUMBER.fullmatch(number or "")
    if match is None:
        return None
    return next((str(kind) for kind, prefix in CASE_NUMBER_PREFIXES.items() if prefix == match["prefix"]), None)


def case_number_error(number: str, case_type: str) -> str:
    """What is wrong with ``number`` for a case of ``case_type`` (``""``: nothing): no case
    type's pattern, or another type's.

    >>> case_number_error("P-18-0123", "PMN"), case_number_error("L-18-0123", "LVE")
    ('', '')
    >>> case_number_error("P-18-0123", "LVE")
    "P-18-0123 is numbered as a PMN: an LVE's case number is L-YY-NNNN (e.g. L-18-0123). Change the number or the case type."
    """
    kind = case_number_type(number)
    if kind is None:
        return CASE_NUMBER_INVALID
    if case_type in CASE_NUMBER_PREFIXES and kind != case_type:
        return CASE_NUMBER_OTHER_TYPE.format(
            number=number, other=_a(kind), case_type=_a(case_type), form=case_number_form(case_type))
    return ""


@deconstructible
class CaseNumberFormat:
    """The case number field's validator: one of the case types' patterns
    (:data:`CASE_NUMBER_PREFIXES`), checked on the normalised number
    (:func:`normalise_case_number`), so the case form, the admin, the import and every
    command refuse the same numbers with the same words (:data:`CASE_NUMBER_INVALID`).

    >>> CaseNumberFormat()("P-18-0123")
    >>> CaseNumberFormat()("anything")
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['Enter the case number as EPA writes it: P-YY-NNNN for a PMN, L-YY-NNNN for an LVE, X-YY-NNNN for a LoREX, SN-YY-NNNN for a SNUN, T-YY-NNNN for a TMEA (YY the year, NNNN four digits), e.g. P-18-0123.']
    """

    def __call__(self, value: str) -> None:
        if case_number_type(value) is None:
            raise ValidationError(CASE_NUMBER_INVALID, code="invalid_case_number")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CaseNumberFormat)

    def __hash__(self) -> int:
        return hash(CaseNumberFormat)


CASE_NUMBER_FORMAT = CaseNumberFormat()


#: The earliest date the review records (a notice's receipt, an assessment, a contact, a
#: suspension): TSCA, under which every notice is made, took effect on 1 January 1977
#: (Pub. L. 94-469, section 31); a date before it is a mistyped year (0001-01-01, 1926).
EARLIEST_DATE = date(1977, 1, 1)
#: How far ahead of today a date may be [years]. The furthest-ahead date the review records
#: is a due date or the planned last day of a suspension: a PMN's 90-day review period,
#: extended or suspended a year at a time at most, stays within a few years; ten years
#: admits every such date and refuses a mistyped year (2206, 20260).
YEARS_AHEAD = 10


def _years_after(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February, in a year that has none
        return day.replace(year=day.year + years, day=28)


@deconstructible
class DateRange:
    """The dates a field may hold, declared once for every date of the review: from
    :data:`EARLIEST_DATE` to :data:`YEARS_AHEAD` years after today. The field's validator
    (the forms, the admin and the import run it, through ``full_clean``); its error names
    the field and the range.

    >>> DateRange("The assessment date").message(date(2026, 3, 2))
    'The assessment date must be a date from 1977-01-01 (TSCA in force) to 2036-03-02 (ten years ahead).'
    >>> DateRange("The assessment date").contains(date(1, 1, 1), today=date(2026, 3, 2))
    False
    """

    def __init__(self, subject: str):
        self.subject = subject

    @staticmethod
    def latest(today: date | None = None) -> date:
        return _years_after(today or timezone.localdate(), YEARS_AHEAD)

    def contains(self, value: date, *, today: date | None = None) -> bool:
        return EARLIEST_DATE <= value <= self.latest(today)

    def message(self, today: date | None = None) -> str:
        return (f"{self.subject} must be a date from {EARLIEST_DATE.isoformat()} (TSCA in force) "
                f"to {self.latest(today).isoformat()} (ten years ahead).")

    def __call__(self, value: date) -> None:
        if not self.contains(value):
            raise ValidationError(self.message(), code="date_out_of_range")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DateRange) and self.subject == other.subject

    def __hash__(self) -> int:
        return hash((DateRange, self.subject))


ASSESSMENT_DATE = DateRange("The assessment date")


class PhysicalState(models.TextChoices):
    LIQUID = "liquid", "Liquid"
    SOLID = "solid", "Solid"
    GAS = "gas", "Gas"
    UNKNOWN = "unknown", "Unknown"


class ExposureLimitUnit(models.TextChoices):
    """The unit of a case's occupational exposure limit (TLV/PEL)."""

    MG_M3 = "mg/m3", "mg/m³"
    PPM = "ppm", "ppm"


class ExposureLimitKind(models.TextChoices):
    """What a case's TLV/PEL limits (spec/INTERFACE.md, "Additions, version 3"): the 8-hour
    time-weighted average (the default: a case entered before the kind existed meant it),
    the 15-minute short-term exposure limit, or a ceiling never to be exceeded. Each
    inhalation estimate is compared with the matching concentration
    (:mod:`assessments.exposure_limits`)."""

    TWA_8H = "twa_8h", "8-hour TWA"
    STEL_15MIN = "stel_15min", "STEL (15-minute)"
    CEILING = "ceiling", "Ceiling"


# The case's TLV/PEL (Submission.tlv_pel_value, tlv_pel_unit): what every way in says, from
# Submission.clean(), so the form, the admin and the import refuse the same things alike.
TLV_PEL_UNIT_MISSING = "The TLV/PEL value has no unit: choose mg/m³ or ppm, or clear the value."
TLV_PEL_VALUE_MISSING = "The TLV/PEL unit has no value: enter the value, or clear the unit."
TLV_PEL_VALUE_NOT_POSITIVE = "The TLV/PEL value must be a finite number greater than 0."
#: Said by the model field (so by the admin and the import, through ``full_clean``) and by the case form.
TLV_PEL_KIND_INVALID = "Choose the TLV/PEL's kind from the list: 8-hour TWA, STEL (15-minute) or Ceiling."
#: Its range (the check constraint's too); said with TLV_PEL_VALUE_NOT_POSITIVE by tlv_pel_errors.
TLV_PEL_VALUE = NumberRange("The TLV/PEL value", lower=0, lower_open=True)


class VolumeQualifier(models.TextChoices):
    """What the production volume is for, as ChemSTEER prints it after "PV (kg/yr):"."""

    MANUFACTURE = "manufacture", "Manufacture"
    IMPORT_ONLY = "import_only", "Import Only"
    MANUFACTURE_AND_IMPORT = "manufacture_and_import", "Manufacturing and Import"


class GroundwaterMigration(models.TextChoices):
    """The structure-activity team's migration to groundwater: ChemSTEER v3.2's fixed list,
    in its order; "Other" takes a text (``Submission.groundwater_migration_other``)."""

    NEGLIGIBLE = "negligible", "Negligible"
    NEGLIGIBLE_TO_SLOW = "negligible_to_slow", "Negligible to slow"
    SLOW = "slow", "Slow"
    SLOW_TO_MODERATE = "slow_to_moderate", "Slow to moderate"
    MODERATE = "moderate", "Moderate"
    MODERATE_TO_RAPID = "moderate_to_rapid", "Moderate to Rapid"
    RAPID = "rapid", "Rapid"
    OTHER = "other", "Other (please specify)"


GROUNDWATER_MIGRATION_CHOICES = [("", "Not given"), *GroundwaterMigration.choices]


#: ChemSTEER's scores for each of P, B and T (blank: not rated); printed together, "P2B1T".
PBT_SCORES = ("1", "1-2", "2", "2-3", "3")
PBT_CHOICES = [("", "Not rated"), *((score, score) for score in PBT_SCORES)]

#: ChemSTEER v3.2's occupational exposure ratings (blank: none chosen). Every value its
#: rule (``ChemStrX.SetOER``, :mod:`assessments.exposure_rating`) can give: a dose band
#: with a worker-count letter, "NR" or "0-1". The product derives the rating from the
#: results; a rating stored on the assessment is the reviewer's override of it.
OCCUPATIONAL_EXPOSURE_RATINGS = (
    "1A", "1-2A", "2A", "2-3A", "1B", "1-2B", "2B", "2-3B",
    "1C", "1-2C", "2C", "2-3C", "1D", "1-2D", "2D", "2-3D", "NR", "0-1",
)
OCCUPATIONAL_EXPOSURE_RATING_CHOICES = [("", "Not given"), *((r, r) for r in OCCUPATIONAL_EXPOSURE_RATINGS)]



class IrerStatus(models.TextChoices):
    """The status the IRER prints at its head, beside the assessment date: ChemSTEER v3.2's
    list (its ``ListOfAssStatus`` table, in its SortOrder). "Other" prints the reviewer's
    own words (``Assessment.irer_status_other``) after "Other: ", as ChemSTEER shows it
    (``DBFuncs``, the assessment's load: an AssStatusID above 900 reads
    ``"Other: " + StatusOther``)."""

    CONTRACTOR_DRAFT = "Contractor Draft", "Contractor Draft"
    CEB_STAFF_DRAFT = "CEB Staff Draft", "CEB Staff Draft"
    FOCUS_READY_DRAFT = "Focus Ready Draft", "Focus Ready Draft"
    STANDARD_REVIEW_DRAFT = "Standard Review Draft", "Standard Review Draft"
    POST_FOCUS_DRAFT_REVISION_1 = "Post-Focus Draft Revision 1", "Post-Focus Draft Revision 1"
    POST_FOCUS_DRAFT_REVISION_2 = "Post-Focus Draft Revision 2", "Post-Focus Draft Revision 2"
    POST_FOCUS_DRAFT_REVISION_3 = "Post-Focus Draft Revision 3", "Post-Focus Draft Revision 3"
    POST_FOCUS_DRAFT_REVISION_4 = "Post-Focus Draft Revision 4", "Post-Focus Draft Revision 4"
    POST_FOCUS_DRAFT_REVISION_5 = "Post-Focus Draft Revision 5", "Post-Focus Draft Revision 5"
    OTHER = "Other", "Other"


IRER_STATUS_OTHER_MISSING = "The IRER status is \"Other\": say what it is under \"Other IRER status\"."
IRER_STATUS_OTHER_NOT_OTHER = (
    "\"Other IRER status\" is only for the status \"Other\": choose Other, or clear this text."
)
RATING_REASON_MISSING = (
    "You chose an occupational exposure rating other than the one derived from the results ({derived}): "
    "give the reason for it."
)

GROUNDWATER_OTHER_MISSING = (
    "Migration to groundwater is \"Other\": say what it is under \"Other migration to groundwater\"."
)
GROUNDWATER_OTHER_NOT_OTHER = (
    "\"Other migration to groundwater\" is only for the choice \"Other (please specify)\": "
    "choose Other, or clear this text."
)
#: The line migration 0011 (and the import of an older case export) adds to an
#: assessment's notes when its rating was not one of ChemSTEER's.
RATING_MOVED_TO_NOTES = (
    "Occupational exposure rating as entered before the rating became a choice from ChemSTEER's list: {rating}"
)


def _dashes(text: str) -> str:
    return re.sub(r"\s*[\u2010-\u2015\u2212-]\s*", "-", text)


def parse_pbt_rating(text: str) -> tuple[str, str, str, str]:
    """A PBT rating written as ChemSTEER prints it (``P2B1T``) as its P, B and T scores
    and a note: ``(p, b, t, "")`` when it reads as one, ``("", "", "", text)`` otherwise,
    so nothing typed is lost.

    >>> parse_pbt_rating("P2B1T"), parse_pbt_rating(" p1-2 b2 t3 ")
    (('2', '1', '', ''), ('1-2', '2', '3', ''))
    >>> parse_pbt_rating(""), parse_pbt_rating("P4B1T1"), parse_pbt_rating("high")
    (('', '', '', ''), ('', '', '', 'P4B1T1'), ('', '', '', 'high'))
    """
    text = (text or "").strip()
    score = r"(1-2|2-3|1|2|3)?"
    match = re.fullmatch(rf"P\s*{score}\s*B\s*{score}\s*T\s*{score}", _dashes(text), re.IGNORECASE)
    if not text or match is None:
        return "", "", "", text
    p, b, t = (value or "" for value in match.groups())
    return p, b, t, ""


def pbt_rating_text(p: str, b: str, t: str) -> str:
    """The three scores as ChemSTEER prints them: ``P2B1T``; ``""`` when none is given.

    >>> pbt_rating_text("2", "1", ""), pbt_rating_text("", "", "")
    ('P2B1T', '')
    """
    return f"P{p}B{b}T{t}" if (p or b or t) else ""


def parse_groundwater_migration(text: str) -> tuple[str, str]:
    """Free text as (choice, other text): one of ChemSTEER's wordings (any case) is that
    choice; anything else is "Other" with the text kept.

    >>> parse_groundwater_migration("Negligible to slow"), parse_groundwater_migration("moderate to rapid.")
    (('negligible_to_slow', ''), ('moderate_to_rapid', ''))
    >>> parse_groundwater_migration(""), parse_groundwater_migration("Fast in sand")
    (('', ''), ('other', 'Fast in sand'))
    """
    text = (text or "").strip()
    if not text:
        return "", ""
    wanted = " ".join(_dashes(text).rstrip(".").replace("-", " to ").split()).lower()
    for value, label in GroundwaterMigration.choices:
        if value != GroundwaterMigration.OTHER and wanted in (label.lower(), value.replace("_", " ")):
            return value, ""
    return GroundwaterMigration.OTHER.value, text


def split_occupational_exposure_rating(rating: str, notes: str) -> tuple[str, str]:
    """(rating, notes) with the rating one of ChemSTEER's (any case, any dash) or blank;
    a rating that is not one of them is moved to the end of the notes, with a line saying so.

    >>> split_occupational_exposure_rating("nr", "One site.")
    ('NR', 'One site.')
    >>> split_occupational_exposure_rating("Low", "One site.")
    ('', "One site.\\n\\nOccupational exposure rating as entered before the rating became a choice from ChemSTEER's list: Low")
    """
    text = (rating or "").strip()
    if not text:
        return "", notes
    canonical = _dashes(text).replace(" ", "").upper()
    if canonical in OCCUPATIONAL_EXPOSURE_RATINGS:
        return canonical, notes
    line = RATING_MOVED_TO_NOTES.format(rating=text)
    return "", f"{notes.rstrip()}\n\n{line}" if (notes or "").strip() else line


def tlv_pel_errors(value: object, unit: str | None) -> dict[str, str]:
    """What is wrong with a TLV/PEL given as ``value`` and ``unit``, keyed by the field at
    fault (``{}``: nothing). Both or neither; the value a finite number above 0.

    >>> tlv_pel_errors(5.0, "mg/m3"), tlv_pel_errors(None, "")
    ({}, {})
    >>> sorted(tlv_pel_errors(5.0, "")), sorted(tlv_pel_errors(None, "ppm")), sorted(tlv_pel_errors(float("nan"), "ppm"))
    (['tlv_pel_unit'], ['tlv_pel_value'], ['tlv_pel_value'])
    """
    if value is None:
        return {"tlv_pel_value": TLV_PEL_VALUE_MISSING} if unit else {}
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not TLV_PEL_VALUE.contains(value):
        return {"tlv_pel_value": TLV_PEL_VALUE_NOT_POSITIVE}
    if not unit:
        return {"tlv_pel_unit": TLV_PEL_UNIT_MISSING}
    return {}


def normalise_case_number(value: str) -> str:
    """A case number as EPA writes it, so that one case cannot be entered twice under two
    spellings that look alike: NFKC-normalised (full-width ``Ｐ－１８－０１２３`` is
    ``P-18-0123``), without format characters (Unicode category Cf: a zero-width space, a
    soft hyphen, a direction mark, which are invisible), every dash written as ``-`` (a
    Unicode hyphen, an en dash, a minus sign), no surrounding blanks, upper case.

    An identifier, unlike a quantity, is folded rather than refused
    (``esd.number_text.is_plain``): each look-alike can only mean the one number, and the
    case is stored, shown and compared under that number. What is left must then match a
    case type's pattern (:class:`CaseNumberFormat`): a Cyrillic ``Р`` does not.

    >>> normalise_case_number("  p-18-0123 "), normalise_case_number("Ｐ－１８－０１２３")
    ('P-18-0123', 'P-18-0123')
    >>> normalise_case_number("P\u201018\u20130123"), normalise_case_number("P-18-01\u200b23\u00ad")
    ('P-18-0123', 'P-18-0123')
    """
    text = unicodedata.normalize("NFKC", value or "")
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return _dashes(text).strip().upper()
