from django.apps import AppConfig


class SigninConfig(AppConfig):
    name = "signin"
    verbose_name = "Sign-in"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the settings check)
