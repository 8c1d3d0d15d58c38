from __future__ import annotations

from django import forms
from django.conf import settings

from .models import NAME_MAX_LENGTH


class TokenForm(forms.Form):
    """A new token's name and days. The rules are ``tokens.token_create``'s (its errors come
    back on these fields); the bounds here only tell the browser."""

    name = forms.CharField(
        label="Name", max_length=NAME_MAX_LENGTH, help_text="What the token is for, e.g. “CDX intake script”.",
        widget=forms.TextInput(attrs={"class": "form-control", "aria-describedby": "id_name_helptext"}),
    )
    days = forms.IntegerField(
        label="Valid for (days)", required=False,
        help_text=f"It expires after this many days: 1 to {settings.API_TOKEN_MAX_DAYS}; "
                  f"{settings.API_TOKEN_DEFAULT_DAYS} when empty.",
        widget=forms.NumberInput(attrs={"class": "form-control", "inputmode": "numeric", "min": 1,
                                        "max": settings.API_TOKEN_MAX_DAYS,
                                        "aria-describedby": "id_days_helptext"}),
    )
