"""Passwords: at least 12 characters, not common, not all digits, not like the username."""

from __future__ import annotations

import pytest
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

pytestmark = pytest.mark.django_db


def test_short_password_refused(reviewer):
    with pytest.raises(ValidationError) as refused:
        validate_password("Vq7#pLm2x!Z", user=reviewer)  # 11 characters
    assert refused.value.messages == ["This password is too short. It must contain at least 12 characters."]


def test_twelve_character_password_accepted(reviewer):
    validate_password("Vq7#pLm2x!Zk", user=reviewer)  # 12 characters


def test_short_password_refused_when_a_user_sets_one(reviewer):
    form = SetPasswordForm(reviewer, {"new_password1": "Vq7#pLm2x!Z", "new_password2": "Vq7#pLm2x!Z"})
    assert not form.is_valid()
    assert "This password is too short. It must contain at least 12 characters." in form.errors["new_password2"]


@pytest.mark.parametrize("password", ["password1234", "123456789012", "rev-reviewer1"])
def test_common_numeric_or_username_like_password_refused(password, django_user_model):
    user = django_user_model(username="rev-reviewer", first_name="Rev")
    with pytest.raises(ValidationError):
        validate_password(password, user=user)
