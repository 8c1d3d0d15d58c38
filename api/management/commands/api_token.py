"""``manage.py api_token USERNAME --name NAME [--days N]``: make an API token for USERNAME and
print it, once (for scripts and the first set-up). Only its SHA-256 is stored. Exit status
2 for an unknown user or a refused name or number of days."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from api import tokens

EXIT_BAD_INPUT = 2
NO_SUCH_USER = "No user named {username!r}."


class Command(BaseCommand):
    help = "Makes an API token for USERNAME and prints it once (only its SHA-256 is kept)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", required=True, help="what the token is for")
        parser.add_argument("--days", type=int, default=None,
                            help=f"valid for N days (default {settings.API_TOKEN_DEFAULT_DAYS}, "
                                 f"at most {settings.API_TOKEN_MAX_DAYS})")

    def handle(self, *args: Any, username: str, name: str, days: int | None, **options: Any) -> None:
        User = get_user_model()
        try:
            owner = User._default_manager.get(**{User.USERNAME_FIELD: username})
        except User.DoesNotExist:
            raise CommandError(NO_SUCH_USER.format(username=username), returncode=EXIT_BAD_INPUT) from None
        try:
            made = tokens.token_create(owner=owner, name=name, days=days)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages), returncode=EXIT_BAD_INPUT) from None
        self.stdout.write(made.token)
        self.stderr.write(f"Token “{made.row.name}” for {username}, expires {made.row.expires_at:%Y-%m-%d}. "
                          "It is not shown again.")
