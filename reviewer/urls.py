"""URLs. Every page needs a login (LoginRequiredMiddleware) except the login page and
the health check (``health.healthz``)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import health

admin.site.site_header = "PMN engineering review: administration"
admin.site.site_title = "PMN review admin"

urlpatterns = [
    path("", include("signin.urls")),  # log in (single sign-on, local accounts) and log out
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("admin/", admin.site.urls),
    path(health.PATH, health.healthz, name="healthz"),
    path("", include("contacts.urls")),
    path("", include("calendar_review.urls")),
    path("", include("portfolio.urls")),
    path("", include("notices.urls")),
    path("", include("audit.urls")),
    path("", include("api.urls")),  # the JSON API under /api/v1/ and the API tokens page (docs/api.md)
    path("", include("assessments.urls")),
]
