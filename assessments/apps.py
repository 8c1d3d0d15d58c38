from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AssessmentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "assessments"
    verbose_name = "PMN engineering review"

    def ready(self) -> None:
        from .reports.seal import seal_on_approval
        from .roles import ensure_roles
        from .workflow import assessment_approved

        # The approval (and the import of an approved revision) seals its report in its own
        # transaction (reports.seal).
        assessment_approved.connect(seal_on_approval, dispatch_uid="assessments.seal_on_approval")

        # After this app's permissions exist (post_migrate of this app runs after
        # django.contrib.auth's permission creation for it).
        post_migrate.connect(ensure_roles, sender=self, dispatch_uid="assessments.ensure_roles")
