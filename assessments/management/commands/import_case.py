"""``python manage.py import_case case.json``: write a case exported by ``export_case``
into this installation (see assessments.transfer for the rules).

An existing case is never overwritten: the import is refused, naming the case number.
Users are matched by user name; a missing user stops the import (all missing names are
listed) unless ``--map-user OLD=NEW`` maps it to an existing one. Every row is checked as
the application checks it (the model, the engine, the review trail, the case as each
approved revision keeps it; see ``assessments.transfer``). To import a case under a new
number, change ``case.case_number`` in the file: the case as approved follows it. Bad input (no such file, a file over
``transfer.MAX_FILE_BYTES``, not UTF-8, not JSON, not a case export, an invalid row)
exits with status 2 and a message naming the place in the file, having written nothing.

Each approved revision is sealed here as its approval seals it (its IRER drawn by this
installation, never taken from the file); after the line naming the case, one line per
sealed copy says whether it is the exporting system's, byte for byte, or was drawn again
(both SHA-256 digests, and why), in which case a PDF handed out before the import
verifies here as not sealed (``transfer.sealed``).
"""

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

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
        "that is not a valid case export or holds anything the application would refuse (an invalid row, "
        "inputs the engine refuses, a result the engine does not reproduce, a review trail the workflow "
        "does not write, an approved revision's case data that is not the case's, a sealed copy whose bytes are not "
        "the SHA-256 given). Each approved revision is sealed here, drawn by this installation; one line per "
        "sealed copy says whether it is the exporting system's. Use - to read standard input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file export_case wrote, or - for standard input")
        parser.add_argument(
            "--map-user",
            action="append",
            default=[],
            metavar="OLD=NEW",
            help="record the file's user OLD as this installation's user NEW (repeatable)",
        )

    def handle(self, *args: Any, file: str, map_user: list[str], **options: Any) -> None:
        user_map = _user_mapping(map_user)
        source = "standard input" if file == "-" else file
        limit = transfer.MAX_FILE_BYTES + 1  # one byte more than allowed tells a file that is too large
        try:
            if file == "-":
                stream = getattr(sys.stdin, "buffer", None)
                data = stream.read(limit) if stream is not None else sys.stdin.read(limit)
            else:
                with open(file, "rb") as handle:
                    data = handle.read(limit)
        except OSError as exc:
            raise CommandError(f"Cannot read {source}: {exc.strerror}.", returncode=EXIT_BAD_INPUT) from None
        try:
            document = transfer.loads(data, source=source)
            imported = transfer.case_import_report(document=document, user_map=user_map)
        except transfer.TransferError as exc:
            raise CommandError(str(exc), returncode=EXIT_BAD_INPUT) from None
        submission = imported.submission
        revisions = submission.assessments.count()
        self.stdout.write(
            self.style.SUCCESS(f"Imported case {submission.case_number} with {revisions} revision(s).")
        )
        for outcome in imported.seals:
            line = outcome.message
            self.stdout.write(line if outcome.same else self.style.WARNING(line))
