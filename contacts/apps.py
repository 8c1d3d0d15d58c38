from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ContactsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "contacts"
    verbose_name = "Contact reports"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the export and import of a case's contact reports)
        from .roles import ensure_contact_roles

        # After this app's permissions exist; the groups are made by assessments.roles.
        post_migrate.connect(ensure_contact_roles, sender=self, dispatch_uid="contacts.ensure_contact_roles")
