"""The wizard's "Submitter's site data" step: EIIP site-specific air releases.

One form holds one or more entries. Each entry has the EIIP method (radio buttons, each
method's title and, in plain words, what it is and when EIIP prefers it), the inputs of
every method (generated from the method's own declarations, ``METHODS[key].params``: label,
units, default, range, source), the release it replaces (or "add beside the ESD's
releases"), the data source and the activity. Only the chosen method's inputs are shown;
without JavaScript the "Show this method's inputs" button shows the page again with them
(``static/js/site-data.js`` switches them at once instead). An entry left at "No site data"
is no entry: the step left so changes nothing.

Validation is the engine's own: ``input_rules.clean_site_entries`` calls
``esd.site_data.parse_entries``, and each of its errors (``site_specific[i].SYMBOL``) is
put on the field it names, with the engine's message (the field and its allowed range).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError

from .. import input_rules
from ..esd.parameters import ALL, CHOICE, Param
from ..esd.site_data import METHODS, SITE_SPECIFIC, SiteMethod
from ..input_rules import default_text
from ..site_data import ADD_BESIDE, NO_SITE_DATA, NO_SITE_DATA_HELP, method_description
from .scenarios import SEEN_FIELD, _value_field, format_value

COUNT_FIELD = "entries"
#: The buttons that show the step again without saving it.
SHOW_BUTTON = "site_show"
ADD_BUTTON = "site_add"
MAX_ENTRIES = 10
ENTRY_FIELDS = ("method", "replaces", "source", "activity")
SOURCE_MAX = 500
ACTIVITY_MAX = 200


def method_field(index: int) -> str:
    return f"e{index}-method"


def entry_field(index: int, name: str) -> str:
    return f"e{index}-{name}"


def input_field(index: int, method: str, symbol: str) -> str:
    return f"e{index}-{method}-{symbol}"


def _input_form_field(param: Param) -> forms.Field:
    """The value field of one method input, as every wizard step makes it (``_value_field``);
    not required by the form: only the chosen method's inputs count, checked by the engine."""
    field = _value_field(param)
    field.required = False
    if param.kind == CHOICE and param.default is None and isinstance(field, forms.ChoiceField):
        # A ChoiceField keeps its choices as the list of pairs ``_value_field`` gave it.
        choices = cast("list[tuple[Any, Any]]", field.choices)
        if choices[0][0] != "":
            field.choices = [("", "Choose one")] + list(choices)
    return field


