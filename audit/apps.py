from django.apps import AppConfig


class AuditConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "audit"
    verbose_name = "Audit trail"

    def ready(self) -> None:
        # Connects the receivers of django.contrib.auth's login, logout and failure signals.
        from . import receivers  # noqa: F401
