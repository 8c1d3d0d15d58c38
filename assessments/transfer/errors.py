"""The words of a case export and import: the exception, the messages of its refusals,
and the change reason an imported row's first history record gives.

Every message is a constant here, so that tests assert the exact text. A message with
``{where}`` names the place in the file (``assessments[0].scenarios[1].inputs``), one
with ``{source}`` the file.
"""

from __future__ import annotations

NO_SUCH_CASE = "No case {case_number} in this installation."
NOT_UTF8 = "{source} is not UTF-8 text."
TOO_LARGE = (
    "{source} is larger than {limit} MB, more than any case export: import refused, nothing was written."
)
NOT_JSON = "{source} is not valid JSON: {error}."
TOO_DEEP = "{source} nests deeper than {limit} levels, more than any case export: import refused."
NOT_AN_OBJECT = "{source} is not a case export: its top level is {kind}, not a JSON object."
NOT_A_CASE_EXPORT = "{source} is not a case export: expected \"format\": \"pmn-review-case\"."
UNSUPPORTED_VERSION = "{source} has format_version {version!r}; this installation reads format_version 1."
BAD_STRUCTURE = "{where}: {problem}."
UNKNOWN_FIELDS = "{where}: unknown field(s) {fields}."
INVALID_ROW = "{where}: {errors}"
INVALID_VALUE = "{where}: {problem}"
NOT_FINITE = "must be a finite number a double holds (not NaN, Infinity, beyond 1.8E+308, or so small it reads as 0)"
NUL_IN_TEXT = "must not contain NUL characters (PostgreSQL cannot store them)"
NOT_UNICODE = "must be text: it holds a lone surrogate (\\ud800 to \\udfff), which is not a character"
DUPLICATE_KEY = "the key {key} appears more than once in this object"
CASE_EXISTS = "Case {case_number} exists already in this installation: import refused, nothing was written."
MISSING_USERS = (
    "These users do not exist in this installation: {usernames}. Create them first, or map each to an "
    "existing user with --map-user OLD=NEW. Nothing was written."
)
MAPPED_TO_MISSING = "--map-user maps to user(s) that do not exist here: {usernames}."
WRITE_FAILED = "The database refused the case ({error}); nothing was written."
IMPORT_REASON = "Imported from a case export made {exported_at}."
ENGINE_VERSION_DIFFERS = (
    "{where}: computed by engine version {stored}; this installation runs engine version {running}, "
    "so the stored result cannot be checked: import refused. Import it into an installation running "
    "engine {stored}."
)
RESULT_WITHOUT_COMPUTATION = "a stored result needs its computed_inputs and computed_at"
COMPUTATION_WITHOUT_RESULT = "must be null when there is no stored result"
REASON_MISSING = "an input other than its default needs a reason (reasons.{symbol})"
REASON_TOO_LONG = "is {length:,} characters long; at most {limit:,} are allowed"
UNKNOWN_STEP = "must be empty or one of the scenario's steps: {steps}"
TRAIL_FROM = "is {found!r}, but the revision was {expected!r} at that point"
TRAIL_STEP = "{action} from {from_status!r} to {to_status!r} is not a step of the review workflow"
TRAIL_ORDER = "is earlier than the decision before it"
TRAIL_SUBMITTER = "{user} is not the revision's engineer ({engineer}), who alone submits or withdraws it"
TRAIL_NOT_SUPERVISOR = "{user} is not a supervisor here: only a supervisor approves or returns a revision"
TRAIL_OWN_WORK = "{user} is the revision's engineer: another supervisor must approve or return it"
TRAIL_RETURN_COMMENT = "a return needs a comment saying what must change"
TRAIL_END = (
    "is {status!r}, but its review decisions leave it {reached!r} (an approved revision needs a submit decision "
    "by its engineer, then an approve decision by another supervisor)"
)
APPROVED_BY_MISMATCH = "must be {expected}, who made the approve decision (the file has {found})"
APPROVED_AT_MISMATCH = "must be the time of the approve decision ({expected}; the file has {found})"
NOT_APPROVED_YET = "must be null: the revision is not approved"
SNAPSHOT_NOT_AN_OBJECT = "must be a JSON object of the case's fields as approved"
SNAPSHOT_NULL = (
    "revision {revision} is approved, so it keeps the case as it was approved (a JSON object of the case's "
    "fields); the file has null"
)
SNAPSHOT_NOT_THE_CASE = (
    "revision {revision} was approved at {approved_at} and the case has not changed since (last saved at "
    "{updated_at}), so the case as approved is the case: {expected}, not {found} as the file has it"
)
LATER_THAN_EXPORT = (
    "is {found}, later than the export was made ({latest}): nothing in a case export happened after its export"
)
LATER_THAN_IMPORT = "is {found}, later than the import ({latest}): nothing in a case export happened after its export"
EXPORTED_IN_THE_FUTURE = "is {found}, later than now ({now}): a case export is not made in the future"
COMPUTED_AFTER_SUBMISSION = (
    "is {found}, after revision {revision} was last submitted for review ({submitted}): a use under review is "
    "not computed again"
)
NO_USES = "a {status} revision has at least one use (scenario)"
USE_NOT_CURRENT = "a {status} revision's uses are all computed from their present inputs; this one is {state}"
VOLUME_REASON = "{message} A {status} revision gives the reason."
REVISION_NUMBERS = "revisions must be numbered 1, 2, 3 ... without gaps; the file has {found}"
REVISION_NOT_APPROVED = (
    "revision {revision} is {status}, but revision {next} follows it: only an approved revision is copied "
    "into a new one"
)

