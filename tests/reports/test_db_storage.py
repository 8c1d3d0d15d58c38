"""The report storage in the database (assessments.reports.db_storage): a Django storage
whose files are ReportFile rows, behaving as FileSystemStorage does where the report cache
relies on it (written once, a taken name saved under another, names as relative paths,
missing files), plus the eviction command (manage.py prune_report_cache) on it and on a
folder, and the choice of storage from the environment (reviewer.report_storage)."""

from __future__ import annotations

import datetime
import io
import os
from unittest import mock

import pytest
from django.core.exceptions import ImproperlyConfigured, SuspiciousFileOperation
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, storages
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError
from django.utils import timezone
from django.utils.module_loading import import_string

from assessments.management.commands import prune_report_cache
from assessments.models import ReportFile, SealedReport
from assessments.reports import cache
from assessments.reports.db_storage import NOT_SERVED_BY_URL, READ_ONLY, DatabaseReportStorage
from reviewer import report_storage
from reviewer.report_storage import reports_storage_setting

PDF = b"%PDF-1.7\n" + bytes(range(256)) * 1200 + b"\n%%EOF\n"  # 300 KiB, every byte value
KEY = "ab" + "c" * 62
DB_STORAGE = {"BACKEND": "assessments.reports.db_storage.DatabaseReportStorage"}


@pytest.fixture
def storage(db) -> DatabaseReportStorage:
    return DatabaseReportStorage()


@pytest.fixture
def db_reports(settings, db):
    """``STORAGES["reports"]`` is the database storage."""
    settings.STORAGES = {**settings.STORAGES, "reports": DB_STORAGE}
    return storages["reports"]


# Saving, reading and deleting.


def test_a_file_is_read_back_byte_for_byte(storage):
    assert storage.save("irer/ab/report.pdf", ContentFile(PDF)) == "irer/ab/report.pdf"
    with storage.open("irer/ab/report.pdf") as handle:
        assert handle.read() == PDF
    row = ReportFile.objects.get()
    assert (row.name, row.size, bytes(row.content)) == ("irer/ab/report.pdf", len(PDF), PDF)


def test_exists_size_and_times_of_a_stored_file(storage):
    before = timezone.now()
    storage.save("irer/ab/report.pdf", ContentFile(PDF))
    assert storage.exists("irer/ab/report.pdf") and not storage.exists("irer/ab/other.pdf")
    assert storage.size("irer/ab/report.pdf") == len(PDF) == 307_200 + 16
    written = storage.get_created_time("irer/ab/report.pdf")
    assert before <= written <= timezone.now() and timezone.is_aware(written)
    assert storage.get_modified_time("irer/ab/report.pdf") == written  # never changed after


def test_an_empty_file_is_stored_and_read_back_empty(storage):
    assert storage.save("irer/empty.pdf", ContentFile(b"")) == "irer/empty.pdf"
    assert storage.exists("irer/empty.pdf") and storage.size("irer/empty.pdf") == 0
    assert storage.open("irer/empty.pdf").read() == b""


def test_a_file_opened_as_text_is_decoded(storage):
    storage.save("notes/readme.txt", ContentFile("Réport"))
    assert storage.open("notes/readme.txt", "r").read() == "Réport"
    assert storage.open("notes/readme.txt").read() == "Réport".encode()


def test_a_plain_file_object_is_saved_whole(storage):
    assert storage.save("irer/plain.pdf", io.BytesIO(PDF)) == "irer/plain.pdf"
    assert storage.open("irer/plain.pdf").read() == PDF


def test_a_file_is_opened_for_reading_only(storage):
    storage.save("irer/report.pdf", ContentFile(PDF))
    for mode in ("wb", "ab", "r+b", "xb"):
        with pytest.raises(ValueError) as refused:
            storage.open("irer/report.pdf", mode)
        assert str(refused.value) == READ_ONLY.format(mode=mode)
    assert storage.open("irer/report.pdf").read() == PDF


