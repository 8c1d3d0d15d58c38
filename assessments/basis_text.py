"""The basis sentences of a result's releases and exposures, for the results page: each
sentence in its pieces, and a piece several rows share given once, for the table or for
the release or exposure whose estimates share it, the rest left on its row.
"""

from __future__ import annotations

from typing import Any


def basis_pieces(text: str) -> list[tuple[str, str]]:
    """A basis sentence in its pieces, each a sentence or a clause ended by a semicolon
    outside brackets: ``[(key, piece)]``, ``piece`` with the punctuation and space that
    follow it (so the pieces joined read as the sentence), ``key`` without them.

    >>> [key for key, _ in basis_pieces("Model: a (x; y) = 2 (Eqn 1); 250 days/yr; no gloves assumed (B.6).")]
    ['Model: a (x; y) = 2 (Eqn 1)', '250 days/yr', 'no gloves assumed (B.6)']
    >>> "".join(piece for _, piece in basis_pieces("Low end. Daily use 1.5 kg (Eqn 4-1): ¶61."))
    'Low end. Daily use 1.5 kg (Eqn 4-1): ¶61.'
    """
    pieces: list[tuple[str, str]] = []
    depth, start = 0, 0
    for index, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(depth - 1, 0)
        elif depth == 0 and (
            char == ";" or (char == "." and text[index + 1: index + 2] == " " and text[index + 2: index + 3].isupper())
        ):
            end = index + 1
            while end < len(text) and text[end] == " ":
                end += 1
            pieces.append((text[start:index].strip(), text[start:end]))
            start = end
    if text[start:].strip():
        pieces.append((text[start:].strip().rstrip("."), text[start:]))
    return pieces


def _sentence(text: str) -> str:
    """A piece printed alone: a capital first letter, a full stop at the end."""
    text = text.strip().rstrip(";").strip()
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def shared_basis(groups: list[list[str]]) -> dict[str, Any]:
    """Where several rows of a table share a sentence of their basis, the sentence once.

    ``groups`` holds each release's (or exposure's) estimates' basis sentences. A piece
    (:func:`basis_pieces`) found in two or more rows of one group only is that group's
    (``groups``: one list of sentences each); one found in rows of several groups is the
    table's (``common``: ``[{"text", "groups": [group indices]}]``); the rest stays with its
    row (``rows``: each group's rows' own text, ``""`` when nothing is left).

    >>> out = shared_basis([["Model A: 1 mg (Eqn 1); 48 operators; no gloves.", "Model A: 3 mg (Eqn 1); 48 operators; no gloves."],
    ...                     ["Model B: 2 mg (Eqn 2); 18 technicians; no gloves."]])
    >>> out["common"], out["groups"], out["rows"]
    ([{'text': 'No gloves.', 'groups': [0, 1]}], [['48 operators.'], []], [['Model A: 1 mg (Eqn 1).', 'Model A: 3 mg (Eqn 1).'], ['Model B: 2 mg (Eqn 2); 18 technicians.']])
    """
    split = [[basis_pieces(text or "") for text in group] for group in groups]
    where: dict[str, list[tuple[int, int]]] = {}
    for g, group in enumerate(split):
        for r, pieces in enumerate(group):
            for key, _ in pieces:
                if key and (g, r) not in where.setdefault(key, []):
                    where[key].append((g, r))
    common, common_keys = [], set()
    group_sentences: list[list[str]] = [[] for _ in split]
    group_keys: set[str] = set()
    for key, places in where.items():
        if len(places) < 2:
            continue
        in_groups = sorted({g for g, _ in places})
        if len(in_groups) > 1:
            common.append({"text": _sentence(key), "groups": in_groups})
            common_keys.add(key)
        else:
            group_sentences[in_groups[0]].append(_sentence(key))
            group_keys.add(key)
    shared = common_keys | group_keys
    rows = []
    for group in split:
        rows.append([_own_text(pieces, shared) for pieces in group])
    return {"common": common, "groups": group_sentences, "rows": rows}


def _own_text(pieces: list[tuple[str, str]], shared: set[str]) -> str:
    own = "".join(piece for key, piece in pieces if key not in shared).strip()
    if not own:
        return ""
    return _sentence(own.rstrip(";,").strip())


def with_shared_basis(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sets ``basis_shared`` (the group's sentences) on each release or exposure of
    ``rows`` and ``basis_own`` on each of its estimates (:func:`shared_basis`); returns the
    table's shared sentences, each with ``where``: the releases' numbers or the exposures'
    letters it applies to, ``""`` when it applies to every row."""
    out = shared_basis([[e.get("basis") or "" for e in row.get("estimates", [])] for row in rows])
    for row, sentences, own in zip(rows, out["groups"], out["rows"]):
        row["basis_shared"] = sentences
        for estimate, text in zip(row.get("estimates", []), own):
            estimate["basis_own"] = text
    names = [str(row.get("letter") or row.get("number") or "") for row in rows]
    every = set(range(len(rows)))
    return [
        {"text": item["text"], "where": "" if set(item["groups"]) == every else ", ".join(names[g] for g in item["groups"])}
        for item in out["common"]
    ]


def _clauses(text: str) -> list[str]:
    """``text`` cut at its top-level "; " (not inside parentheses), each clause without the
    final full stop."""
    clauses, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith("; ", i):
            clauses.append(text[start:i])
            start = i + 2
    clauses.append(text[start:])
    return [c.strip().rstrip(".") for c in clauses if c.strip().rstrip(".")]


def shared_clauses(model: str, bases: list[str]) -> tuple[str, list[str]]:
    """The bases of one activity's estimates (central tendency, high end...) as one
    sentence they share and each one's own: the engine writes each estimate's basis in
    full, so the clauses every estimate repeats (the worker count, the days, "no gloves
    assumed") and the model's name the block's heading already prints are said once.

    >>> shared_clauses("M", ["M: 48 workers; low", "M: 48 workers; high"])
    ('48 workers', ['low', 'high'])
    """
    prefix = f"{model}: "
    split = [_clauses(b[len(prefix):] if b.startswith(prefix) else b) for b in bases]
    common = [c for c in split[0] if all(c in other for other in split[1:])] if len(split) > 1 else []
    own = ["; ".join(c for c in clauses if c not in common) for clauses in split]
    return "; ".join(common), own
