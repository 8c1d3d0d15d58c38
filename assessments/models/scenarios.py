"""A use assessed (Scenario): an engine scenario with its inputs, result and the
engineer's words per release, and the undo window of a deleted use."""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from ..limits import text_error
from .assessments import Assessment

#: What an engineer may write for one release in the report (Scenario.release_texts):
#: ``to`` the destination (an NPDES permit, a named POTW), ``basis`` the engineer's words
#: after the model's standard sentence; each at most this many characters.
RELEASE_TEXT_KEYS = {"to": 300, "basis": 2000}
RELEASE_TEXT_LABELS = {"to": "the “to:” line", "basis": "the engineer's basis"}
RELEASE_TEXTS_NOT_AN_OBJECT = "must be an object {release number: {\"to\": text, \"basis\": text}}"
RELEASE_TEXT_BAD_NUMBER = "{key!r} is not a release number (a whole number, at least 1)"
RELEASE_TEXT_BAD_ENTRY = "release {key}: must be an object with \"to\" and/or \"basis\" (text)"
RELEASE_TEXT_UNKNOWN = "release {key}: unknown key {name!r} (allowed: to, basis)"
RELEASE_TEXT_NOT_TEXT = "release {key}, {name}: must be text"


def release_texts_errors(value: object) -> list[str]:
    """What is wrong with a scenario's ``release_texts`` (none: ``[]``); the one check the
    page, the admin and the import use (free text by ``limits.text_error``).

    >>> release_texts_errors({"4": {"to": "City POTW, NPDES permit TX0001"}})
    []
    >>> release_texts_errors({"0": {"to": "x"}, "2": {"via": "x"}, "3": {"to": "a\\x00"}})  # doctest: +NORMALIZE_WHITESPACE
    ["'0' is not a release number (a whole number, at least 1)",
     "release 2: unknown key 'via' (allowed: to, basis)",
     'Release 3, the “to:” line must not contain NUL characters.']
    """
    if not isinstance(value, dict):
        return [RELEASE_TEXTS_NOT_AN_OBJECT]
    errors = []
    for key, entry in value.items():
        if not (isinstance(key, str) and key.isdigit() and key.isascii() and int(key) >= 1):
            errors.append(RELEASE_TEXT_BAD_NUMBER.format(key=key))
            continue
        if not isinstance(entry, dict):
            errors.append(RELEASE_TEXT_BAD_ENTRY.format(key=key))
            continue
        for name, text in entry.items():
            if name not in RELEASE_TEXT_KEYS:
                errors.append(RELEASE_TEXT_UNKNOWN.format(key=key, name=name))
            elif not isinstance(text, str):
                errors.append(RELEASE_TEXT_NOT_TEXT.format(key=key, name=name))
            else:
                message = text_error(text, label=f"Release {key}, {RELEASE_TEXT_LABELS[name]}",
                                     limit=RELEASE_TEXT_KEYS[name])
                if message:
                    errors.append(message)
    return errors


#: How long a deleted use can be restored (``services.scenario_restore``), while its
#: assessment is still a draft or returned.
SCENARIO_UNDO_MINUTES = 30
SCENARIO_UNDO_WINDOW = timedelta(minutes=SCENARIO_UNDO_MINUTES)


class LiveScenarioManager(models.Manager["Scenario"]):
    """The uses in effect: a deleted use (``Scenario.deleted_at`` set) is in no list, report,
    export, comparison or count, and no page finds it, while it waits for an undo
    (``services.scenario_restore``). ``Scenario.all_objects`` reads the deleted ones too."""

    def get_queryset(self) -> models.QuerySet[Scenario]:
        return super().get_queryset().filter(deleted_at__isnull=True)


class Scenario(models.Model):
    """One use (operation) assessed: an engine scenario with its inputs and result.

    ``inputs`` holds only what differs from the engine's defaults; ``reasons`` the
    reviewer's reason for each of those overrides. ``result`` is the engine's JSON
    output as computed (with its engine version), the snapshot an approval freezes;
    ``computed_inputs`` the ``inputs`` it was computed from, so a result whose inputs
    changed since is known to be stale.
    """

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="scenarios")
    scenario_key = models.CharField(max_length=40)
    title = models.CharField(max_length=200)
    position = models.PositiveIntegerField(default=0)
    inputs = models.JSONField(default=dict, blank=True)
    reasons = models.JSONField(default=dict, blank=True)
    current_step = models.CharField(max_length=40, blank=True, help_text="Last wizard step saved.")
    result = models.JSONField(null=True, blank=True)
    computed_inputs = models.JSONField(
        null=True, blank=True, help_text="The saved inputs the result was computed from."
    )
    computed_at = models.DateTimeField(null=True, blank=True)
    release_texts = models.JSONField(
        "the engineer's words per release", default=dict, blank=True,
        help_text='By release number: {"to": destination, "basis": the engineer\'s words}, printed in the IRER.',
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text="When the engineer deleted the use; it keeps everything it held, so the delete can be "
        "undone for a while (services.scenario_restore). Empty for a use in effect.",
    )

    # The first manager is the default: related lists (assessment.scenarios), the pages,
    # the report, the export and the admin see the uses in effect only.
    objects = LiveScenarioManager()
    all_objects = models.Manager()

    history = HistoricalRecords()

    def clean(self) -> None:
        super().clean()
        errors = release_texts_errors(self.release_texts)
        if errors:
            raise ValidationError({"release_texts": errors})

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(scenario_key=""), name="scenario_key_not_blank"),
            models.CheckConstraint(
                condition=(Q(result__isnull=True) & Q(computed_at__isnull=True))
                | (Q(result__isnull=False) & Q(computed_at__isnull=False)),
                name="scenario_result_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.assessment}: {self.title}"