class SiteDataForm(forms.Form):
    """The "Submitter's site data" step. ``releases``: ``[(number, source)]`` of the
    scenario's releases an entry may replace."""

    def __init__(self, *args: Any, releases: Iterable[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.releases = list(releases)
        self.count = self._count()
        self.fields[SEEN_FIELD] = forms.CharField(required=False, widget=forms.HiddenInput)
        # How many entries the page shows (read, bounded, by _count; never an error of its own).
        self.fields[COUNT_FIELD] = forms.CharField(required=False, initial=self.count, widget=forms.HiddenInput)
        for i in range(self.count):
            self.fields.update(self._entry_fields(i))
        self.step_entries: list[dict[str, Any]] = []

    def _count(self) -> int:
        if self.is_bound:
            raw = self.data.get(self.add_prefix(COUNT_FIELD), "")
        else:
            raw = self.initial.get(COUNT_FIELD, 1)
        try:
            count = int(raw)
        except (TypeError, ValueError):
            count = 1
        return min(max(count, 1), MAX_ENTRIES)

    def _replace_choices(self, index: int) -> list[tuple[str, str]]:
        choices = [("", ADD_BESIDE)] + [(str(n), f"Replace release {n}: {source}") for n, source in self.releases]
        saved = self.initial.get(entry_field(index, "replaces")) or ""
        if saved and saved not in {value for value, _ in choices}:  # saved before the releases changed
            choices.append((saved, f"Replace release {saved} (not among this use's releases now)"))
        return choices

    def _entry_fields(self, i: int) -> dict[str, forms.Field]:
        fields: dict[str, forms.Field] = {
            method_field(i): forms.ChoiceField(
                label="EIIP method", required=False,
                choices=[("", NO_SITE_DATA)] + [(m.key, m.title) for m in METHODS.values()],
                widget=forms.RadioSelect),
        }
        for method in METHODS.values():
            for param in method.params.params:
                fields[input_field(i, method.key, param.symbol)] = _input_form_field(param)
        fields[entry_field(i, "replaces")] = forms.ChoiceField(
            label="Release it replaces", required=False, choices=self._replace_choices(i),
            help_text="The site-specific air release takes the place (and number) of the release it "
                      "replaces, whose ESD estimate is kept in the notes; or it is added with the next number.",
            widget=forms.Select(attrs={"class": "form-select"}))
        fields[entry_field(i, "source")] = forms.CharField(
            label="Source of the data", required=False, max_length=SOURCE_MAX,
            help_text="Required with a method: where the facility data come from, e.g. "
                      "“PMN attachment 3: 2023 stack test, tool exhaust”.",
            widget=forms.TextInput(attrs={"class": "form-control"}))
        fields[entry_field(i, "activity")] = forms.CharField(
            label="Activity (optional)", required=False, max_length=ACTIVITY_MAX,
            help_text="What emits, e.g. “CVD tool exhaust stack”; names the release. Left empty: "
                      "the replaced release's source, else “Air emission”.",
            widget=forms.TextInput(attrs={"class": "form-control"}))
        return fields

    # --- what the template shows --------------------------------------------------------------

    def chosen(self, index: int) -> SiteMethod | None:
        value = self[method_field(index)].value()
        return METHODS.get(value) if isinstance(value, str) else None

    def entry_blocks(self) -> list[dict[str, Any]]:
        """Per entry: its method radios (with descriptions), each method's input rows (only
        the chosen method's shown), and the replaces/source/activity fields."""
        for name in self.errors:
            if name in self.fields:
                attrs = self.fields[name].widget.attrs
                attrs["class"] = attrs.get("class", "") + " is-invalid"
        blocks = []
        for i in range(self.count):
            chosen = self.chosen(i)
            method_bf = self[method_field(i)]
            value = method_bf.value() or ""
            radios = [
                {"value": "", "title": NO_SITE_DATA, "description": NO_SITE_DATA_HELP,
                 "id": f"{method_bf.auto_id}_none", "checked": chosen is None}
            ] + [
                {"value": m.key, "title": m.title, "description": method_description(m),
                 "id": f"{method_bf.auto_id}_{m.key}", "checked": value == m.key}
                for m in METHODS.values()
            ]
            methods = [
                {
                    "key": m.key,
                    "title": m.title,
                    "shown": chosen is not None and chosen.key == m.key,
                    "rows": [(p, self[input_field(i, m.key, p.symbol)], default_text(p)) for p in m.params.params],
                }
                for m in METHODS.values()
            ]
            blocks.append({
                "index": i,
                "number": i + 1,
                "method": method_bf,
                "radios": radios,
                "methods": methods,
                # (field, required with a method): the release it replaces, the source, the activity
                "details": [(self[entry_field(i, "replaces")], False), (self[entry_field(i, "source")], True),
                            (self[entry_field(i, "activity")], False)],
            })
        return blocks

    # --- validation: the engine's ------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None, "Form.clean returns the cleaned data"
        raw_entries: list[dict[str, Any]] = []
        positions: list[int] = []  # the entry's place on the form, by its place in the list
        for i in range(self.count):
            method = METHODS.get(data.get(method_field(i)) or "")
            if method is None:
                continue
            inputs = {}
            for param in method.params.params:
                raw = data.get(input_field(i, method.key, param.symbol))
                if raw not in (None, ""):
                    inputs[param.symbol] = raw
            replaces = data.get(entry_field(i, "replaces")) or None
            entry: dict[str, Any] = {
                "method": method.key,
                "inputs": inputs,
                "replaces": int(replaces) if replaces and replaces.isdigit() else replaces,
                "source": data.get(entry_field(i, "source"), ""),
            }
            if data.get(entry_field(i, "activity")):
                entry["activity"] = data[entry_field(i, "activity")]
            raw_entries.append(entry)
            positions.append(i)
        if self.errors:  # a text over its length: the engine is not asked yet
            return data
        try:
            self.step_entries = input_rules.clean_site_entries(raw_entries)
        except ValidationError as exc:
            for key, messages in exc.message_dict.items():
                self._engine_error(key, messages, raw_entries, positions)
        return data

    def _engine_error(self, key: str, messages: list[str], entries: list[dict[str, Any]], positions: list[int]) -> None:
        """Put an engine error ``site_specific[j].NAME`` on the field it names."""
        prefix, _, name = key.partition(".")
        try:
            j = int(prefix[len(SITE_SPECIFIC) + 1:-1])
            i, method = positions[j], entries[j]["method"]
        except (ValueError, IndexError):
            self.add_error(None, [f"{key}: {m}" for m in messages])
            return
        if name == "replaces":  # e.g. "release 1 is already replaced by site_specific[0]"
            field, what = entry_field(i, name), ""
        elif name in ENTRY_FIELDS:
            field, what = entry_field(i, name), str(self.fields[entry_field(i, name)].label or "")
        elif name and input_field(i, method, name) in self.fields:
            field, what = input_field(i, method, name), name
        else:
            field, what = None, f"Entry {i + 1}" + (f", {name}" if name and name != ALL else "")
        if field is None:
            texts = [f"{what}: {m}." for m in messages]
        elif what:
            texts = [f"{what} {m}." for m in messages]
        else:
            texts = [f"{m[:1].upper()}{m[1:]}." for m in messages]
        self.add_error(field, texts)




def site_initial(entries: Any) -> dict[str, Any]:
    """The form's initial values from the saved ``site_specific`` entries: each method's
    inputs at their defaults, the saved entry's values over them; one empty entry when none."""
    entries = entries if isinstance(entries, list) else []
    count = min(max(len(entries), 1), MAX_ENTRIES)
    initial: dict[str, Any] = {COUNT_FIELD: count}
    for i in range(count):
        entry = entries[i] if i < len(entries) and isinstance(entries[i], Mapping) else {}
        initial.update(_entry_initial(i, entry))
    return initial


def _entry_initial(i: int, entry: Mapping[str, Any]) -> dict[str, Any]:
    initial: dict[str, Any] = {}
    stored_inputs = entry.get("inputs")
    saved: Mapping[str, Any] = stored_inputs if isinstance(stored_inputs, Mapping) else {}
    for method in METHODS.values():
        for param in method.params.params:
            value = saved.get(param.symbol, param.default) if entry.get("method") == method.key else param.default
            initial[input_field(i, method.key, param.symbol)] = format_value(value)
    initial[method_field(i)] = entry.get("method") or ""
    replaces = entry.get("replaces")
    initial[entry_field(i, "replaces")] = "" if replaces is None else str(replaces)
    initial[entry_field(i, "source")] = entry.get("source") or ""
    initial[entry_field(i, "activity")] = entry.get("activity") or ""
    return initial


def initial_from_post(data: Mapping[str, Any], prefix: str, *, add: bool) -> dict[str, Any]:
    """What was posted, as the initial values of the step shown again unsaved ("Show this
    method's inputs", "Add another entry"), with one more empty entry when ``add``."""
    try:
        count = min(max(int(data.get(f"{prefix}-{COUNT_FIELD}", 1)), 1), MAX_ENTRIES)
    except (TypeError, ValueError):
        count = 1
    initial: dict[str, Any] = {SEEN_FIELD: data.get(f"{prefix}-{SEEN_FIELD}", "")}
    names = [method_field(i) for i in range(count)]
    for i in range(count):
        names += [entry_field(i, n) for n in ENTRY_FIELDS if n != "method"]
        names += [input_field(i, m.key, p.symbol) for m in METHODS.values() for p in m.params.params]
    for name in names:
        value = data.get(f"{prefix}-{name}")
        if value is not None:
            initial[name] = value
    if add and count < MAX_ENTRIES:
        initial.update(_entry_initial(count, {}))
        count += 1
    initial[COUNT_FIELD] = count
    return initial
