"""What the type stubs do not say about a model. A model's own field by name, as a field:
``Model._meta.get_field`` also answers a reverse relation (another model's key to this one),
which has no column, choices or validators; and whether an instance is saved."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models


def own_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """The field ``name`` declared on ``model`` (a column or a key to another model);
    ``FieldDoesNotExist``, as ``get_field`` raises for an unknown name, for a reverse relation.

    >>> from assessments.models import Submission
    >>> own_field(Submission, "case_number").max_length
    40
    """
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise FieldDoesNotExist(f"{model.__name__}.{name} is another model's relation to it, not a field of its own")
    return field


def is_saved(instance: models.Model) -> bool:
    """``instance`` has its row: its primary key is set. Read here because the type stubs give a
    key the type of its column, which an instance not saved yet (its key None) does not have."""
    return instance.pk is not None
