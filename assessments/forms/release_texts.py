"""The report's words for each release of a use: the "to:" line and the engineer's basis."""

from __future__ import annotations

from typing import Any

from django import forms

from ..models import RELEASE_TEXT_KEYS


class ReleaseTextsForm(forms.Form):
    """One "to:" and one "basis:" field per release of the computed result, named
    ``to_N`` and ``basis_N``; ``defaults`` gives each release's printed default as a hint."""

    def __init__(self, *args: Any, releases: list[dict[str, Any]], texts: dict[str, Any], defaults: dict[int, str],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.releases = releases
        for release in releases:
            n = release["number"]
            saved = texts.get(str(n), {})
            self.fields[f"to_{n}"] = forms.CharField(
                label=f"Release {n}: to", required=False, max_length=RELEASE_TEXT_KEYS["to"],
                initial=saved.get("to", ""),
                help_text=f"Leave empty to print: {defaults.get(n, '')}",
            )
            self.fields[f"basis_{n}"] = forms.CharField(
                label=f"Release {n}: the engineer's basis", required=False, max_length=RELEASE_TEXT_KEYS["basis"],
                initial=saved.get("basis", ""), widget=forms.Textarea(attrs={"rows": 3}),
                help_text="Printed after the model's standard sentence.",
            )

    def texts(self) -> dict[str, dict[str, str]]:
        return {str(r["number"]): {"to": self.cleaned_data[f"to_{r['number']}"],
                                   "basis": self.cleaned_data[f"basis_{r['number']}"]} for r in self.releases}
