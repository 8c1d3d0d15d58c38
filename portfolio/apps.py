from django.apps import AppConfig
from django.db.models.signals import post_migrate


class PortfolioConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "portfolio"
    verbose_name = "Portfolio: rework and the open workload"

    def ready(self) -> None:
        # Django requires the app's models loaded before these modules are imported.
        from . import receivers

        receivers.connect()
        post_migrate.connect(receivers.ledger_missing, sender=self, dispatch_uid="portfolio.ledger_missing")
