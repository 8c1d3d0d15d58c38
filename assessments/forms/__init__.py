from .cases import CaseSearchForm, SubmissionForm
from .scenarios import step_form_class

__all__ = ["CaseSearchForm", "SubmissionForm", "step_form_class"]
