"""The standard EPA/OPPT release and exposure models, as pure functions of numbers.

The emission scenario documents call on one small library of "standard" EPA models,
described in Appendix B of OECD ESD No. 9, *Photoresist Use in Semiconductor
Manufacturing* (2010), and held in EPA's ChemSTEER. Each module is one family:

- :mod:`.residue` — container and equipment residue loss fractions (Eq B-11, B-12;
  Tables B-3 to B-6), the annual-release shell, container classes by volume.
- :mod:`.vapour` — vapour generation rates (Penetration, Mass Transfer Coefficient,
  AP-42 Loading; Eq B-1 to B-6; Table B-1), and the mass limit of a vapour release (at
  most the liquid it evaporates from; conservation of mass).
- :mod:`.inhalation` — Mass Balance vapour model with the saturation cap (Eq B-7 to
  B-10; Table B-2), Small Volume Solids and OSHA PNOR particulate models (Eq B-13 to
  B-15).
- :mod:`.dermal` — the five dermal models (Eq B-16; Tables B-8, B-9), with both sets of
  hand areas (the 2010 ESD's 420/840 cm², EPA's 535/1,070 cm² since 2013).
- :mod:`.doses` — APDR, ADD, LADD and exposure days.
- :mod:`.volatility` — the vapour-pressure gates (0.001, 0.01 and 35 torr).

Units are EPA's own (torr, ft/min, ft³/min, gal, g/s, cm, mg/cm²); they are converted
nowhere else. Bad arguments raise :class:`ValueError` naming the argument and its
allowed range; nothing is clamped. No Django imports.
"""

from . import dermal, doses, inhalation, residue, vapour, volatility

__all__ = ["dermal", "doses", "inhalation", "residue", "vapour", "volatility"]
