"""Write a case's Initial Review Engineering Report as PDF.

    python manage.py irer P-18-0123 -o IRER.pdf
    python manage.py irer P-18-0123 --revision 2 --sanitised -o IRER-sanitised.pdf

Run by an administrator on the server: every copy, CBI included, is available. The full
copy of a CBI case is recorded in its CBI custody log under the operating-system user.
Exit status 2 with a message on stderr when the case or revision does not exist, or when
a use has no results or its inputs changed since it was computed (``--allow-stale``
writes the report anyway, each such use marked NOT CURRENT).
"""

import sys

from django.core.management.base import BaseCommand

from assessments import presentation
from assessments.models import Assessment
from assessments.reports.context import irer_context
from assessments.reports.render import irer_pdf
from audit.services import What, cbi_access_record, os_user


class Command(BaseCommand):
    help = "Render the IRER of CASE_NUMBER (latest revision unless --revision) to a PDF file."

    def add_arguments(self, parser):
        parser.add_argument("case_number")
        parser.add_argument("--revision", type=int, help="revision number (default: the latest)")
        parser.add_argument("--sanitised", action="store_true", help="the sanitised copy (CBI replaced)")
        parser.add_argument("-o", "--output", required=True, help="PDF file to write")
        parser.add_argument(
            "--allow-stale",
            action="store_true",
            help="write the report even when a use is not computed or its inputs changed since (marked NOT CURRENT)",
        )

    def handle(self, *args, case_number, revision, sanitised, output, allow_stale, **options):
        assessments = Assessment.objects.filter(submission__case_number=case_number).order_by("-revision")
        if revision is not None:
            assessments = assessments.filter(revision=revision)
        assessment = assessments.select_related("submission", "engineer", "approved_by").first()
        if assessment is None:
            what = f"revision {revision} of case {case_number}" if revision else f"an assessment of case {case_number}"
            self.stderr.write(f"There is no {what}.")
            sys.exit(2)
        not_current = [
            (scenario, state)
            for scenario in assessment.scenarios.all()
            if (state := presentation.scenario_state(scenario)) != presentation.CURRENT
        ]
        if not_current and not allow_stale:
            for scenario, state in not_current:
                text = presentation.NOT_CURRENT if state == presentation.STALE else presentation.NOT_COMPUTED
                self.stderr.write(f"Use “{scenario.title}”: {text}.")
            self.stderr.write("Compute these uses again, or give --allow-stale to write the report marked NOT CURRENT.")
            sys.exit(2)
        pdf = irer_pdf(irer_context(assessment=assessment, sanitised=sanitised))
        with open(output, "wb") as handle:
            handle.write(pdf)
        cbi_access_record(what=What.IRER_PDF, assessment=assessment, sanitised=sanitised, os_user=os_user(),
                          detail=f"irer command, to {output}")
        self.stdout.write(f"Wrote {output} ({len(pdf):,} bytes): {case_number} revision {assessment.revision}"
                          f"{' (sanitised)' if sanitised else ''}.")
