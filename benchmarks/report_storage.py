"""Time to store and read back a 300 KB PDF in the report storage: the database
(``reports.db_storage``, the default: SQLite here unless DATABASE_URL points at
PostgreSQL) beside a folder on this host (``FileSystemStorage``, what the cache used
before). Each figure is the median of --repeat runs: a store of a new file
(``storage.save``), a read of a stored one (``open`` and ``read``), and the cache's whole
hit (``cache.stored_pdf``: exists, open, read, checked whole), as a download and a worker
pay them. The PDF is random bytes between a PDF's header and trailer, so no layer can
compress it (a rendered IRER's streams are compressed already). Prints figures; asserts
nothing.

    .venv/bin/python benchmarks/report_storage.py [--repeat 50] [--kib 300]
    DATABASE_URL=postgres://... .venv/bin/python benchmarks/report_storage.py
"""

import argparse
import itertools
import os
import tempfile

from _django import test_database
from _report import median_seconds, ms, save_figures, table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--kib", type=int, default=300, help="size of the PDF [KiB]")
    args = parser.parse_args()
    pdf = b"%PDF-1.7\n" + os.urandom(args.kib * 1024 - 16) + b"\n%%EOF\n"
    with test_database() as connection, tempfile.TemporaryDirectory(prefix="pmn-bench-reports-") as folder:
        from django.core.files.base import ContentFile
        from django.core.files.storage import FileSystemStorage
        from django.test import override_settings

        from assessments.reports import cache
        from assessments.reports.db_storage import DatabaseReportStorage

        storages = {
            f"database ({connection.vendor})": (
                DatabaseReportStorage(), {"BACKEND": "assessments.reports.db_storage.DatabaseReportStorage"}),
            "folder (FileSystemStorage)": (
                FileSystemStorage(location=folder),
                {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": folder}}),
        }
        rows, figures = [], {"kib": args.kib, "repeat": args.repeat}
        for label, (storage, setting) in storages.items():
            numbers = itertools.count()
            stored = storage.save(cache._name("0" * 64), ContentFile(pdf))

            def store(storage=storage, numbers=numbers):
                storage.save(cache._name(f"{next(numbers) + 1:064x}"), ContentFile(pdf))

            def read(storage=storage, stored=stored):
                with storage.open(stored) as handle:
                    assert handle.read() == pdf

            def hit():
                assert cache.stored_pdf(key="0" * 64) == pdf

            store_s = median_seconds(store, args.repeat)
            read_s = median_seconds(read, args.repeat)
            with override_settings(STORAGES={"reports": setting}):
                hit_s = median_seconds(hit, args.repeat)
            rows.append([label, ms(store_s, 2), ms(read_s, 2), ms(hit_s, 2),
                         f"{args.kib / 1024 / read_s:.0f}"])
            key = "database" if isinstance(storage, DatabaseReportStorage) else "folder"
            figures |= {f"{key}_store_s": store_s, f"{key}_read_s": read_s, f"{key}_hit_s": hit_s}

    print(f"Report storage, a {args.kib} KiB PDF, median of {args.repeat} [ms]:")
    print(table(["storage", "store", "read", "cache hit", "read MiB/s"], rows))
    save_figures("report_storage", figures)


if __name__ == "__main__":
    main()
