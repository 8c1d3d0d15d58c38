"""``python manage.py import_case case.json``: write a case exported by ``export_case``
into this installation (see assessments.transfer for the rules).

An existing case is never overwritten: the import is refused, naming the case number.
Users are matched by user name; a missing user stops the import (all missing names are
listed) unless ``--map-user OLD=NEW`` maps it to an existing one. Bad input (no such
file, not JSON, not a case export, an invalid row) exits with status 2 and a message,
having written nothing.
"""

import sys

from django.core.management.base import BaseCommand, CommandError

from assessments import transfer

EXIT_BAD_INPUT = 2


def _user_mapping(pairs: list[str]) -> dict[str, str]:
    mapping = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise CommandError(f"--map-user takes OLD=NEW (user names), not {pair!r}.", returncode=EXIT_BAD_INPUT)
        mapping[old.strip()] = new.strip()
    return mapping


class Command(BaseCommand):
    help = (
        "Imports a case written by export_case. Refuses (exit status 2, nothing written) a case number that "
        "exists already, users that do not exist here (unless mapped with --map-user OLD=NEW), and any file "
        "that is not a valid case export. Use - to read standard input."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON file export_case wrote, or - for standard input")
        parser.add_argument(
            "--map-user",
            action="append",
            default=[],
            metavar="OLD=NEW",
            help="record the file's user OLD as this installation's user NEW (repeatable)",
        )

    def handle(self, *args, file: str, map_user: list[str], **options):
        user_map = _user_mapping(map_user)
        source = "standard input" if file == "-" else file
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as exc:
            raise CommandError(f"Cannot read {source}: {exc.strerror}.", returncode=EXIT_BAD_INPUT) from None
        except UnicodeDecodeError:
            raise CommandError(f"{source} is not UTF-8 text.", returncode=EXIT_BAD_INPUT) from None
        try:
            document = transfer.loads(text, source=source)
            submission = transfer.case_import(document=document, user_map=user_map)
        except transfer.TransferError as exc:
            raise CommandError(str(exc), returncode=EXIT_BAD_INPUT) from None
        revisions = submission.assessments.count()
        self.stdout.write(
            self.style.SUCCESS(f"Imported case {submission.case_number} with {revisions} revision(s).")
        )
