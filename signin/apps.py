from django.apps import AppConfig


class SigninConfig(AppConfig):
    name = "signin"
    verbose_name = "Sign-in"
    default_auto_field = "django.db.models.BigAutoField"
