"""A contact report that applies to an approved revision is final in the database too
(PostgreSQL), by the rule the models enforce in Python (``contacts.models``: the report is
printed with the approved revision's report, so it is locked as the revision is). Triggers
refuse, to every client (the ORM's ``QuerySet.update()``/``bulk_update``/``bulk_create``,
which send no signal to the models' guard, raw SQL, a psql session):

- an UPDATE or DELETE of a contact report linked to an approved revision
  (``_refuse_locked_save``, ``_refuse_locked_delete``);
- an INSERT, UPDATE or DELETE of a link whose revision, before or after the change, is
  approved (``_check_link_save``, ``_check_link_delete``);
- an INSERT or UPDATE of a link onto a report that is already final (``_check_link_save``).
  A final report's link to a *draft* revision may still be deleted, as the model allows:
  deleting a draft revision takes its links with it.

The revisions read are locked ``FOR SHARE`` first, so a write waits for an approval in
progress and then sees it (and an approval waits for the write), as migration
``assessments.0006`` does for approved work. A refusal is SQLSTATE 23001
(restrict_violation): Django raises ``IntegrityError``.

Only on PostgreSQL, for the reason ``assessments.0006`` gives: Django empties an SQLite
database with DELETE FROM (``flush``, the test runner between transactional tests), which
the triggers would refuse, while TRUNCATE, how ``flush`` empties PostgreSQL, fires no row
trigger. Elsewhere the models' signals are the check. A later data migration that must
rewrite final contact reports disables the trigger around its statements, as
``assessments.0011`` does; a data-only restore into a migrated database needs
``pg_restore --disable-triggers``.
"""

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db import migrations

CREATE = r"""
-- The revisions (numbers, '1, 3') of the approved assessments contact report `report`
-- applies to, or NULL. Every revision it applies to is locked FOR SHARE first.
CREATE FUNCTION contacts_approved_revisions_of(report bigint) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    revisions text;
BEGIN
    PERFORM 1 FROM assessments_assessment a
        JOIN contacts_contactreportassessment l ON l.assessment_id = a.id
        WHERE l.contact_report_id = report
        FOR SHARE OF a;
    SELECT string_agg(a.revision::text, ', ' ORDER BY a.revision) INTO revisions
        FROM assessments_assessment a
        JOIN contacts_contactreportassessment l ON l.assessment_id = a.id
        WHERE l.contact_report_id = report AND a.status = 'approved';
    RETURN revisions;
END;
$$;

CREATE FUNCTION contacts_contact_report_is_final() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    revisions text := contacts_approved_revisions_of(OLD.id);
BEGIN
    IF revisions IS NOT NULL THEN
        RAISE EXCEPTION 'contact report % applies to approved revision % and is final: it cannot be changed or deleted',
                OLD.id, revisions
            USING ERRCODE = 'restrict_violation',
                  HINT = 'Record a new contact instead.';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER contacts_contact_report_is_final
    BEFORE UPDATE OR DELETE ON contacts_contactreport
    FOR EACH ROW EXECUTE FUNCTION contacts_contact_report_is_final();

CREATE FUNCTION contacts_contact_links_are_final() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    old_assessment bigint;
    new_assessment bigint;
    approved_id bigint;
    approved_revision integer;
    revisions text;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        old_assessment := OLD.assessment_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        new_assessment := NEW.assessment_id;
    END IF;
    PERFORM 1 FROM assessments_assessment WHERE id IN (old_assessment, new_assessment) FOR SHARE;
    SELECT id, revision INTO approved_id, approved_revision FROM assessments_assessment
        WHERE id IN (old_assessment, new_assessment) AND status = 'approved'
        ORDER BY revision LIMIT 1;
    IF approved_id IS NOT NULL THEN
        RAISE EXCEPTION 'revision % (assessment %) is approved and final: a contact report cannot be added to it or taken off it',
                approved_revision, approved_id
            USING ERRCODE = 'restrict_violation',
                  HINT = 'Link the contact to the case''s current revision instead.';
    END IF;
    IF TG_OP <> 'DELETE' THEN
        revisions := contacts_approved_revisions_of(NEW.contact_report_id);
        IF revisions IS NOT NULL THEN
            RAISE EXCEPTION 'contact report % applies to approved revision % and is final: it cannot be linked to another revision',
                    NEW.contact_report_id, revisions
                USING ERRCODE = 'restrict_violation',
                      HINT = 'Record a new contact instead.';
        END IF;
        RETURN NEW;
    END IF;
    RETURN OLD;
END;
$$;

CREATE TRIGGER contacts_contact_links_are_final
    BEFORE INSERT OR UPDATE OR DELETE ON contacts_contactreportassessment
    FOR EACH ROW EXECUTE FUNCTION contacts_contact_links_are_final();
"""

DROP = """
DROP TRIGGER IF EXISTS contacts_contact_links_are_final ON contacts_contactreportassessment;
DROP TRIGGER IF EXISTS contacts_contact_report_is_final ON contacts_contactreport;
DROP FUNCTION IF EXISTS contacts_contact_links_are_final();
DROP FUNCTION IF EXISTS contacts_contact_report_is_final();
DROP FUNCTION IF EXISTS contacts_approved_revisions_of(bigint);
"""


def create_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0006_approved_work_triggers"),
        ("contacts", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(create_triggers, drop_triggers, elidable=False),
    ]