def test_a_missing_file_cannot_be_opened_or_measured(storage):
    for call in (storage.open, storage.size, storage.get_created_time, storage.get_modified_time):
        with pytest.raises(FileNotFoundError):
            call("irer/missing.pdf")


def test_delete_removes_the_file_and_ignores_a_missing_one(storage):
    storage.save("irer/report.pdf", ContentFile(PDF))
    storage.delete("irer/report.pdf")
    storage.delete("irer/report.pdf")  # as FileSystemStorage: no error
    assert not storage.exists("irer/report.pdf") and not ReportFile.objects.exists()
    with pytest.raises(ValueError):
        storage.delete("")


# Written once: a taken name.


def test_saving_a_taken_name_keeps_the_first_and_stores_under_another_name(storage):
    storage.save("irer/ab/report.pdf", ContentFile(PDF))
    other = storage.save("irer/ab/report.pdf", ContentFile(b"%PDF-second"))
    assert other != "irer/ab/report.pdf"
    assert other.startswith("irer/ab/report_") and other.endswith(".pdf") and len(other) == len("irer/ab/report.pdf") + 8
    assert storage.open("irer/ab/report.pdf").read() == PDF
    assert storage.open(other).read() == b"%PDF-second"


def test_a_name_taken_between_the_check_and_the_write_is_saved_under_another(storage):
    """Another host stores the same name after save() found it free: the unique name
    refuses the second row, which is saved under an available name (as FileSystemStorage
    does with a file created meanwhile), and the caller's transaction is still usable."""
    ReportFile.objects.create(name="irer/ab/report.pdf", content=PDF, size=len(PDF))  # the other host's
    real_exists, stale = storage.exists, [False]  # save() looked before the other host wrote
    with mock.patch.object(storage, "exists", side_effect=lambda name: stale.pop() if stale else real_exists(name)):
        saved = storage.save("irer/ab/report.pdf", ContentFile(b"%PDF-second"))
    assert saved != "irer/ab/report.pdf" and saved.startswith("irer/ab/report_")
    assert storage.open("irer/ab/report.pdf").read() == PDF and storage.open(saved).read() == b"%PDF-second"
    assert ReportFile.objects.count() == 2  # the transaction goes on


def test_another_database_error_is_not_taken_for_a_taken_name(storage):
    with mock.patch("django.db.models.query.QuerySet.create", side_effect=IntegrityError("some other constraint")), \
            pytest.raises(IntegrityError, match="some other constraint"):
        storage.save("irer/report.pdf", ContentFile(PDF))


def test_the_cache_stores_a_pdf_once_and_reads_it_back(db_reports):
    renders = mock.Mock(return_value=PDF)
    cache.store_pdf(key=KEY, render=renders)
    cache.store_pdf(key=KEY, render=renders)
    assert renders.call_count == 1
    assert cache.stored_pdf(key=KEY) == PDF
    assert list(ReportFile.objects.values_list("name", flat=True)) == [cache._name(KEY)]


def test_the_cache_drops_a_stored_file_that_is_not_a_whole_pdf(db_reports):
    ReportFile.objects.create(name=cache._name(KEY), content=PDF[:1000], size=1000)
    assert cache.stored_pdf(key=KEY) is None
    assert not ReportFile.objects.exists()


# Names.


@pytest.mark.parametrize("name", ["/etc/passwd", "../outside.pdf", "irer/../../outside.pdf", "irer\\..\\..\\x.pdf"])
def test_a_name_outside_the_storage_is_refused_everywhere(storage, name):
    for call in (lambda: storage.save(name, ContentFile(PDF)), lambda: storage.open(name),
                 lambda: storage.exists(name), lambda: storage.delete(name), lambda: storage.size(name)):
        with pytest.raises(SuspiciousFileOperation):
            call()
    assert not ReportFile.objects.exists()


@pytest.mark.parametrize("name", ["irer/", "irer/..", "."])
def test_a_name_with_no_file_name_is_refused(storage, name):
    with pytest.raises(SuspiciousFileOperation):
        storage.save(name, ContentFile(PDF))


