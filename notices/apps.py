from django.apps import AppConfig


class NoticesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"
    verbose_name = "Notices and comments on uses"

    def ready(self) -> None:
        # Connects the receivers of assessments.events (the review's notices).
        from . import receivers  # noqa: F401
