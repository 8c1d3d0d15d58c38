"""``manage.py prune_report_cache --older-than DAYS``: delete the report cache's PDFs
written more than DAYS days ago, from whichever storage ``STORAGES["reports"]`` is (the
database, an S3 bucket or a folder), so the cache does not grow for ever.

The cache is safe to empty: a deleted PDF is drawn again at its next download (by a
report worker) and stored again. Only the cache's own files are touched (under the
cache's folder, :data:`CACHE_FOLDER`). The approved copies (``SealedReport``, the IRER
as approved) are rows of another table and never evicted: this command cannot reach them.
A file is judged by when it was written, not when it was last downloaded (reading a PDF
records nothing), so a report still downloaded is drawn again once per period.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.files.storage import InvalidStorageError, Storage, storages
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from assessments.reports.cache import STORAGE_ALIAS
from assessments.reports.db_storage import DatabaseReportStorage

#: The folder of every name the cache stores (``reports.cache._name``: ``irer/ab/abcd….pdf``).
CACHE_FOLDER = "irer"

HELP = (
    "Delete the report cache's rendered IRER PDFs written more than --older-than DAYS days ago, from the "
    'report storage (STORAGES["reports"]: the database, S3 or a folder). A deleted PDF is drawn again at its '
    "next download. The approved copies (SealedReport rows) are another table and are never deleted."
)
NO_STORAGE = 'No report cache is configured (STORAGES["reports"]): nothing to prune.'
DAYS_NOT_POSITIVE = "--older-than must be a whole number of days of at least 1, not {days}."
PRUNED = "Deleted {count} report cache file(s) written before {cutoff:%Y-%m-%d %H:%M %Z}."


def prune(storage: Storage, *, cutoff: datetime) -> int:
    """Delete the cache's files in ``storage`` written before ``cutoff``; how many. The
    database storage deletes them in one statement; any other storage is walked through
    the storage API (``listdir``, ``get_modified_time``, ``delete``)."""
    if isinstance(storage, DatabaseReportStorage):
        return storage.delete_created_before(cutoff, under=CACHE_FOLDER)
    return _prune_folder(storage, CACHE_FOLDER, cutoff)


def _prune_folder(storage: Storage, folder: str, cutoff: datetime) -> int:
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:  # nothing stored yet
        return 0
    count = 0
    for name in files:
        path = f"{folder}/{name}"
        try:
            written = storage.get_modified_time(path)
        except FileNotFoundError:  # deleted meanwhile (another prune, or the cache)
            continue
        if timezone.is_naive(written):
            written = timezone.make_aware(written)
        if written < cutoff:
            storage.delete(path)
            count += 1
    for sub in folders:
        count += _prune_folder(storage, f"{folder}/{sub}", cutoff)
    return count


class Command(BaseCommand):
    help = HELP

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than", type=int, required=True, metavar="DAYS",
            help="delete the PDFs written more than DAYS days ago (at least 1)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["older_than"]
        if days < 1:
            raise CommandError(DAYS_NOT_POSITIVE.format(days=days))
        try:
            storage = storages[STORAGE_ALIAS]
        except InvalidStorageError as error:
            raise CommandError(NO_STORAGE) from error
        cutoff = timezone.now() - timedelta(days=days)
        count = prune(storage, cutoff=cutoff)
        self.stdout.write(PRUNED.format(count=count, cutoff=timezone.localtime(cutoff)))
