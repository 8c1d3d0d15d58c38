"""Write a case's Initial Review Engineering Report as PDF or Word, or check a PDF's seal.

    python manage.py irer P-18-0123 --revision 1            # IRER-P-18-0123-r1.pdf, here
    python manage.py irer P-18-0123 --revision 1 | sha256sum  # the same bytes, to a pipe
    python manage.py irer P-18-0123 --revision 2 --sanitised -o IRER-sanitised.pdf
    python manage.py irer P-18-0123 --docx -o IRER.docx
    python manage.py irer P-18-0123 --sanitised --docx -o IRER-sanitised.docx
    python manage.py irer P-18-0123 --appendix --combine -o IRER-full.pdf
    python manage.py irer verify IRER-P-18-0123-r1.pdf

Where the report goes: the file ``-o/--output`` names; without it, when standard output is
not a terminal (a pipe, a redirection), the document's bytes and nothing else go to standard
output, the line saying what was written to stderr; when it is a terminal, the file the
download names (``reports.render.irer_filename``: ``IRER-P-18-0123-r1.pdf``,
``...-sanitised.pdf``, ``.docx`` with ``--docx``) in the current directory. A file written
replaces one of the same name.

Run by an administrator on the server: every copy, CBI included, is available. The full
copy of a CBI case is recorded in its CBI custody log under the operating-system user.

The layout: ``--appendix`` / ``--no-appendix`` print the calculation appendix or leave it
out, ``--combine`` / ``--no-combine`` print the releases to one medium combined or one
block each; without them, the revision's stored choices (``Assessment.irer_appendix``,
``Assessment.irer_combine_releases``) as its pages print it.

An approved revision's PDF is its copy as sealed at approval (``reports.seal``), byte for
byte, when no layout option asks for another layout than the one stored (an option that
asks for the stored layout changes nothing). One that does gets the report drawn now in
that layout, which is not the sealed copy: the command says so on stderr
(:data:`NOT_THE_SEALED_COPY`), and ``irer verify`` will not find the file among the
sealed reports. It is written rather than refused because a reviewer may want the
appendix of an approved revision; the sealed copy stays the record. The Word document is
always drawn from the report as it prints now, in the layout asked for.

Exit status 2 with a message on stderr naming the option or argument when one is
wrong, when the case or revision does not exist, or when a use has no results or its
inputs changed since it was computed (``--allow-stale`` writes the report anyway, each such
use marked NOT CURRENT). ``verify`` exits 0 when the file is a sealed copy, unchanged, and
1 when it matches none.
"""

import argparse
import os
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from assessments import presentation
from assessments.events import What, os_user, shown
from assessments.exposure_rating import rating_warnings
from assessments.models import Assessment, Submission
from assessments.reports.context import appendix_printed, irer_context, releases_combined
from assessments.reports.docx import irer_docx, irer_docx_filename
from assessments.reports.render import irer_filename, irer_pdf
from assessments.reports.seal import CHECK_MAX_BYTES, check_pdf, sealed_report

VERIFY = "verify"
DOCX_NOT_PDF = "-o/--output: {output} is a PDF file name; with --docx write a .docx file."
EXTRA_ARGUMENT = "FILE: {file} is given, but only 'irer verify FILE' reads a file; write the report with -o/--output."
VERIFY_FILE_REQUIRED = "FILE is required: irer verify FILE names the PDF to check."
VERIFY_OPTION = "{option}: irer verify FILE takes no {option}; it checks the file against every sealed report."
FILE_MISSING = "FILE: there is no file {file}."
FILE_TOO_LARGE = "FILE: {file} is larger than {limit} MB; an IRER is far smaller."
NO_CASE = "There is no case {case_number}."
NO_ASSESSMENT = "There is no assessment of case {case_number}."
NO_REVISION = "There is no revision {revision} of case {case_number}."
#: The line saying what was written: on stdout after writing a file, on stderr after
#: writing the bytes to standard output (``{target}``: the file, or :data:`STANDARD_OUTPUT`).
WROTE = "Wrote {target} ({size:,} bytes): {case_number} revision {revision}{sanitised}{how}."
STANDARD_OUTPUT = "the report to standard output"
NOT_THE_SEALED_COPY = (
    "Note: revision {revision} is approved and sealed, but {options} asks for another layout than the one "
    "approved: the copy written is drawn now, not the sealed copy (irer verify will not find it). "
    "Leave out {options} for the sealed copy."
)


