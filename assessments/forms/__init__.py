from .cases import AssessmentNotesForm, CaseSearchForm, SubmissionForm
from .scenarios import step_form_class

__all__ = ["AssessmentNotesForm", "CaseSearchForm", "SubmissionForm", "step_form_class"]
