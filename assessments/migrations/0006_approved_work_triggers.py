"""Approved work is final in the database too (PostgreSQL): triggers refuse, to every
client (the ORM's ``QuerySet.update()``/``delete()``, ``bulk_update``, a psql session),

- an UPDATE or DELETE of an approved assessment (the UPDATE that approves one changes a row
  that is not approved yet, so it passes);
- an INSERT, UPDATE or DELETE of a scenario under an approved assessment (before or after
  the change);
- the same for review decisions, except the INSERT of the approval's own decision, which
  ``workflow._transition`` writes just after the status change: action ``approve``, and no
  approve decision for that assessment yet.

The parent row is read ``FOR SHARE``, so a write to a scenario or decision waits for an
approval in progress and then sees it (and an approval waits for the write). A refusal is SQLSTATE
23001 (restrict_violation): Django raises ``IntegrityError``. The model-level guard
(``models.ApprovedWorkLocked``) says the same to ORM callers on every database; SQLite
has no triggers here because Django empties an SQLite database with DELETE FROM (``flush``,
the test runner between transactional tests), which they would refuse. TRUNCATE (how
``flush`` empties PostgreSQL) fires no row trigger.

A data-only restore (``pg_restore --data-only``) into a migrated database must disable
triggers (``--disable-triggers``); the documented full restore creates them after the data.
"""

from django.db import migrations

CREATE = r"""
CREATE FUNCTION assessments_approved_assessment_is_final() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'approved' THEN
        RAISE EXCEPTION 'assessment % is approved and final: it cannot be changed or deleted', OLD.id
            USING ERRCODE = 'restrict_violation',
                  HINT = 'Start a new revision to change it.';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER assessments_approved_assessment_is_final
    BEFORE UPDATE OR DELETE ON assessments_assessment
    FOR EACH ROW EXECUTE FUNCTION assessments_approved_assessment_is_final();

-- Shared by scenarios and review decisions: TG_ARGV[0] is 'decision' for the latter.
-- The parent row is locked FOR SHARE whatever its status (a lock is taken only on the
-- rows a query returns), so a write waits for an approval in progress and then reads it.
CREATE FUNCTION assessments_approved_parts_are_final() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    old_status text;
    new_status text;
    parent bigint;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        SELECT status INTO old_status FROM assessments_assessment WHERE id = OLD.assessment_id FOR SHARE;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        SELECT status INTO new_status FROM assessments_assessment WHERE id = NEW.assessment_id FOR SHARE;
    END IF;
    IF old_status = 'approved' THEN
        parent := OLD.assessment_id;
    ELSIF new_status = 'approved' THEN
        parent := NEW.assessment_id;
        IF TG_OP = 'INSERT' AND TG_ARGV[0] = 'decision' THEN
            -- The approval's own decision, written just after the status change.
            IF NEW.action = 'approve' AND NOT EXISTS (
                SELECT 1 FROM assessments_reviewdecision
                WHERE assessment_id = NEW.assessment_id AND action = 'approve'
            ) THEN
                RETURN NEW;
            END IF;
        END IF;
    END IF;
    IF parent IS NOT NULL THEN
        RAISE EXCEPTION 'assessment % is approved and final: its % cannot be added, changed or deleted',
                parent, CASE WHEN TG_ARGV[0] = 'decision' THEN 'review decisions' ELSE 'uses (scenarios)' END
            USING ERRCODE = 'restrict_violation',
                  HINT = 'Start a new revision to change it.';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER assessments_approved_scenarios_are_final
    BEFORE INSERT OR UPDATE OR DELETE ON assessments_scenario
    FOR EACH ROW EXECUTE FUNCTION assessments_approved_parts_are_final('scenario');

CREATE TRIGGER assessments_approved_decisions_are_final
    BEFORE INSERT OR UPDATE OR DELETE ON assessments_reviewdecision
    FOR EACH ROW EXECUTE FUNCTION assessments_approved_parts_are_final('decision');
"""

DROP = """
DROP TRIGGER IF EXISTS assessments_approved_decisions_are_final ON assessments_reviewdecision;
DROP TRIGGER IF EXISTS assessments_approved_scenarios_are_final ON assessments_scenario;
DROP TRIGGER IF EXISTS assessments_approved_assessment_is_final ON assessments_assessment;
DROP FUNCTION IF EXISTS assessments_approved_parts_are_final();
DROP FUNCTION IF EXISTS assessments_approved_assessment_is_final();
"""


def create_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("assessments", "0005_version_counters"),
    ]

    operations = [
        migrations.RunPython(create_triggers, drop_triggers, elidable=False),
    ]