def test_backslashes_and_empty_parts_name_the_same_file_as_on_disk(storage):
    assert storage.save("irer\\ab\\report.pdf", ContentFile(PDF)) == "irer/ab/report.pdf"
    for same in ("irer/ab/report.pdf", "irer//ab/report.pdf", "irer/./ab/report.pdf", "irer\\ab\\report.pdf"):
        assert storage.exists(same) and storage.open(same).read() == PDF


def test_a_name_is_never_longer_than_the_column(storage):
    long_name = "irer/" + "r" * 300 + ".pdf"
    saved = storage.save(long_name, ContentFile(PDF))
    assert len(saved) <= 255 and saved.startswith("irer/rrr") and saved.endswith(".pdf")
    assert storage.open(saved).read() == PDF


def test_listdir_names_the_folders_and_files_directly_in_a_folder(storage):
    for name in ("irer/ab/one.pdf", "irer/ab/two.pdf", "irer/cd/three.pdf", "irer/top.pdf", "other.txt",
                 "irer_like/x.pdf", "irer%/y.pdf"):
        storage.save(name, ContentFile(b"x"))
    assert storage.listdir("") == (["irer", "irer%", "irer_like"], ["other.txt"])
    assert storage.listdir("irer") == (["ab", "cd"], ["top.pdf"])
    assert storage.listdir("irer/") == storage.listdir("irer")
    assert storage.listdir("irer/ab") == ([], ["one.pdf", "two.pdf"])
    assert storage.listdir("nothing") == ([], [])


def test_a_file_is_never_served_by_url(storage):
    with pytest.raises(NotImplementedError) as refused:
        storage.url("irer/report.pdf")
    assert str(refused.value) == NOT_SERVED_BY_URL
    with pytest.raises(NotImplementedError):
        storage.path("irer/report.pdf")  # nor from a path on disk


def test_the_storage_is_deconstructible_for_migrations():
    path, args, kwargs = DatabaseReportStorage(using="default").deconstruct()
    assert (path, args, kwargs) == ("assessments.reports.db_storage.DatabaseReportStorage", (), {"using": "default"})


def test_a_named_database_is_used_for_reads_and_writes(storage):
    named = DatabaseReportStorage(using="default")
    named.save("irer/report.pdf", ContentFile(PDF))
    assert storage.open("irer/report.pdf").read() == PDF


# Eviction: manage.py prune_report_cache.


def age(name: str, days: float) -> None:
    ReportFile.objects.filter(name=name).update(created_at=timezone.now() - datetime.timedelta(days=days))


def prune(days: int) -> str:
    out = io.StringIO()
    call_command("prune_report_cache", "--older-than", str(days), stdout=out)
    return out.getvalue()


def test_prune_deletes_the_cache_files_written_before_the_period(db_reports):
    keys = ["a" * 64, "b" * 64, "c" * 64]
    for key in keys:
        db_reports.save(cache._name(key), ContentFile(PDF))
    age(cache._name(keys[0]), 31)
    age(cache._name(keys[1]), 29)
    assert prune(30).startswith("Deleted 1 report cache file(s) written before ")
    assert sorted(ReportFile.objects.values_list("name", flat=True)) == [cache._name(k) for k in keys[1:]]


def test_prune_leaves_files_outside_the_cache_folder(db_reports):
    db_reports.save("elsewhere/old.pdf", ContentFile(PDF))
    age("elsewhere/old.pdf", 400)
    assert prune(1).startswith("Deleted 0 ")
    assert ReportFile.objects.filter(name="elsewhere/old.pdf").exists()


def test_every_cache_name_is_in_the_folder_prune_looks_in():
    assert cache._name(KEY).startswith(prune_report_cache.CACHE_FOLDER + "/")


