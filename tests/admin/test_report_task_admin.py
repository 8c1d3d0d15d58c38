"""The report queue's admin page lists the tasks but never shows a task's arguments: a
queued report task carries the report's HTML, CBI included (assessments.reports.tasks)."""

import pytest
from django.conf import settings as project_settings
from django_tasks_db.models import DBTaskResult

from tests.reports.conftest import cbi_assessment

pytestmark = pytest.mark.django_db

DATABASE_BACKEND = project_settings.QUEUE_TASKS  # the production queue (reviewer/settings.py)


def test_a_queued_report_tasks_html_is_not_on_its_admin_page(client, django_user_model, settings, tmp_path,
                                                              cbi_assessment):
    settings.TASKS = DATABASE_BACKEND
    settings.STORAGES = {**settings.STORAGES, "reports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": tmp_path}}}
    client.force_login(cbi_assessment.engineer)
    assert client.get(f"/assessments/{cbi_assessment.pk}/irer.pdf").status_code == 202  # queued, not drawn
    [task] = DBTaskResult.objects.all()
    assert "Tetrakis(ethylmethylamino)hafnium" in str(task.args_kwargs)  # the claimed name, in the queue

    admin = django_user_model.objects.create_superuser("admin", password="pw-for-tests-only")
    client.force_login(admin)
    listing = client.get("/admin/django_tasks_database/dbtaskresult/")
    assert listing.status_code == 200 and str(task.id) in listing.content.decode()
    page = client.get(f"/admin/django_tasks_database/dbtaskresult/{task.id}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "assessments.reports.tasks.irer_render" in html
    assert "Tetrakis" not in html and "args kwargs" not in html.lower()
