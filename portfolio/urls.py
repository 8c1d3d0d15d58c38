from django.urls import path

from . import views

urlpatterns = [
    path("portfolio/", views.portfolio, name="portfolio"),
    path("portfolio.csv", views.portfolio_csv, name="portfolio-csv"),
]
