from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("cases/<int:pk>/", views.submission_detail, name="submission-detail"),
]