# An approved revision's sealed copies (``transfer.sealed``) ------------------------------------
SEALED_FIELDS_MISSING = "missing field(s) {fields}"
SEALED_NOT_APPROVED = (
    "revision {revision} is {status}: only an approved revision has sealed copies of its report"
)
SEALED_UNKNOWN_COPY = "must be one of {copies}"
SEALED_COPY_TWICE = "the {copy} copy appears more than once"
SEALED_NOT_SHA256 = "must be a SHA-256 digest: 64 hexadecimal characters, lower case"
SEALED_NOT_SEAL = "must be the seal a sealed copy's footer prints: 1 to 20 hexadecimal characters, lower case"
SEALED_NOT_BASE64 = "must be the PDF's bytes in base64 (RFC 4648, standard alphabet, padded): {error}"
SEALED_HASH_MISMATCH = (
    "the bytes given have SHA-256 {found}, not the {given} the file gives for them: the copy was changed "
    "after export"
)
SEALED_NOT_DRAWN = (
    "revision {revision}'s case as approved has no CBI claims, so its report has no sanitised copy of its own "
    "(the full copy is given for both): the file has a {copy} copy"
)
SEAL_TAKEN = (
    "revision {revision}'s sealed {copy} copy, drawn here, is byte for byte the sealed copy of case {case_number} "
    "revision {other} of this installation (SHA-256 {sha256}): that case is this one, under another number, and "
    "one file cannot be the sealed copy of two. Import refused, nothing was written."
)
#: What the import says of each sealed copy (its summary, and the case's first history record).
SEAL_SAME = (
    "Revision {revision}'s sealed {copy} copy is the exporting system's: drawn again here from the imported "
    "case it is the same file, byte for byte (SHA-256 {sha256}), so a copy handed out before verifies here as sealed."
)
SEAL_DRAWN_AGAIN = (
    "Revision {revision}'s sealed {copy} copy was drawn again on import: the file's SHA-256 is {file_sha256}, "
    "this system's {sha256}. {why} A copy handed out before the import verifies here as not sealed: it is not "
    "the file this system drew."
)
SEAL_DRAWN_NEW = (
    "Revision {revision}'s sealed {copy} copy was drawn on import (SHA-256 {sha256}): the file carries none "
    "(exported before sealed copies travelled with a case, or approved before reports were sealed). A copy "
    "handed out before the import verifies here as not sealed."
)
SEAL_WHY_RENUMBERED = (
    "The report prints its case number: the file's copy is headed {file_case_number}, and the case is "
    "imported as {case_number}."
)
SEAL_WHY_OTHER = (
    "The report drawn here from the imported rows is not the one the exporting system drew (another version "
    "of the software or of its fonts, or a user recorded here under another name or with another full name)."
)


class TransferError(Exception):
    """Bad input or a refused import; the message says which and why."""
