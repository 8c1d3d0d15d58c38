"""The portfolio's ledger: what the history of each case and revision says about rework,
kept as rows the portfolio page sums without reading a case.

Two kinds of row:

- **Records**, one per case (:class:`CaseRecord`) and one per revision
  (:class:`RevisionRecord`): the facts the history already holds, derived by
  ``portfolio.rework`` (returns, amendments, recomputes after submission, time in each
  status, the departures from the documents' defaults) and written by ``portfolio.ledger``
  whenever a case, a revision, a use, a review decision or a calendar is written
  (``portfolio.receivers``). A record is a copy: ``manage.py portfolio rebuild`` makes
  every one again from the history.
- **Cells**, the sums of the records by the page's filters: engineer, method (scenario),
  month the revision was started and whether the case is CBI (:class:`ReworkCell`,
  :class:`DepartureCell`), and the open cases by engineer, method, CBI and due date
  (:class:`DueCell`). A record's change adds its difference to its cells in the same
  transaction (``ledger.apply``), so a cell always equals the sum of its records; the page
  reads cells only, and the rows it reads grow with engineers, methods and months, never
  with cases (``benchmarks/portfolio.py``).

A cell's ``scenario`` is a scenario key, or ``""`` for every method at once (a revision with
uses of two methods is counted once there). Keys are plain integers, not foreign keys: a
record outlives nothing, and a deleted case or revision takes its record and its share of the
cells away through the ledger, not a cascade. No unique constraint: two writers adding to a
cell that does not exist yet may make two rows of it, which the sums read the same.
"""

from __future__ import annotations

from django.db import models

#: ``scenario`` of the cells that count every method at once.
EVERY_METHOD = ""


class CaseRecord(models.Model):
    """A case's place in the open workload: open (no approved latest revision), its engineer
    (the assigned one, else the latest revision's), its due date (None while its clock is
    stopped) and the methods of its latest revision."""

    case_id = models.BigIntegerField(primary_key=True)
    engineer_id = models.BigIntegerField(null=True)
    cbi = models.BooleanField(default=False)
    open = models.BooleanField(default=True)
    due_on = models.DateField(null=True)
    stopped = models.BooleanField(default=False)
    scenarios = models.JSONField(default=list)


class RevisionRecord(models.Model):
    """A revision's rework, from the history: the counts, the seconds spent in each status
    before the current one, the current status and since when, the methods of its uses,
    and the departures of its computed uses (``rework.departure_facts``)."""

    assessment_id = models.BigIntegerField(primary_key=True)
    case_id = models.BigIntegerField(db_index=True)
    revision = models.PositiveIntegerField()
    engineer_id = models.BigIntegerField(null=True)
    cbi = models.BooleanField(default=False)
    month = models.DateField(help_text="The first day of the month the revision was started (local time).")
    status = models.CharField(max_length=10)
    status_since = models.DateTimeField()
    returns = models.PositiveIntegerField(default=0)
    amendments = models.PositiveIntegerField(default=0)
    recomputes = models.PositiveIntegerField(default=0)
    draft_seconds = models.BigIntegerField(default=0)
    submitted_seconds = models.BigIntegerField(default=0)
    returned_seconds = models.BigIntegerField(default=0)
    scenarios = models.JSONField(default=list)
    departures = models.JSONField(default=list)
    #: What each computed use's departures were found from ({use id: its result's time, and the
    #: case's TLV/PEL and molecular weight}): a use none of which has changed is not run through
    #: the engine again.
    departures_of = models.JSONField(default=dict)


class ReworkCell(models.Model):
    engineer_id = models.BigIntegerField(null=True)
    scenario = models.CharField(max_length=40)
    month = models.DateField()
    cbi = models.BooleanField()
    revisions = models.BigIntegerField(default=0)
    returned_revisions = models.BigIntegerField(default=0)
    returns = models.BigIntegerField(default=0)
    amendments = models.BigIntegerField(default=0)
    recomputes = models.BigIntegerField(default=0)
    # Seconds in each status, of the intervals that have ended.
    draft_seconds = models.BigIntegerField(default=0)
    submitted_seconds = models.BigIntegerField(default=0)
    returned_seconds = models.BigIntegerField(default=0)
    # The revisions in each status now, and the sum of the times they entered it (Unix
    # seconds): their time so far is ``now × count − since``, read at the time of reading.
    draft_now = models.BigIntegerField(default=0)
    draft_since = models.BigIntegerField(default=0)
    submitted_now = models.BigIntegerField(default=0)
    submitted_since = models.BigIntegerField(default=0)
    returned_now = models.BigIntegerField(default=0)
    returned_since = models.BigIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["month", "scenario"], name="rework_cell_month_method")]


class DepartureCell(models.Model):
    engineer_id = models.BigIntegerField(null=True)
    scenario = models.CharField(max_length=40)
    month = models.DateField()
    cbi = models.BooleanField()
    symbol = models.CharField(max_length=60)
    uses = models.BigIntegerField(default=0)
    crossed = models.BigIntegerField(default=0)
    #: Uses whose departure moves a figure by a finite factor, and the sum of the natural
    #: logarithms of those factors' sizes in millionths (an integer, so that adding and
    #: taking away a record's share leaves the cell exact).
    measured = models.BigIntegerField(default=0)
    log_micro = models.BigIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["month", "scenario"], name="departure_cell_month_method")]


class DueCell(models.Model):
    """The open cases by engineer, method, CBI and due date (a running clock), with, for each
    engineer, method and CBI, a row of every running case (``due_on`` None, not ``stopped``)
    and a row of every stopped one (``due_on`` None, ``stopped``): the page reads the totals
    and the dates from today on, so the cases long overdue are counted without reading a row
    per day past (``figures.days_left_buckets``)."""

    engineer_id = models.BigIntegerField(null=True)
    scenario = models.CharField(max_length=40)
    cbi = models.BooleanField()
    due_on = models.DateField(null=True)
    stopped = models.BooleanField()
    cases = models.BigIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["scenario", "due_on"], name="due_cell_method_due")]