def test_prune_never_touches_the_sealed_approved_copies(db_reports, reviewer, supervisor, sample_assessment):
    """Even a cutoff after every row (every cache file is older) leaves the sealed copies:
    they are another table (and final: PostgreSQL refuses to change one)."""
    from tests.reports.test_sealed_irer import approve

    approve(sample_assessment, reviewer, supervisor)
    sealed = list(SealedReport.objects.values_list("pk", "sha256"))
    db_reports.save(cache._name(KEY), ContentFile(PDF))
    assert sealed and ReportFile.objects.exists()
    tomorrow = timezone.now() + datetime.timedelta(days=1)
    assert prune_report_cache.prune(db_reports, cutoff=tomorrow) == 1
    assert not ReportFile.objects.exists()
    assert list(SealedReport.objects.values_list("pk", "sha256")) == sealed


def test_prune_on_a_folder_walks_it_through_the_storage_api(settings, tmp_path, db):
    settings.STORAGES = {**settings.STORAGES,
                         "reports": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                                     "OPTIONS": {"location": tmp_path}}}
    folder = FileSystemStorage(location=tmp_path)
    old, new = cache._name("a" * 64), cache._name("b" * 64)
    for name in (old, new, "elsewhere.pdf"):
        folder.save(name, ContentFile(PDF))
    long_ago = (timezone.now() - datetime.timedelta(days=40)).timestamp()
    for name in (old, "elsewhere.pdf"):
        os.utime(tmp_path / name, (long_ago, long_ago))
    assert prune(30).startswith("Deleted 1 ")
    assert not (tmp_path / old).exists() and (tmp_path / new).exists() and (tmp_path / "elsewhere.pdf").exists()


def test_prune_of_an_empty_folder_deletes_nothing(settings, tmp_path, db):
    settings.STORAGES = {**settings.STORAGES,
                         "reports": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                                     "OPTIONS": {"location": tmp_path / "never-written"}}}
    assert prune(30).startswith("Deleted 0 ")


def test_prune_needs_a_period_of_at_least_one_day(db_reports):
    with pytest.raises(CommandError) as refused:
        prune(0)
    assert str(refused.value) == prune_report_cache.DAYS_NOT_POSITIVE.format(days=0)


def test_prune_says_so_when_no_report_storage_is_configured(settings, db):
    settings.STORAGES = {name: value for name, value in settings.STORAGES.items() if name != "reports"}
    with pytest.raises(CommandError) as refused:
        prune(30)
    assert str(refused.value) == prune_report_cache.NO_STORAGE


def test_the_help_says_approved_copies_are_never_deleted():
    assert "approved copies (SealedReport rows) are another table and are never deleted" in prune_report_cache.HELP


# The storage chosen by the environment (reviewer.report_storage).


def test_the_database_is_the_default():
    assert reports_storage_setting({}) == {"BACKEND": report_storage.DATABASE_BACKEND} == DB_STORAGE
    assert reports_storage_setting({"REPORT_STORAGE": "database"}) == DB_STORAGE
    assert import_string(DB_STORAGE["BACKEND"]) is DatabaseReportStorage


def test_filesystem_is_the_folder_readable_by_its_owner_only(tmp_path):
    setting = reports_storage_setting({"REPORT_STORAGE": "filesystem"}, cache_dir=tmp_path)
    assert setting == {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": tmp_path, "file_permissions_mode": 0o600, "directory_permissions_mode": 0o700},
    }
    from_environ = reports_storage_setting({"REPORT_STORAGE": "filesystem", "REPORT_CACHE_DIR": str(tmp_path)})
    assert from_environ["OPTIONS"]["location"] == tmp_path


@pytest.mark.parametrize("value", ["postgres", "S3 ", "disk", "files"])
def test_an_unknown_storage_is_refused_by_name(value):
    with pytest.raises(ImproperlyConfigured) as refused:
        reports_storage_setting({"REPORT_STORAGE": value})
    assert str(refused.value) == f"REPORT_STORAGE must be one of database, s3, filesystem, not {value.strip()!r}."


