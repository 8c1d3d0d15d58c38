"""Rendered IRER PDFs, kept so a report is drawn by WeasyPrint once, not on every download.

A PDF is stored through Django's storage API (``STORAGES["reports"]``; a folder on disk,
``REPORT_CACHE_DIR``) under the SHA-256 of the HTML it is drawn from: the template's
output for the PDF, which holds every number, the CBI markings or their redactions, the
inlined print stylesheet, the status and the approver. Whatever changes what the report
prints changes the key, so an entry is never stale and is never overwritten: it is
written once, only if absent.

The report prints the assessment's own date (``Assessment.assessment_date``, as ChemSTEER
prints it beside the status), not the day it is drawn, so a draft's PDF is reused until
something it prints changes. ``printed_at`` stays in the context; should a template print
it again, a draft is keyed on it as printed (the date, not the time), while an approved
revision, which can never change, is keyed with it replaced by the approval time: the
revision has one file, drawn at its first download and served as stored ever after.
A revision approved with its report sealed (``reports.seal``) is served from its sealed
copy and never reaches this cache; the cache still serves a revision approved before
reports were sealed, and one whose case has had CBI claims made since its approval.

The cache is also where the report workers hand a PDF to the web (``reports.tasks``): a
worker draws the PDF and stores it here (:func:`store_pdf`), and the download serves it
from here (:func:`stored_pdf`). When the storage is missing, unreadable or full, the
worker's task fails with :class:`ReportNotStored` and the download page says so; a
storage that fails never serves a partial file. Who may have which copy is checked before
any of this (``reports.services``); the full and sanitised copies print different HTML,
so they are different entries.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import InvalidStorageError, Storage, storages

from .render import irer_html

logger = logging.getLogger(__name__)

STORAGE_ALIAS = "reports"
# Part of every key: raise it when the same HTML would now be drawn differently (WeasyPrint
# options in render.py, a WeasyPrint upgrade). Raising it also gives an approved revision a
# new file at its next download; the old file is left where it is. The vendored fonts the
# stylesheet imports are part of every key by their content (:func:`_fonts_digest`).
# 4: the record never contradicts itself (issue 41): printed names unique, no empty slot, the
# case's numbers as given. Copies sealed before are stored and never redrawn. 5: every page's
# footer names the engine that computed the figures and its conformance record's digest
# (issue 42: ``header.engine_footer``).
KEY_VERSION = "irer-pdf-5"  # 2: tagged PDF/A-2a; 3: the running header and footer as pagination artifacts
FONTS_DIR = settings.BASE_DIR / "static" / "fonts"


@cache
def _fonts_digest() -> bytes:
    """SHA-256 of the vendored font files and their stylesheet, which the report's CSS
    imports at render time and so does not carry in its HTML."""
    digest = hashlib.sha256()
    for path in sorted(FONTS_DIR.iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.digest()


def report_key(context: dict[str, Any], *, approved: bool) -> str:
    """SHA-256 (hex) of what the report prints: the PDF's HTML, with the print date fixed
    to the approval time for an approved revision."""
    if approved:
        context = {**context, "printed_at": context.get("approved_at")}
    html = irer_html(context, for_pdf=True)
    digest = hashlib.sha256(KEY_VERSION.encode())
    digest.update(b"\0" + _fonts_digest() + b"\0")
    digest.update(html.encode("utf-8"))
    return digest.hexdigest()


def report_storage() -> Storage | None:
    """The report storage (``STORAGES["reports"]``), or None when none is configured."""
    try:
        return storages[STORAGE_ALIAS]
    except InvalidStorageError:
        return None  # no "reports" storage configured: caching is off



def _name(key: str) -> str:
    return f"irer/{key[:2]}/{key}.pdf"


def _complete(pdf: bytes) -> bool:
    """A whole PDF, not one cut short by a full disk or a killed writer."""
    return pdf.startswith(b"%PDF-") and b"%%EOF" in pdf[-1024:]


# Write once, read whole: the report storage's one rule, for the PDFs here and the
# sensitivity bands (``band_tasks``). ``whole`` tells a whole file from one cut short.


def read_whole(storage: Storage, name: str, *, whole: Callable[[bytes], bool], what: str) -> bytes | None:
    """The whole file stored under ``name``, or None: none there, the storage unreadable
    (logged as ``what``), or a file cut short (deleted, so it is written again)."""
    try:
        if not storage.exists(name):
            return None
        with storage.open(name, "rb") as handle:
            content: bytes = handle.read()
    except Exception:  # any backend's failure: draw instead
        logger.warning("%s: cannot read %s", what, name, exc_info=True)
        return None
    if not whole(content):
        logger.warning("%s: %s is not whole; it will be written again", what, name)
        _delete(storage, name, what=what)
        return None
    return content


def _delete(storage: Storage, name: str, *, what: str) -> None:
    try:
        storage.delete(name)
    except Exception:
        logger.warning("%s: cannot delete %s", what, name, exc_info=True)


def write_once(storage: Storage, name: str, content: bytes, *, whole: Callable[[bytes], bool], what: str) -> None:
    """Store ``content`` under ``name`` unless something is there already (never overwrite).
    A failure is logged as ``what`` (the caller reads back to know); a partial write of its
    own is removed; a copy saved under another name because another writer stored the same
    file first is deleted, so one copy is kept."""
    try:
        if storage.exists(name):
            return
        saved = storage.save(name, ContentFile(content))
    except Exception:  # disk full, permission denied...
        logger.warning("%s: cannot store %s", what, name, exc_info=True)
        try:
            if storage.exists(name):
                with storage.open(name, "rb") as handle:
                    if not whole(handle.read()):
                        _delete(storage, name, what=what)  # our own partial write
        except Exception:
            pass
        return
    if saved != name:  # another writer stored the same file first; keep one copy
        _delete(storage, saved, what=what)


def _read(storage: Storage, name: str) -> bytes | None:
    return read_whole(storage, name, whole=_complete, what="IRER cache")


def _write(storage: Storage, name: str, pdf: bytes) -> None:
    write_once(storage, name, pdf, whole=_complete, what="IRER cache")


NO_REPORT_STORAGE = 'No report cache is configured (STORAGES["reports"]), so a drawn report has nowhere to go.'
NOT_STORED = "The report was drawn but could not be stored in the report cache (missing, full or unwritable)."


class ReportNotStored(Exception):
    """The PDF could not be stored, so the web cannot serve it; the message says why."""


def stored_pdf(*, key: str) -> bytes | None:
    """The whole PDF stored under ``key``, or None: none stored, no ``reports`` storage, or
    the storage unreadable (logged). Draws nothing."""
    storage = report_storage()
    return None if storage is None else _read(storage, _name(key))


def store_pdf(*, key: str, render: Callable[[], bytes]) -> None:
    """Make sure the PDF of ``key`` is stored: ``render()``'s, unless one is there already.
    For the report workers, which hand the file to the web through the storage: raises
    :class:`ReportNotStored` when it cannot be read back whole afterwards."""
    if report_storage() is None:
        raise ReportNotStored(NO_REPORT_STORAGE)
    cached_pdf(key=key, render=render)
    if stored_pdf(key=key) is None:
        raise ReportNotStored(NOT_STORED)


def cached_pdf(*, key: str, render: Callable[[], bytes]) -> bytes:
    """The PDF stored under ``key``, or ``render()``'s, stored for next time."""
    storage = report_storage()
    if storage is None:
        return render()
    name = _name(key)
    pdf = _read(storage, name)
    if pdf is not None:
        return pdf
    pdf = render()
    _write(storage, name, pdf)
    return pdf
