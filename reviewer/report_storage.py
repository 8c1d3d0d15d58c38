"""Where the rendered IRER PDFs are kept (``STORAGES["reports"]``, the report cache of
``assessments.reports.cache``), chosen by ``REPORT_STORAGE``:

``database`` (default)  rows of the application's database (``reports.db_storage``): every
                        web host and report worker on the database shares them; no other
                        server. Works on SQLite (the quick start) and PostgreSQL.
``s3``                  an S3-compatible object store through django-storages
                        (``storages.backends.s3.S3Storage``): ``AWS_STORAGE_BUCKET_NAME``
                        (required), ``AWS_S3_ENDPOINT_URL`` (a MinIO, Ceph or other
                        S3-compatible server; unset for AWS itself), ``AWS_S3_REGION_NAME``
                        (optional); the credentials are boto3's own (``AWS_ACCESS_KEY_ID``
                        and ``AWS_SECRET_ACCESS_KEY``, or an instance role), never in the
                        settings. Objects are private, written once (never overwritten),
                        never served by URL, and encrypted at rest by the server as
                        ``REPORT_S3_ENCRYPTION`` says: ``AES256`` (default), ``aws:kms``
                        (with ``REPORT_S3_KMS_KEY_ID``, else the account's default key)
                        or ``none`` (a server without encryption configured).
``filesystem``          the folder ``REPORT_CACHE_DIR``, readable by the application's user
                        only: for a single host (web and workers on one machine).

The approved copies are not in this storage: they are rows of the database
(``SealedReport``), on every host, never evicted. The cache is safe to empty
(``manage.py prune_report_cache``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

DATABASE, S3, FILESYSTEM = "database", "s3", "filesystem"
CHOICES = (DATABASE, S3, FILESYSTEM)
ENCRYPTIONS = ("AES256", "aws:kms", "none")

DATABASE_BACKEND = "assessments.reports.db_storage.DatabaseReportStorage"
S3_BACKEND = "storages.backends.s3.S3Storage"
FILESYSTEM_BACKEND = "django.core.files.storage.FileSystemStorage"

UNKNOWN_STORAGE = "REPORT_STORAGE must be one of {choices}, not {value!r}."
NO_BUCKET = "REPORT_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME: the bucket the report PDFs are kept in."
UNKNOWN_ENCRYPTION = "REPORT_S3_ENCRYPTION must be one of {choices}, not {value!r}."
KMS_KEY_WITHOUT_KMS = "REPORT_S3_KMS_KEY_ID is set, so REPORT_S3_ENCRYPTION must be aws:kms, not {value!r}."


def _choice(environ: Mapping[str, str], name: str, default: str, choices: tuple[str, ...], message: str) -> str:
    value = environ.get(name, "").strip() or default
    if value not in choices:
        raise ImproperlyConfigured(message.format(choices=", ".join(choices), value=value))
    return value


def reports_storage_setting(environ: Mapping[str, str], *, cache_dir: Path | str | None = None) -> dict[str, Any]:
    """``STORAGES["reports"]`` for the environment ``environ`` (``os.environ``).
    ``cache_dir`` is the folder of ``REPORT_STORAGE=filesystem`` (settings.REPORT_CACHE_DIR;
    default: ``REPORT_CACHE_DIR`` from ``environ``, else ``report_cache`` in the project).
    Raises ImproperlyConfigured naming the variable for a value it does not know."""
    kind = _choice(environ, "REPORT_STORAGE", DATABASE, CHOICES, UNKNOWN_STORAGE)
    if kind == DATABASE:
        return {"BACKEND": DATABASE_BACKEND}
    if kind == FILESYSTEM:
        if cache_dir is None:
            cache_dir = environ.get("REPORT_CACHE_DIR") or Path(__file__).resolve().parent.parent / "report_cache"
        return {
            "BACKEND": FILESYSTEM_BACKEND,
            "OPTIONS": {"location": Path(cache_dir), "file_permissions_mode": 0o600,
                        "directory_permissions_mode": 0o700},
        }
    return {"BACKEND": S3_BACKEND, "OPTIONS": _s3_options(environ)}


def _s3_options(environ: Mapping[str, str]) -> dict[str, Any]:
    bucket = environ.get("AWS_STORAGE_BUCKET_NAME", "").strip()
    if not bucket:
        raise ImproperlyConfigured(NO_BUCKET)
    encryption = _choice(environ, "REPORT_S3_ENCRYPTION", "AES256", ENCRYPTIONS, UNKNOWN_ENCRYPTION)
    kms_key = environ.get("REPORT_S3_KMS_KEY_ID", "").strip()
    if kms_key and encryption != "aws:kms":
        raise ImproperlyConfigured(KMS_KEY_WITHOUT_KMS.format(value=encryption))
    object_parameters = {} if encryption == "none" else {"ServerSideEncryption": encryption}
    if kms_key:
        object_parameters["SSEKMSKeyId"] = kms_key
    options = {
        "bucket_name": bucket,
        "default_acl": "private",
        "querystring_auth": False,  # never served by URL: the download view sends the bytes
        "file_overwrite": False,  # written once: a taken name gets another, as on disk
        "object_parameters": object_parameters,
    }
    for option, variable in (("endpoint_url", "AWS_S3_ENDPOINT_URL"), ("region_name", "AWS_S3_REGION_NAME")):
        value = environ.get(variable, "").strip()
        if value:
            options[option] = value
    return options
