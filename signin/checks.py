"""The sign-in settings checked when the application starts (``manage.py check``, which
``runserver``, ``migrate`` and the deployment's ``check --deploy`` run): a half-configured
provider or PIV proxy is an error there, not a failure at each request."""

from __future__ import annotations

from typing import Any

from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from . import config


@checks.register(checks.Tags.security)
def sign_in_settings(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    for number, read in ((1, config.oidc), (2, config.piv)):
        try:
            read()
        except ImproperlyConfigured as error:
            found.append(checks.Error(str(error), hint="docs/sign-in.md", id=f"signin.E00{number}"))
    return found
