"""How EPA's IRER names an estimate: ChemSTEER's output labels and the model's standard sentence.

ChemSTEER v3.2 (public domain; decompiled in the ChemSteer4 repository) prints each release
estimate under the characterisation of the model output it comes from. Every release model
has two output slots (``ListOfModels``: ``OutputOn1``/``OutputOn2``, ``Char1``/``Char2``),
and a single-estimate model prints its second slot only, which is why the EPA 2018
update's sample IRER (§7) prints "Output 2" for the User-Defined Loss Rate Model, "High
End" for the Small Container Residual Model and "Conservative" for the Single Process
Vessel Residual Model. The characterisation pick list (``Codes.csv``, type 10) has "Low End
of Range" and "High End of Range" for the two ends of a range, and no "Low End".

:func:`irer_label` is the one rule from the engine's characterisation (``results.LABELS``)
to the label the report prints; :func:`standard_sentence` the model's sentence the block's
``basis:`` opens with ("EPA/OPPT Small Container Residual Model, CEB standard 0.6%
residual.", as the sample prints it), the computed narrative going to the appendix.

The engine names a model as its document does (the 2010 ESD's "EPA/OPPT Single Process
Vessel Residual Model"); the IRER names it as ChemSTEER prints it: the ``Basis`` text of
ChemSTEER's ``ListOfModels`` table, which the report's ``basis:`` line and exposure blocks
copy (``ChemStrX.AddRelModel``/``AddExpModel``). :data:`CHEMSTEER_NAMES` holds the names
that differ, :func:`chemsteer_name` and :func:`irer_basis` apply them.
"""

from __future__ import annotations

from .models import dermal, inhalation, residue
from .text import irer_percent

#: Models whose single estimate ChemSTEER prints from its second output slot ("Output 2").
SECOND_SLOT_MODELS = (residue.USER_DEFINED_MODEL,)
#: Residual models whose sentence names the CEB standard residual.
RESIDUAL_MODELS = (residue.SMALL_CONTAINER_MODEL, residue.DRUM_MODEL, residue.SINGLE_VESSEL_MODEL,
                   residue.MULTIPLE_VESSEL_MODEL)

#: ChemSTEER v3.2's name of each engine model whose name differs, as the IRER prints it: the
#: model's ``Basis`` text up to its first comma or period (ChemSteer4 repository,
#: ``mdb/ChmSteer/tables/ListOfModels.csv``, ModelID in the comment; the seed sample IRER,
#: §7 p. 7-5, prints "EPA/OPPT Single Vessel Residual Model, CEB standard 1% residual.").
CHEMSTEER_NAMES = {
    residue.SINGLE_VESSEL_MODEL: "EPA/OPPT Single Vessel Residual Model",  # 4
    inhalation.SMALL_VOLUME_SOLIDS_MODEL: "EPA Small Volume Handling Model",  # 21
    inhalation.PNOR_MODEL: "OSHA PNOR PEL-Limiting Model",  # 24
    dermal.ONE_HAND_CONTACT_MODEL: "EPA/OPPT 1-Hand Dermal Contact with Liquids Model",  # 25
    dermal.TWO_HAND_CONTACT_MODEL: "EPA/OPPT 2-Hand Dermal Contact with Liquids Model",  # 26
    dermal.DIRECT_SOLIDS_MODEL: "EPA/OPPT Direct 2-Hand Dermal Contact with Solids Model",  # 28
    dermal.CONTAINER_SURFACE_SOLIDS_MODEL: "EPA/OPPT 2-Hand Dermal Contact with Container Surfaces (Solids) Model",  # 29
}

_TITLES = {
    "central tendency": "Central Tendency",
    "high end": "High End",
    "low end": "Low End of Range",
    "conservative": "Conservative",
    "what-if": "What-If",
    "output": "Output",
}


def irer_label(label: str, model: str, labels_of_release: tuple[str, ...]) -> str:
    """The label ChemSTEER prints for an estimate labelled ``label`` by ``model``, among
    the labels of its release (or exposure) ``labels_of_release``.

    >>> irer_label("output", "User-Defined Loss Rate Model", ("output",))
    'Output 2'
    >>> irer_label("high end", "EPA/OPPT Small Container Residual Model", ("high end",))
    'High End'
    >>> irer_label("low end", "x", ("low end", "high end")), irer_label("high end", "x", ("low end", "high end"))
    ('Low End of Range', 'High End of Range')
    """
    if label == "output" and model in SECOND_SLOT_MODELS and labels_of_release == ("output",):
        return "Output 2"
    if label == "high end" and "low end" in labels_of_release:
        return "High End of Range"
    return _TITLES.get(label, label.title())


def chemsteer_name(model: str) -> str:
    """The model as ChemSTEER's IRER names it.

    >>> chemsteer_name("EPA/OPPT Single Process Vessel Residual Model")
    'EPA/OPPT Single Vessel Residual Model'
    >>> chemsteer_name("User-Defined Loss Rate Model")
    'User-Defined Loss Rate Model'
    """
    return CHEMSTEER_NAMES.get(model, model)


def standard_sentence(model: str, loss_fraction: float | None = None) -> str:
    """The model's standard sentence, the block's ``basis:`` as ChemSTEER prints it.

    >>> standard_sentence("EPA/OPPT Small Container Residual Model", 0.006)
    'EPA/OPPT Small Container Residual Model, CEB standard 0.6% residual.'
    >>> standard_sentence("EPA/OPPT Single Process Vessel Residual Model", 0.01)
    'EPA/OPPT Single Vessel Residual Model, CEB standard 1% residual.'
    >>> standard_sentence("User-Defined Loss Rate Model")
    'User-Defined Loss Rate Model.'
    """
    if loss_fraction is not None and model in RESIDUAL_MODELS:
        return f"{chemsteer_name(model)}, CEB standard {irer_percent(loss_fraction)} residual."
    return f"{chemsteer_name(model)}."


def irer_basis(sentence: str, model: str) -> str:
    """A stored standard sentence in ChemSTEER's name of its model: a result computed before
    the IRER named models as ChemSTEER does opens with the document's name.

    >>> irer_basis("EPA/OPPT Single Process Vessel Residual Model, CEB standard 1% residual.",
    ...            "EPA/OPPT Single Process Vessel Residual Model")
    'EPA/OPPT Single Vessel Residual Model, CEB standard 1% residual.'
    >>> irer_basis("", "User-Defined Loss Rate Model")
    'User-Defined Loss Rate Model.'
    """
    if not sentence:
        return standard_sentence(model)
    if model in CHEMSTEER_NAMES and sentence.startswith(model):
        return chemsteer_name(model) + sentence[len(model):]
    return sentence
