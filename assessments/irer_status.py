"""The status printed at the head of the IRER, beside the assessment date: the reviewer's
choice from ChemSTEER v3.2's list (``Assessment.irer_status``, ``models.case_fields.IrerStatus``)
while the revision is worked on, and the approval once it is approved.

The seed IRER prints ``Contractor Draft 2/15/2018``: the status, then the date
(spec/irer.md; the report adds the date).
"""

from __future__ import annotations

from .models import Assessment, Status

#: What the workflow adds to the reviewer's status while a revision is with the supervisor.
WORKFLOW_SUFFIXES: dict[str, str] = {
    Status.DRAFT: "",
    Status.SUBMITTED: ": submitted for approval",
    Status.RETURNED: ": returned for revision",
}
APPROVED = "Approved"


def irer_status_text(assessment: Assessment) -> str:
    """The IRER's status, without its date: ChemSTEER's wording the reviewer chose
    (``CEB Staff Draft``, ``Other: Final for the file``), with where the revision is in
    review (``CEB Staff Draft: submitted for approval``); ``Approved`` once approved."""
    if assessment.status == Status.APPROVED:
        return APPROVED
    return f"{assessment.irer_status_label}{WORKFLOW_SUFFIXES[assessment.status]}"
