from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The ``load_demo`` command: the demo users, cases, a review, a review calendar and
    contact reports, so it builds on every app it fills (docs/architecture.md, the app order)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "demo"
    verbose_name = "Demo data"
