"""Write a case's Initial Review Engineering Report as PDF.

    python manage.py irer P-18-0123 -o IRER.pdf
    python manage.py irer P-18-0123 --revision 2 --sanitised -o IRER-sanitised.pdf

Run by an administrator on the server: every copy, CBI included, is available.
Exit status 2 with a message on stderr when the case or revision does not exist.
"""

import sys

from django.core.management.base import BaseCommand

from assessments.models import Assessment
from assessments.reports.context import irer_context
from assessments.reports.render import irer_pdf


class Command(BaseCommand):
    help = "Render the IRER of CASE_NUMBER (latest revision unless --revision) to a PDF file."

    def add_arguments(self, parser):
        parser.add_argument("case_number")
        parser.add_argument("--revision", type=int, help="revision number (default: the latest)")
        parser.add_argument("--sanitised", action="store_true", help="the sanitised copy (CBI replaced)")
        parser.add_argument("-o", "--output", required=True, help="PDF file to write")

    def handle(self, *args, case_number, revision, sanitised, output, **options):
        assessments = Assessment.objects.filter(submission__case_number=case_number).order_by("-revision")
        if revision is not None:
            assessments = assessments.filter(revision=revision)
        assessment = assessments.select_related("submission", "engineer", "approved_by").first()
        if assessment is None:
            what = f"revision {revision} of case {case_number}" if revision else f"an assessment of case {case_number}"
            self.stderr.write(f"There is no {what}.")
            sys.exit(2)
        pdf = irer_pdf(irer_context(assessment=assessment, sanitised=sanitised))
        with open(output, "wb") as handle:
            handle.write(pdf)
        self.stdout.write(f"Wrote {output} ({len(pdf):,} bytes): {case_number} revision {assessment.revision}"
                          f"{' (sanitised)' if sanitised else ''}.")
