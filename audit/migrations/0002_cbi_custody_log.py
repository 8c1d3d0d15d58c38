"""The CBI custody log (``audit.models.CbiAccess``), append-only in the database too
(PostgreSQL): a trigger refuses every UPDATE and DELETE of a row, to every client (the ORM's
``QuerySet.update()``/``delete()`` past the model's own refusal, raw SQL, a psql session),
with SQLSTATE 23001 (restrict_violation; Django raises ``IntegrityError``), as migration
``assessments.0006`` refuses writes to approved work.

Only on PostgreSQL, for the reason 0006 gives: Django empties an SQLite database with
DELETE FROM (``flush``, the test runner between transactional tests), which the trigger
would refuse, while TRUNCATE, how ``flush`` empties PostgreSQL, fires no row trigger.
Elsewhere the model and its queryset are the check.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db import migrations, models

CREATE = r"""
CREATE FUNCTION audit_cbi_access_is_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the CBI custody log is append-only: entry % cannot be changed or deleted', OLD.id
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER audit_cbi_access_is_append_only
    BEFORE UPDATE OR DELETE ON audit_cbiaccess
    FOR EACH ROW EXECUTE FUNCTION audit_cbi_access_is_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS audit_cbi_access_is_append_only ON audit_cbiaccess;
DROP FUNCTION IF EXISTS audit_cbi_access_is_append_only();
"""


def create_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('assessments', '0015_case_number_ranges'),
        ('audit', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CbiAccess',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('access', 'full CBI data seen'), ('refused_number', 'refused case number')], default='access', max_length=20)),
                ('what', models.CharField(choices=[('case_page', 'case page'), ('case_form', 'case edit form'), ('admin_case', 'case in the admin'), ('assessment_page', 'assessment page'), ('use_results', 'use results'), ('use_wizard', 'use wizard'), ('history', 'history'), ('compare', 'compare'), ('report_preview', 'report preview'), ('irer_pdf', 'IRER PDF (full)'), ('irer_docx', 'IRER Word (full)'), ('irer_contacts_pdf', 'IRER with contacts PDF'), ('contact_report', 'contact report'), ('contact_report_pdf', 'contact report PDF'), ('contact_reports_pdf', 'contact reports PDF'), ('export', 'export'), ('new_case', 'new case'), ('case_rename', 'case renumbered')], max_length=24)),
                ('username', models.CharField(blank=True, help_text="The user's username at the time.", max_length=150)),
                ('os_user', models.CharField(blank=True, help_text="Who ran the command (a command's row).", max_length=150, verbose_name='operating-system user')),
                ('case_number', models.CharField(help_text="The case's number at the time; for a refused number, the number typed.", max_length=40)),
                ('revision', models.PositiveIntegerField(blank=True, null=True)),
                ('detail', models.CharField(blank=True, help_text='e.g. the revision compared with.', max_length=200)),
                ('ip', models.GenericIPAddressField(blank=True, null=True, verbose_name='IP address')),
                ('user_agent', models.CharField(blank=True, max_length=500)),
                ('at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ('assessment', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='assessments.assessment', verbose_name='revision')),
                ('submission', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='assessments.submission', verbose_name='case')),
                ('user', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'CBI custody log entry',
                'verbose_name_plural': 'CBI custody log',
                'ordering': ['-at', '-pk'],
                'indexes': [models.Index(fields=['submission', '-at'], name='cbi_access_case_newest'), models.Index(fields=['user', '-at'], name='cbi_access_user_newest')],
            },
        ),
        migrations.RunPython(create_trigger, drop_trigger, elidable=False),
    ]
