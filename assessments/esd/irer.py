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
"""

from __future__ import annotations

from .models import residue
from .text import irer_percent

#: Models whose single estimate ChemSTEER prints from its second output slot ("Output 2").
SECOND_SLOT_MODELS = (residue.USER_DEFINED_MODEL,)
#: Residual models whose sentence names the CEB standard residual.
RESIDUAL_MODELS = (residue.SMALL_CONTAINER_MODEL, residue.DRUM_MODEL, residue.SINGLE_VESSEL_MODEL,
                   residue.MULTIPLE_VESSEL_MODEL)

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


def standard_sentence(model: str, loss_fraction: float | None = None) -> str:
    """The model's standard sentence, the block's ``basis:`` as ChemSTEER prints it.

    >>> standard_sentence("EPA/OPPT Small Container Residual Model", 0.006)
    'EPA/OPPT Small Container Residual Model, CEB standard 0.6% residual.'
    >>> standard_sentence("User-Defined Loss Rate Model")
    'User-Defined Loss Rate Model.'
    """
    if loss_fraction is not None and model in RESIDUAL_MODELS:
        return f"{model}, CEB standard {irer_percent(loss_fraction)} residual."
    return f"{model}."
