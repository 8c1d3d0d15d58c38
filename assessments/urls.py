from django.urls import path

from . import (
    views,
    views_band,
    views_chemsteer,
    views_engine,
    views_impact,
    views_methods,
    views_report_text,
    views_review,
    views_seal,
    wizards,
)

urlpatterns = [
    path("", views.home, name="home"),
    path("cases/new/", views.submission_create, name="submission-create"),
    path("cases/<int:pk>/", views.submission_detail, name="submission-detail"),
    path("cases/<int:pk>/edit/", views.submission_edit, name="submission-edit"),
    path("cases/<int:pk>/assessments/new/", views.assessment_start, name="assessment-start"),
    path("assessments/<int:pk>/", views.assessment_detail, name="assessment-detail"),
    path("assessments/<int:pk>/notes/", views.assessment_notes, name="assessment-notes"),
    path("assessments/<int:pk>/scenarios/new/", views.scenario_add, name="scenario-add"),
    path("assessments/<int:pk>/irer/", views.irer_preview, name="irer-preview"),
    path("assessments/<int:pk>/irer.pdf", views.irer_download, name="irer-download"),
    path("assessments/<int:pk>/irer.docx", views.irer_docx, name="irer-docx"),
    path("assessments/<int:pk>/irer/tasks/<str:task_id>/", views.irer_status, name="irer-status"),
    path("assessments/<int:pk>/chemsteer-v32/", views_chemsteer.assessment_chemsteer_v32, name="assessment-chemsteer-v32"),
    path("scenarios/<int:pk>/", views.scenario_results, name="scenario-results"),
    path("scenarios/<int:pk>/wizard/", wizards.scenario_wizard, name="scenario-wizard"),
    path("scenarios/<int:pk>/wizard/<str:step>/", wizards.scenario_wizard, name="scenario-wizard-step"),
    path("scenarios/<int:pk>/report-text/", views_report_text.scenario_release_texts, name="scenario-release-texts"),
    path("scenarios/<int:pk>/sensitivity/", views_band.scenario_sensitivity, name="scenario-sensitivity"),
    path("scenarios/<int:pk>/sensitivity-band/", views_band.scenario_sensitivity_band, name="scenario-sensitivity-band"),
    path("scenarios/<int:pk>/duplicate/", views.scenario_duplicate, name="scenario-duplicate"),
    path("scenarios/<int:pk>/delete/", views.scenario_delete, name="scenario-delete"),
    path("scenarios/<int:pk>/restore/", views.scenario_restore, name="scenario-restore"),
    # A use computed by an older engine: the difference, then Accept (issue 42).
    path("scenarios/<int:pk>/recompute/", views_engine.scenario_recompute, name="scenario-recompute"),
]

# The review workflow (issue 7): queue, status changes, history, comparison.
urlpatterns += [
    path("review/", views_review.review_queue, name="review-queue"),
    path("engine/changes/", views_impact.engine_changes, name="engine-changes"),
    path("engine/changes/start/", views_impact.engine_change_start, name="engine-change-start"),
    path("engine/changes/<int:pk>/progress/", views_impact.engine_change_progress, name="engine-change-progress"),
    path("assessments/<int:pk>/submit/", views_review.assessment_submit, name="assessment-submit"),
    path("assessments/<int:pk>/approve/", views_review.assessment_approve, name="assessment-approve"),
    path("assessments/<int:pk>/withdraw/", views_review.assessment_withdraw, name="assessment-withdraw"),
    path("assessments/<int:pk>/return/", views_review.assessment_return, name="assessment-return"),
    path("assessments/<int:pk>/revise/", views_review.assessment_revise, name="assessment-revise"),
    path("assessments/<int:pk>/history/", views_review.assessment_history, name="assessment-history"),
    path("assessments/<int:pk>/compare/", views_review.assessment_compare, name="assessment-compare"),
]

# The engine's validation table: no case data, any logged-in user.
urlpatterns += [
    path("methods/validation/", views_methods.method_validation, name="method-validation"),
    path("reports/verify/", views_seal.irer_verify, name="irer-verify"),
]
