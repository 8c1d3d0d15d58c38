"""Reading a case export's file: its size, UTF-8, JSON whose top level is an object of
this format, then a scan refusing what no row may hold (a non-finite number, a NUL or a
lone surrogate in any text, a key twice in one object, nesting too deep), each refusal
naming the place in the file.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..engine_results import join_path as _join
from ..engine_results import short as _short
from ..esd.number_text import json_number
from .document import FORMAT, FORMAT_VERSION
from .errors import (
    DUPLICATE_KEY,
    INVALID_VALUE,
    NOT_A_CASE_EXPORT,
    NOT_AN_OBJECT,
    NOT_FINITE,
    NOT_JSON,
    NOT_UNICODE,
    NOT_UTF8,
    NUL_IN_TEXT,
    TOO_DEEP,
    TOO_LARGE,
    UNSUPPORTED_VERSION,
    TransferError,
)

#: The largest file ``import_case`` reads (bytes), checked before parsing. A case export
#: is tens of KiB (a computed use's result is 8 to 24 KiB; README "Performance").
MAX_FILE_BYTES = 20 * 1024 * 1024
#: How deep the JSON may nest; an export nests about 10 levels (a result's estimates).
MAX_NESTING = 64


class _NonFinite:
    """Where the file has ``NaN``, ``Infinity``, a number beyond a double or one a double
    would hold as 0 (``1e-400``): kept as a marker while parsing so that the refusal can
    name the place (see :func:`scan`)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _parse_float(text: str) -> float | _NonFinite:
    value = json_number(text)  # the engine's inputs' one reading of a JSON number
    return value if isinstance(value, float) and math.isfinite(value) else _NonFinite(text)


class _RepeatedKeys(dict[str, Any]):
    """An object in which a key appeared twice (JSON allows it; Python keeps the last)."""

    repeated: list[str]


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    repeated = []
    for key, value in pairs:
        if key in obj:
            repeated.append(key)
        obj[key] = value
    if repeated:
        obj = _RepeatedKeys(obj)
        obj.repeated = repeated
    return obj


def loads(data: bytes | str, *, source: str) -> dict[str, Any]:
    """Parse a case export (the file's bytes, or its text); ``TransferError`` if it is not one."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise TransferError(TOO_LARGE.format(source=source, limit=MAX_FILE_BYTES // (1024 * 1024)))
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise TransferError(NOT_UTF8.format(source=source)) from None
    try:
        document = json.loads(
            data, parse_constant=_NonFinite, parse_float=_parse_float, object_pairs_hook=_object_pairs
        )
    except RecursionError:
        raise TransferError(TOO_DEEP.format(source=source, limit=MAX_NESTING)) from None
    except ValueError as exc:  # JSONDecodeError, or an integer of more than 4300 digits
        raise TransferError(NOT_JSON.format(source=source, error=_short(str(exc), 200))) from None
    if not isinstance(document, dict):
        kind = {list: "a JSON list", str: "a string", bool: "true or false", type(None): "null"}.get(
            type(document), "a number"
        )
        raise TransferError(NOT_AN_OBJECT.format(source=source, kind=kind))
    scan(document, source=source)
    if document.get("format") != FORMAT:
        raise TransferError(NOT_A_CASE_EXPORT.format(source=source))
    version = document.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise TransferError(UNSUPPORTED_VERSION.format(source=source, version=version))
    return document


def scan(document: Any, *, source: str) -> None:
    """Refuse, naming the place, what no row may hold: a non-finite number, a NUL or a
    lone surrogate in any text (keys too), a key twice in one object, nesting deeper than
    :data:`MAX_NESTING`. Iterative, so no depth can exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(document, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_NESTING:
            raise TransferError(TOO_DEEP.format(source=source, limit=MAX_NESTING))
        if isinstance(value, _NonFinite) or (isinstance(value, float) and not math.isfinite(value)):
            raise TransferError(INVALID_VALUE.format(where=where or "(top level)", problem=NOT_FINITE))
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            try:
                float(value)
            except OverflowError:
                raise TransferError(INVALID_VALUE.format(where=where, problem=NOT_FINITE)) from None
        elif isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, dict):
            if isinstance(value, _RepeatedKeys):
                key = _short(json.dumps(value.repeated[0], ensure_ascii=False))
                raise TransferError(INVALID_VALUE.format(where=where or "(top level)", problem=DUPLICATE_KEY.format(key=key)))
            children = []
            for key, item in value.items():
                _check_text(key, f"{where} (a key)" if where else "(a top-level key)")
                children.append((item, _join(where, key), depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            stack.extend(reversed([(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]))


def _check_text(text: str, where: str) -> None:
    if "\x00" in text:
        raise TransferError(INVALID_VALUE.format(where=where, problem=NUL_IN_TEXT))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TransferError(INVALID_VALUE.format(where=where, problem=NOT_UNICODE)) from None

