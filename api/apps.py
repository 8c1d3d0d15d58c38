from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The JSON API for other systems under ``/api/v1/`` (issue 31): bearer tokens per person,
    the same selectors, services and permissions as the pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "API"
