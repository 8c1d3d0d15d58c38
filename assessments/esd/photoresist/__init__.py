"""Photoresist use in semiconductor manufacturing: the OECD ESD No. 9 scenarios.

Registered scenarios (see :data:`SCENARIOS`):

``photoresist-2010``
    The 2010 revision as published: general facility estimates (Eqns 3-1 to 3-4), the
    five releases (Eqns 4-1a to 4-5), workers (5-1, 5-2) and dermal exposures A to E
    (5-3 to 5-7) with the printed hand areas 420/840 cm².
``photoresist-2018``
    The same with EPA's 2018 update: media of release from its Table 1-1 (container
    residue to incineration), Release 5 split by stripping process (§4.7), and EPA's
    2013 hand areas 535/1,070 cm² for the exposures the update leaves to the 2010 ESD.
``photoresist-2004``
    The 2004 edition, to reproduce older assessments: no recalculation of Qchem_day,
    (1 − F_container_disp) inside Eqns 3-5 to 3-8, Fphoto_wafer carried as a range,
    20 to 25 workers and one one-hand dermal activity.

Modules: :mod:`.constants` (every sourced default), :mod:`.equations` and
:mod:`.equations_2004` (one pure function per equation, with doctests re-running the
worked examples), :mod:`.params` (the inputs, wizard steps and Table 3-2 presets),
:mod:`.facility`, :mod:`.releases`, :mod:`.exposures`, :mod:`.volatile` (what is added
for a chemical with VP ≥ 0.001 torr) and :mod:`.scenarios` (the run functions).

Decisions where the documents contradict themselves are stated in the docstrings where
they are taken (search for "as printed", "reading") and in the worked-example tests.
"""

from .scenarios import PHOTORESIST_2004, PHOTORESIST_2010, PHOTORESIST_2018, SCENARIOS

__all__ = ["SCENARIOS", "PHOTORESIST_2004", "PHOTORESIST_2010", "PHOTORESIST_2018"]
