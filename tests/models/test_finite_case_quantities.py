"""The case's positive quantities are finite in the database too (migration 0009): a
writer that skips the model's validation (``QuerySet.update``, raw SQL) cannot store NaN or
Infinity in the production volume, molecular weight, vapour pressure or water solubility.
PostgreSQL stores both in a float column and orders NaN above every number, so ``> 0``
alone let them in; SQLite stores NaN as NULL, refused by the NOT NULL column or allowed
as "not given" where the field is optional."""

from __future__ import annotations

import math

import pytest
from django.db import IntegrityError, connection, transaction

from assessments.models import Submission
from tests.conftest import make_submission

pytestmark = pytest.mark.django_db

FIELDS = ("production_volume_kg_yr", "molecular_weight", "vapour_pressure_torr", "water_solubility_g_l")


def refused(write) -> bool:
    try:
        with transaction.atomic():
            write()
    except IntegrityError:
        return True
    return False


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="DATABASE_URL is not PostgreSQL")
@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_postgresql_refuses_nan_and_infinity(field, value):
    case = make_submission()
    assert refused(lambda: Submission.objects.filter(pk=case.pk).update(**{field: value}))
    assert not refused(lambda: Submission.objects.filter(pk=case.pk).update(**{field: 1.5}))


@pytest.mark.parametrize("field", FIELDS)
def test_negative_values_are_refused_on_every_database(field):
    case = make_submission()
    assert refused(lambda: Submission.objects.filter(pk=case.pk).update(**{field: -1.0}))
