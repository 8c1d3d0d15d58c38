from django.urls import path

from . import views, wizards

urlpatterns = [
    path("", views.home, name="home"),
    path("cases/new/", views.submission_create, name="submission-create"),
    path("cases/<int:pk>/", views.submission_detail, name="submission-detail"),
    path("cases/<int:pk>/edit/", views.submission_edit, name="submission-edit"),
    path("cases/<int:pk>/assessments/new/", views.assessment_start, name="assessment-start"),
    path("assessments/<int:pk>/", views.assessment_detail, name="assessment-detail"),
    path("assessments/<int:pk>/scenarios/new/", views.scenario_add, name="scenario-add"),
    path("assessments/<int:pk>/irer/", views.irer_preview, name="irer-preview"),
    path("assessments/<int:pk>/irer.pdf", views.irer_download, name="irer-download"),
    path("scenarios/<int:pk>/", views.scenario_results, name="scenario-results"),
    path("scenarios/<int:pk>/wizard/", wizards.scenario_wizard, name="scenario-wizard"),
    path("scenarios/<int:pk>/wizard/<str:step>/", wizards.scenario_wizard, name="scenario-wizard-step"),
    path("scenarios/<int:pk>/duplicate/", views.scenario_duplicate, name="scenario-duplicate"),
    path("scenarios/<int:pk>/delete/", views.scenario_delete, name="scenario-delete"),
]
