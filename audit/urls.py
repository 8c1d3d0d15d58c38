from django.urls import path

from . import views

urlpatterns = [
    path("cases/<int:pk>/custody/", views.case_log, name="case-custody-log"),
    path("cases/<int:pk>/custody.csv", views.case_log_csv, name="case-custody-csv"),
    path("my-cbi-access/", views.my_access, name="my-cbi-access"),
]
