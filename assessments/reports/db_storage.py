"""The report storage in the database: a Django storage keeping each file as a row of
:class:`~assessments.models.report_files.ReportFile`, so every web host and report worker
that shares the database shares the report cache (``reports.cache``), with no shared
folder and no other server. The default ``STORAGES["reports"]`` (``reviewer.report_storage``).

It behaves as Django's ``FileSystemStorage`` does where the cache relies on it:

- a file is written once: :meth:`save` of a name already taken stores the content under
  an available name (Django's ``get_available_name``: the name with ``_`` and seven random
  characters before the extension), also when another host takes the name between the
  check and the write (the unique name refuses the second row; it is saved again under
  an available name, as ``FileSystemStorage`` does on a file created meanwhile). The
  cache keeps the first and deletes the other;
- names are relative paths with forward slashes (``\\`` is read as ``/``; ``a//b`` and
  ``a/./b`` are ``a/b``); an absolute name or one with ``..`` raises
  ``SuspiciousFileOperation``, in every method;
- :meth:`open` of a missing file raises ``FileNotFoundError``; :meth:`delete` of one does
  nothing; a file is opened for reading only (whole, in memory: a PDF is a few hundred
  KB).

A file is never served by URL (:meth:`url` raises ``NotImplementedError``): the download
view reads it and sends it after checking who may have it. A write runs in a savepoint of
the caller's transaction, so a refused row leaves the caller's transaction usable.
"""

from __future__ import annotations

import posixpath
from datetime import datetime
from typing import Any, Literal, overload

from django.core.exceptions import SuspiciousFileOperation
from django.core.files.base import ContentFile, File
from django.core.files.storage import Storage
from django.core.files.utils import validate_file_name
from django.db import IntegrityError, router, transaction
from django.db.models import QuerySet
from django.utils.deconstruct import deconstructible

from assessments.models.report_files import NAME_MAX_LENGTH, ReportFile

NOT_SERVED_BY_URL = "Report files are never served by URL: the download view sends them after its checks."
READ_ONLY = "A report file is opened for reading only ({mode!r} asked); it is written once, by save()."
NAME_TOO_LONG = "A report file's name has at most {limit} characters; {name!r} has {length}."


@deconstructible(path="assessments.reports.db_storage.DatabaseReportStorage")
class DatabaseReportStorage(Storage):
    """Files as rows of :class:`ReportFile` in database ``using`` (default: the router's
    choice for the model, i.e. ``default``)."""

    def __init__(self, using: str | None = None) -> None:
        self.using = using

    # The database and the names.

    def _alias(self, *, write: bool) -> str:
        if self.using:
            return self.using
        return router.db_for_write(ReportFile) if write else router.db_for_read(ReportFile)

    def _files(self, *, write: bool = False) -> QuerySet[ReportFile]:
        return ReportFile.objects.using(self._alias(write=write))

    @staticmethod
    def _clean(name: str) -> str:
        """``name`` as stored: forward slashes, no ``.`` or empty parts; refused (as by
        ``FileSystemStorage``) when absolute or climbing out with ``..``."""
        name = str(name).replace("\\", "/")
        validate_file_name(name, allow_relative_path=True)
        return posixpath.normpath(name)

    def get_available_name(self, name: str, max_length: int | None = None) -> str:
        """Django's, never longer than the name column."""
        limit = NAME_MAX_LENGTH if max_length is None else min(max_length, NAME_MAX_LENGTH)
        return super().get_available_name(self._clean(name), max_length=limit)

    # Writing.

    def _save(self, name: str, content: File[bytes] | File[str]) -> str:
        name = self._clean(name)
        if len(name) > NAME_MAX_LENGTH:
            raise SuspiciousFileOperation(NAME_TOO_LONG.format(limit=NAME_MAX_LENGTH, name=name, length=len(name)))
        chunks = [chunk.encode() if isinstance(chunk, str) else bytes(chunk) for chunk in content.chunks()]
        data = b"".join(chunks)
        alias = self._alias(write=True)
        while True:
            try:
                with transaction.atomic(using=alias):
                    ReportFile.objects.using(alias).create(name=name, content=data, size=len(data))
            except IntegrityError:
                if not self.exists(name):
                    raise  # not the name taken meanwhile
                name = self.get_available_name(name)  # taken since save() looked: as FileSystemStorage
                continue
            return name

    def delete(self, name: str) -> None:
        if not name:
            raise ValueError("The name must be given to delete().")
        self._files(write=True).filter(name=self._clean(name)).delete()

    def delete_created_before(self, cutoff: datetime, *, under: str = "") -> int:
        """Delete the files (in folder ``under``, default all) written before ``cutoff``,
        in one statement; how many (``manage.py prune_report_cache``)."""
        files = self._files(write=True).filter(created_at__lt=cutoff)
        if under:
            files = files.filter(name__startswith=self._clean(under) + "/")
        deleted, _ = files.delete()
        return deleted

    # Reading.

    def _open(self, name: str, mode: str = "rb") -> File[Any]:
        if any(flag in mode for flag in "wax+"):
            raise ValueError(READ_ONLY.format(mode=mode))
        name = self._clean(name)
        content = self._files().filter(name=name).values_list("content", flat=True).first()
        if content is None:
            raise FileNotFoundError(f"No report file {name!r}.")
        data = bytes(content)  # PostgreSQL's driver returns a memoryview
        return ContentFile(data if "b" in mode else data.decode(), name=name)

    def exists(self, name: str) -> bool:
        return self._files().filter(name=self._clean(name)).exists()

    def size(self, name: str) -> int:
        return self._field(name, "size")

    def get_created_time(self, name: str) -> datetime:
        """When the file was written (aware when ``USE_TZ``, as Django's storages)."""
        return self._field(name, "created_at")

    def get_modified_time(self, name: str) -> datetime:
        """When the file was written: a file is never changed afterwards."""
        return self.get_created_time(name)

    @overload
    def _field(self, name: str, field: Literal["size"]) -> int: ...

    @overload
    def _field(self, name: str, field: Literal["created_at"]) -> datetime: ...

    def _field(self, name: str, field: str) -> object:
        name = self._clean(name)
        found = self._files().filter(name=name).values_list(field, flat=True)
        for value in found:
            return value
        raise FileNotFoundError(f"No report file {name!r}.")

    def listdir(self, path: str) -> tuple[list[str], list[str]]:
        """The folders and the files directly in ``path`` (``""`` the top), sorted; a
        folder is any name's leading part (there are no empty folders)."""
        path = str(path).replace("\\", "/").strip("/")
        prefix = "" if path in ("", ".") else self._clean(path) + "/"
        names = self._files().filter(name__startswith=prefix) if prefix else self._files()
        folders, files = set(), []
        for name in names.values_list("name", flat=True).order_by("name"):
            head, slash, _ = name[len(prefix):].partition("/")
            if slash:
                folders.add(head)
            else:
                files.append(head)
        return sorted(folders), files

    def url(self, name: str | None) -> str:
        raise NotImplementedError(NOT_SERVED_BY_URL)
