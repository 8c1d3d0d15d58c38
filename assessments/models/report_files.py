"""The report cache's files, kept in the database (``reports.db_storage``): one row per
file, so every web host and report worker sharing the database shares the rendered PDFs
without a shared folder or another server.

A row is the cache's, and the cache is safe to empty: rows are written once (never
updated) and deleted by ``manage.py prune_report_cache`` or when the cache finds one cut
short. The approved copies are not here: they are :class:`~.sealed.SealedReport` rows,
which nothing evicts.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

#: The longest name a file may have (Django's FileField default, and the column's width).
NAME_MAX_LENGTH = 255


class ReportFile(models.Model):
    """One file of the report storage: its name (a relative path with forward slashes, as
    the cache names it: ``irer/ab/abcd….pdf``), its bytes and when it was written."""

    name = models.CharField(max_length=NAME_MAX_LENGTH, unique=True)
    content = models.BinaryField(editable=False)
    size = models.PositiveBigIntegerField("size [bytes]", editable=False)
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = "report cache file"

    def __str__(self) -> str:
        return f"{self.name} ({self.size} bytes)"
