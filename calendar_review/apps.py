from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CalendarReviewConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "calendar_review"
    verbose_name = "Review calendar and assignment"

    def ready(self) -> None:
        # Django requires the app's models loaded before these modules are imported.
        from . import receivers
        from .roles import ensure_calendar_roles

        receivers.connect()

        # After this app's permissions exist; the groups are made by assessments.roles.
        post_migrate.connect(ensure_calendar_roles, sender=self, dispatch_uid="calendar_review.ensure_calendar_roles")