S3_ENV = {"REPORT_STORAGE": "s3", "AWS_STORAGE_BUCKET_NAME": "pmn-reports",
          "AWS_S3_ENDPOINT_URL": "https://minio.example.internal:9000"}


def test_s3_is_a_private_bucket_written_once_encrypted_and_never_served_by_url():
    assert reports_storage_setting(S3_ENV) == {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": "pmn-reports", "endpoint_url": "https://minio.example.internal:9000",
            "default_acl": "private", "querystring_auth": False, "file_overwrite": False,
            "object_parameters": {"ServerSideEncryption": "AES256"},
        },
    }


def test_s3_encryption_with_a_kms_key_or_none_and_a_region():
    kms = reports_storage_setting({**S3_ENV, "REPORT_S3_ENCRYPTION": "aws:kms", "REPORT_S3_KMS_KEY_ID": "alias/pmn",
                                   "AWS_S3_REGION_NAME": "us-east-1"})["OPTIONS"]
    assert kms["object_parameters"] == {"ServerSideEncryption": "aws:kms", "SSEKMSKeyId": "alias/pmn"}
    assert kms["region_name"] == "us-east-1"
    none = reports_storage_setting({**S3_ENV, "REPORT_S3_ENCRYPTION": "none"})["OPTIONS"]
    assert none["object_parameters"] == {}
    aws = reports_storage_setting({"REPORT_STORAGE": "s3", "AWS_STORAGE_BUCKET_NAME": "b"})["OPTIONS"]
    assert "endpoint_url" not in aws and "region_name" not in aws  # AWS itself


@pytest.mark.parametrize("env", [{"REPORT_STORAGE": "s3"}, {"REPORT_STORAGE": "s3", "AWS_STORAGE_BUCKET_NAME": " "}])
def test_s3_without_a_bucket_is_refused_by_name(env):
    with pytest.raises(ImproperlyConfigured) as refused:
        reports_storage_setting(env)
    assert str(refused.value) == report_storage.NO_BUCKET
    assert "AWS_STORAGE_BUCKET_NAME" in str(refused.value)


def test_s3_with_an_unknown_encryption_or_a_stray_kms_key_is_refused_by_name():
    with pytest.raises(ImproperlyConfigured) as refused:
        reports_storage_setting({**S3_ENV, "REPORT_S3_ENCRYPTION": "yes"})
    assert str(refused.value) == "REPORT_S3_ENCRYPTION must be one of AES256, aws:kms, none, not 'yes'."
    with pytest.raises(ImproperlyConfigured) as refused:
        reports_storage_setting({**S3_ENV, "REPORT_S3_KMS_KEY_ID": "alias/pmn"})
    assert str(refused.value) == report_storage.KMS_KEY_WITHOUT_KMS.format(value="AES256")


def test_the_s3_setting_builds_django_storages_s3_backend_without_the_network(settings, monkeypatch):
    """The setting as STORAGES["reports"] gives django-storages' S3Storage with its options;
    constructing it contacts nothing (boto3 connects at the first file operation)."""
    from storages.backends.s3 import S3Storage

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test-key-id")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
    settings.STORAGES = {**settings.STORAGES, "reports": reports_storage_setting(S3_ENV)}
    with mock.patch("socket.create_connection", side_effect=AssertionError("network contacted")):
        reports = storages["reports"]
        assert type(reports) is S3Storage
        assert (reports.bucket_name, reports.endpoint_url, reports.default_acl) == (
            "pmn-reports", "https://minio.example.internal:9000", "private")
        assert reports.querystring_auth is False and reports.file_overwrite is False
        assert reports.object_parameters == {"ServerSideEncryption": "AES256"}
        assert (reports.access_key, reports.secret_key) == ("test-key-id", "test-secret")  # boto3's variables
        params = reports._get_write_parameters("irer/ab/x.pdf")
        assert params["ServerSideEncryption"] == "AES256" and params["ACL"] == "private"
        assert params["ContentType"] == "application/pdf"
