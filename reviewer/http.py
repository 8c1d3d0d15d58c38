"""The request a page behind ``LoginRequiredMiddleware`` receives: its user has logged in
(a page marked ``login_not_required`` takes a plain ``HttpRequest``). For the type checker
only; Django builds the request."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest


class AuthenticatedHttpRequest(HttpRequest):
    user: User
