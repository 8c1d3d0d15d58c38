"""``python manage.py export_case CASE_NUMBER > case.json``: one case, every revision of
its assessment, their scenarios and review decisions, as JSON (see assessments.transfer)."""

from django.core.management.base import BaseCommand, CommandError

from assessments import transfer

EXIT_BAD_INPUT = 2
CBI_WARNING = "Case {case_number} contains confidential business information (CBI): handle the export accordingly."


class Command(BaseCommand):
    help = (
        "Writes the case CASE_NUMBER (its revisions, scenarios with inputs, reasons and stored results, and "
        "review decisions; users by user name) as JSON to standard output or --output. Exit status 2 when "
        "there is no such case."
    )

    def add_arguments(self, parser):
        parser.add_argument("case_number", help="EPA case number, e.g. P-18-0123")
        parser.add_argument("-o", "--output", help="write to this file instead of standard output")

    def handle(self, *args, case_number: str, output: str | None = None, **options):
        try:
            document = transfer.case_export(case_number=case_number)
        except transfer.TransferError as exc:
            raise CommandError(str(exc), returncode=EXIT_BAD_INPUT) from None
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
