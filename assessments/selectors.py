"""Reads: every query the views and the report need, with the visibility rules.

A CBI case (any field claimed confidential) exists only for users cleared for CBI;
for everyone else it is filtered out of lists and ``get`` raises ``Http404``, so an
uncleared user cannot even learn that the case number is taken.
"""

from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404

from .models import Assessment, Submission
from .roles import is_cbi_cleared


def visible_submissions(*, user) -> QuerySet[Submission]:
    """The cases ``user`` may see."""
    if not user.is_authenticated:
        return Submission.objects.none()
    queryset = Submission.objects.all()
    if not is_cbi_cleared(user):
        queryset = queryset.filter(is_cbi=False)
    return queryset


def submission_list_for_user(*, user) -> QuerySet[Submission]:
    """Visible cases, newest first, each annotated with its latest assessment's
    ``latest_revision``, ``latest_status`` and ``latest_engineer`` (username)."""
    latest = Assessment.objects.filter(submission=OuterRef("pk")).order_by("-revision")
    return (
        visible_submissions(user=user)
        .annotate(
            latest_revision=Subquery(latest.values("revision")[:1]),
            latest_status=Subquery(latest.values("status")[:1]),
            latest_engineer=Subquery(latest.values("engineer__username")[:1]),
        )
        .order_by("-created_at", "-id")
    )


def submission_get(*, user, pk: int) -> Submission:
    """The case ``pk`` if ``user`` may see it; otherwise ``Http404``."""
    try:
        return visible_submissions(user=user).get(pk=pk)
    except Submission.DoesNotExist:
        raise Http404("No such case.") from None


# The case's fields as the IRER header block groups them (spec/irer.md, "Header block").
HEADER_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Case", ("case_number", "case_type", "case_name", "submitter")),
    ("Volume", ("production_volume_kg_yr", "import_only")),
    ("Chemical identity", ("chemical_name", "generic_name", "cas_number")),
    ("Use", ("use_description", "use_concentration", "other_uses", "consumer_use")),
    ("Hazard communication", ("msds", "label", "tlv_pel")),
    (
        "Physical-chemical properties (CRSS)",
        (
            "physical_state", "molecular_weight", "vapour_pressure_torr", "vapour_pressure_temp_c",
            "water_solubility_g_l", "water_solubility_temp_c", "pct_below_500_da", "pct_below_1000_da",
        ),
    ),
    ("SAT concerns", ("sat_migration", "pbt_rating", "sat_health", "sat_eco")),
)


def submission_header_groups(*, submission: Submission) -> list[dict]:
    """``[{"title", "fields": [{"name", "label", "value", "claimed"}]}]`` for display.

    ``value`` is the display value (choice labels, Yes/No for flags, ``None`` when
    not given); ``claimed`` tells whether the submitter claims the field as CBI.
    """
    groups = []
    for title, names in HEADER_GROUPS:
        fields = []
        for name in names:
            field = Submission._meta.get_field(name)
            value = getattr(submission, name)
            if field.choices:
                value = getattr(submission, f"get_{name}_display")()
            elif isinstance(value, bool):
                value = "Yes" if value else "No"
            elif value == "":
                value = None
            fields.append(
                {
                    "name": name,
                    "label": field.verbose_name[:1].upper() + field.verbose_name[1:],
                    "value": value,
                    "claimed": submission.is_claimed(name),
                }
            )
        groups.append({"title": title, "fields": fields})
    return groups
