"""``manage.py signin``: the administrator's sign-in chores.

- ``signin link USERNAME --issuer URL --subject SUB``: link an account to a person at an
  identity provider (a provider that sends no groups, such as Login.gov: its people are linked
  beforehand, their roles set in the admin).
- ``signin link-piv USERNAME "CERTIFICATE SUBJECT"``: link an account to a PIV certificate's
  subject, as the TLS proxy passes it (docs/sign-in.md).
- ``signin check``: fetch the configured provider's discovery document and keys, and print
  what the application will use (a deployment's first check).

Exit status 2 for an unknown user or a refused link."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from signin import accounts, config, oidc
from signin.models import PIV_ISSUER

EXIT_BAD_INPUT = 2
NO_SUCH_USER = "No account named {username!r}."
NOT_CONFIGURED = "Single sign-on is off: OIDC_ISSUER is not set."


class Command(BaseCommand):
    help = "Links accounts to identities (a provider's subject, a PIV certificate) and checks the provider."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        link = actions.add_parser("link", help="link an account to a subject at an identity provider")
        link.add_argument("username")
        link.add_argument("--issuer", required=True)
        link.add_argument("--subject", required=True)
        piv = actions.add_parser("link-piv", help="link an account to a PIV certificate's subject")
        piv.add_argument("username")
        piv.add_argument("subject")
        actions.add_parser("check", help="fetch the provider's discovery document and keys")

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        if action == "check":
            self._check()
            return
        try:
            user = User.objects.get(username=options["username"])
        except User.DoesNotExist:
            raise CommandError(NO_SUCH_USER.format(username=options["username"]), returncode=EXIT_BAD_INPUT) from None
        issuer = PIV_ISSUER if action == "link-piv" else options["issuer"]
        try:
            identity = accounts.identity_link(user=user, issuer=issuer, subject=options["subject"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages), returncode=EXIT_BAD_INPUT) from None
        self.stdout.write(f"Linked {user.get_username()} to {identity}.")

    def _check(self) -> None:
        sso = config.oidc()
        if sso is None:
            raise CommandError(NOT_CONFIGURED, returncode=EXIT_BAD_INPUT)
        try:
            found = oidc.metadata(sso, force=True)
            keys = oidc.keys(sso, force=True)
        except oidc.SignInRefused as refused:
            raise CommandError(refused.detail) from None
        self.stdout.write(f"Issuer: {found.issuer}")
        self.stdout.write(f"Authorization: {found.authorization_endpoint}")
        self.stdout.write(f"Token: {found.token_endpoint} (client authentication: {sso.client_auth})")
        self.stdout.write(f"Userinfo: {found.userinfo_endpoint or 'none'}")
        self.stdout.write(f"Sign-out: {found.end_session_endpoint or 'none (the local session only)'}")
        self.stdout.write(f"Keys: {', '.join(str(key.kid) for key in keys.keys)} ({', '.join(found.algorithms)})")
