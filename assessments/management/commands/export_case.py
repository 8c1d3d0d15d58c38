"""``python manage.py export_case CASE_NUMBER > case.json``: one case, every revision of
its assessment, their scenarios and review decisions, and each approved revision's sealed
copies of its IRER (the PDF in base64, with its SHA-256 and seal), as JSON (see
assessments.transfer).

The export of a CBI case is the case's full data handed over: once written, it is recorded
in the case's CBI custody log (announced: ``assessments.events.shown``) under the
operating-system user who ran the command (the command has no application user)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from assessments import transfer
from assessments.events import What, os_user, shown
from assessments.models import Submission

EXIT_BAD_INPUT = 2
CBI_WARNING = "Case {case_number} contains confidential business information (CBI): handle the export accordingly."


class Command(BaseCommand):
    help = (
        "Writes the case CASE_NUMBER (its revisions, scenarios with inputs, reasons and stored results, and "
        "review decisions; each approved revision's sealed IRER copies; users by user name) as JSON to "
        "standard output or --output. Exit status 2 when there is no such case."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("case_number", help="EPA case number, e.g. P-18-0123")
        parser.add_argument("-o", "--output", help="write to this file instead of standard output")

    def handle(self, *args: Any, case_number: str, output: str | None = None, **options: Any) -> None:
        try:
            document = transfer.case_export(case_number=case_number)
        except transfer.TransferError as exc:
            raise CommandError(str(exc), returncode=EXIT_BAD_INPUT) from None
        submission = Submission.objects.get(case_number=case_number)  # the case case_export found
        text = transfer.dumps(document)
        if document["case"].get("cbi_claims"):
            self.stderr.write(CBI_WARNING.format(case_number=case_number))
        if output:
            try:
                with open(output, "w", encoding="utf-8") as handle:
                    handle.write(text + "\n")
            except OSError as exc:
                raise CommandError(f"Cannot write {output}: {exc.strerror}.", returncode=EXIT_BAD_INPUT) from None
        else:
            self.stdout.write(text)
        shown(what=What.EXPORT, submission=submission, os_user=os_user(),
              detail=f"to {output}" if output else "to standard output")

