"""A notice tells one user that something happened to a case that needs them (submitted,
returned, approved, assigned); a use comment is a supervisor's remark on one use of a
returned revision, shown to the engineer until they mark it resolved.

A notice's text never holds CBI: it names the case by its number and the people by name.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from assessments.models import Assessment, Scenario, Submission

NOTICE_TEXT_LIMIT = 500


class Verb(models.TextChoices):
    SUBMITTED = "submitted", "Submitted for approval"
    RETURNED = "returned", "Returned"
    APPROVED = "approved", "Approved"
    ASSIGNED = "assigned", "Assigned to you"


class Notice(models.Model):
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    verb = models.CharField(max_length=20, choices=Verb.choices)
    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="notices")
    assessment = models.ForeignKey(
        Assessment, on_delete=models.CASCADE, related_name="notices", null=True, blank=True
    )
    text = models.CharField(max_length=NOTICE_TEXT_LIMIT)
    created = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["recipient", "read_at"], name="notice_recipient_unread")]

    def __str__(self) -> str:
        return f"{self.get_verb_display()} to {self.recipient}: {self.text}"

    def get_absolute_url(self) -> str:
        if self.assessment_id:
            return reverse("assessment-detail", args=[self.assessment_id])
        return reverse("submission-detail", args=[self.submission_id])


class UseComment(models.Model):
    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="use_comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="use_comments")
    text = models.TextField()
    created = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="resolved_use_comments",
        null=True, blank=True,
    )

    class Meta:
        ordering = ["created", "id"]

    def __str__(self) -> str:
        return f"Comment on {self.scenario} by {self.author}"