class Command(BaseCommand):
    help = (
        "Render the IRER of CASE_NUMBER (latest revision unless --revision) as PDF (or --docx) to the file "
        "-o names; without -o, to standard output when it is not a terminal, else to the download's file "
        "name (IRER-CASE-rN.pdf) in the current directory. Or, as 'irer verify FILE', say whether FILE is "
        "a sealed approved IRER of this system."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("case_number", help="the case number, or 'verify' to check FILE")
        parser.add_argument("file", nargs="?", help="with 'verify': the PDF file to check")
        parser.add_argument("--revision", type=int, help="revision number (default: the latest)")
        parser.add_argument("--sanitised", action="store_true", help="the sanitised copy (CBI replaced)")
        parser.add_argument("--docx", action="store_true", help="write the Word document (.docx) instead of the PDF")
        parser.add_argument(
            "-o", "--output",
            help="file to write (default: standard output when it is not a terminal, else the download's file "
            "name, e.g. IRER-P-18-0123-r1.pdf, in the current directory)",
        )
        parser.add_argument(
            "--appendix", action=argparse.BooleanOptionalAction, default=None,
            help="print the calculation appendix, or leave it out (default: the revision's stored choice)",
        )
        parser.add_argument(
            "--combine", action=argparse.BooleanOptionalAction, default=None,
            help="print same-medium releases combined as ChemSTEER's IrerComb, or one block each "
            "(default: the revision's stored choice)",
        )
        parser.add_argument(
            "--allow-stale",
            action="store_true",
            help="write the report even when a use is not computed or its inputs changed since (marked NOT CURRENT)",
        )

    def _refuse(self, message: str, code: int = 2) -> NoReturn:
        self.stderr.write(message)
        sys.exit(code)

    def handle(self, *args: Any, case_number: str, file: str | None, revision: int | None, sanitised: bool,
               docx: bool, output: str | None, allow_stale: bool, appendix: bool | None = None,
               combine: bool | None = None, **options: Any) -> None:
        if case_number == VERIFY:
            given = {"--revision": revision is not None, "--sanitised": sanitised, "--docx": docx,
                     "-o/--output": output is not None, "--allow-stale": allow_stale,
                     _option_name("appendix", appendix): appendix is not None,
                     _option_name("combine", combine): combine is not None}
            for option, is_given in given.items():
                if is_given:
                    self._refuse(VERIFY_OPTION.format(option=option))
            return self._verify(file)
        if file is not None:
            self._refuse(EXTRA_ARGUMENT.format(file=file))
        if output and docx and output.lower().endswith(".pdf"):
            self._refuse(DOCX_NOT_PDF.format(output=output))
        assessments = Assessment.objects.filter(submission__case_number=case_number).order_by("-revision")
        if revision is not None:
            assessments = assessments.filter(revision=revision)
        assessment = assessments.select_related("submission", "engineer", "approved_by").first()
        if assessment is None:
            self._refuse(_nothing_to_write(case_number, revision))
        sealed = None if docx else sealed_report(assessment=assessment, sanitised=sanitised)
        relayout = _layout_options(assessment, appendix=appendix, combine=combine)
        if sealed is not None and relayout:
            self.stderr.write(NOT_THE_SEALED_COPY.format(revision=assessment.revision, options=" ".join(relayout)))
            sealed = None
        for warning in rating_warnings(assessment):  # as the download page warns
            self.stderr.write(f"Warning: {warning}")
        if sealed is None:
            self._check_current(assessment, allow_stale)
            context = irer_context(assessment=assessment, sanitised=sanitised, appendix=appendix, combine=combine)
            data = irer_docx(context) if docx else irer_pdf(context)
        else:
            data = bytes(sealed.pdf)
        to_stdout = not output and not self.stdout.isatty()
        if to_stdout:
            self._write_stdout(data)
        else:
            output = output or _default_name(assessment, sanitised=sanitised, docx=docx)
            with open(output, "wb") as handle:
                handle.write(data)
        shown(what=What.IRER_DOCX if docx else What.IRER_PDF, assessment=assessment, sanitised=sanitised,
              os_user=os_user(), detail=f"irer command, to {'standard output' if to_stdout else output}")
        wrote = WROTE.format(
            target=STANDARD_OUTPUT if to_stdout else output, size=len(data), case_number=case_number,
            revision=assessment.revision, sanitised=" (sanitised)" if sanitised else "",
            how=f", sealed at approval, SHA-256 {sealed.sha256}" if sealed is not None else "",
        )
        # Beside the bytes on standard output, the line would become part of the file: stderr.
        (self.stderr if to_stdout else self.stdout).write(wrote)

    def _write_stdout(self, data: bytes) -> None:
        """``data`` to standard output as bytes: to the binary buffer under a text stream
        (``sys.stdout``), or to the binary stream given as ``stdout`` (``call_command``)."""
        stream: Any = self.stdout._out  # the stream OutputWrapper wraps
        stream.flush()
        binary = getattr(stream, "buffer", stream)
        binary.write(data)
        binary.flush()

    def _check_current(self, assessment: Assessment, allow_stale: bool) -> None:
        not_current = [
            (scenario, state)
            for scenario in assessment.scenarios.all()
            if (state := presentation.scenario_state(scenario)) != presentation.CURRENT
        ]
        if not_current and not allow_stale:
            for scenario, state in not_current:
                text = presentation.NOT_CURRENT if state == presentation.STALE else presentation.NOT_COMPUTED
                self.stderr.write(f"Use “{scenario.title}”: {text}.")
            self._refuse("Compute these uses again, or give --allow-stale to write the report marked NOT CURRENT.")

    def _verify(self, file: str | None) -> None:
        if not file:
            self._refuse(VERIFY_FILE_REQUIRED)
        if not os.path.isfile(file):
            self._refuse(FILE_MISSING.format(file=file))
        if os.path.getsize(file) > CHECK_MAX_BYTES:
            self._refuse(FILE_TOO_LARGE.format(file=file, limit=CHECK_MAX_BYTES // (1024 * 1024)))
        with open(file, "rb") as handle:
            check = check_pdf(data=handle.read())
        self.stdout.write(check.message)
        if check.claim:
            self.stdout.write(check.claim)
        self.stdout.write(f"SHA-256 of {file}: {check.sha256}")
        if not check.sealed:
            sys.exit(1)


def _nothing_to_write(case_number: str, revision: int | None) -> str:
    """Why there is no revision to write: no such case, no assessment of it, or not that revision."""
    if not Submission.objects.filter(case_number=case_number).exists():
        return NO_CASE.format(case_number=case_number)
    if revision is None:
        return NO_ASSESSMENT.format(case_number=case_number)
    return NO_REVISION.format(revision=revision, case_number=case_number)


def _default_name(assessment: Assessment, *, sanitised: bool, docx: bool) -> str:
    """The file name the download gives this copy (``IRER-P-18-0123-r1.pdf``, ``...-sanitised``,
    ``.docx``): the same functions name both."""
    names = {"case_number": assessment.submission.case_number, "revision": assessment.revision}
    return irer_docx_filename(names, sanitised=sanitised) if docx else irer_filename(names, sanitised=sanitised)


def _option_name(name: str, value: bool | None) -> str:
    """``--name`` or ``--no-name``, as given."""
    return f"--{name}" if value is not False else f"--no-{name}"


def _layout_options(assessment: Assessment, *, appendix: bool | None, combine: bool | None) -> list[str]:
    """The layout options given that ask for another layout than the revision's stored one
    (the layout its sealed copy has): an option asking for the stored layout is none."""
    options = []
    if appendix is not None and appendix_printed(assessment, appendix) != appendix_printed(assessment):
        options.append(_option_name("appendix", appendix))
    if combine is not None and releases_combined(assessment, combine) != releases_combined(assessment):
        options.append(_option_name("combine", combine))
    return options
