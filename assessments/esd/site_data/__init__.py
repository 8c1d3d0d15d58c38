"""Site-specific air emissions from a submitter's facility data: EIIP Volume II, Chapter 6.

EIIP, *Preferred and Alternative Methods for Estimating Air Emissions from Semiconductor
Manufacturing*, Volume II, Chapter 6 (Eastern Research Group for the EIIP Point Sources
Committee, February 1999), cited below as "EIIP". The ESDs' defaults are screening values;
both ESDs say site-specific data, when a submitter gives them, replace the defaults (ESD
2010 §3; ESD 2015 ¶31 in §3 and ¶76 in §6), and EIIP §3.1 (p.6.3-1): site-specific data
"are preferred over data obtained from other similar sites, or industry-averaged data"
(§1: "always preferred"). This package computes such an air release by one of EIIP's
methods:

- ``material_balance``: Eqn 6.4-1 (on the pollutant's content), label "output";
- ``material_balance_speciated``: Eqn 6.4-2 (weight percent), label "output";
- ``source_test``: Eqn 6.4-3 (inorganic) or 6.5-1 (organic), with 6.4-4, label "output";
- ``emission_factor``: Eqn 6.5-3, label "output";
- ``saturation``: Eqn 6.5-4, the saturation upper limit (optionally diluted), "what-if";
- ``evaporation``: Eqn 6.5-5, mass-transfer evaporation, label "what-if".

Measured-data methods are labelled "output" (a number derived from the facility's own
measurements); the engineering calculations, which EIIP calls "the least preferred" and
"based on theoretical equations" (§3.2.4, p.6.3-5; §6.4), are labelled "what-if".

Preferred or alternative: the standing of a method depends on the pollutant (EIIP
Table 6.3-1, p.6.3-3): for VOCs and speciated organics the material balance is preferred,
and source testing, engineering calculations and emission factors are alternatives; for
inorganic HAPs (acids, bases) source testing is preferred, engineering calculations and
emission factors are alternatives, and a material balance is not listed (§3.2.1: not
appropriate where reactions make the fate uncertain). §4's second paragraph (p.6.4-1)
calls source testing "or engineering calculations" the preferred methods for inorganic
HAPs; Table 6.3-1 and §3.2.4 ("least preferred") are followed here. Each release's basis
states the standing, the DARS composite score of the method (Tables 6.6-1 to 6.6-4) and
the QA/QC point of §6.1 to §6.4.

Design: additive to the contract
--------------------------------
Any scenario's inputs may carry one extra top-level key, ``"site_specific"``: a list of
entries, each a JSON object::

    {"method": "source_test",                 # a key of METHODS
     "inputs": {"pollutant_class": "inorganic", "C_x": 15.4, "MW_x": 20.0,
                "V": 109020, "OH": 1760, "days_per_year": 220},
     "replaces": 1,                           # a release number, or null to add beside
     "source": "PMN attachment 3: 2023 stack test, tool exhaust",   # required
     "activity": "CVD tool exhaust stack"}     # optional: what emits

:meth:`registry.Scenario.compute` hands the key to :func:`compute_with_site_data`, so every
scenario (CVD, photoresist ...) gets it without declaring it. Each method declares its own
:class:`~assessments.esd.parameters.ParamSet` (``METHODS[key].params``), which validates
an entry's inputs as a scenario's are validated.
The input is reached through the engine (``registry.compute``), the ``esd`` command line
(``esd compute KEY`` with the key in the JSON inputs), a case file's import (validated by
:func:`parse_entries`) and, in the web application, the optional last step of every
scenario's wizard, "Submitter's site data" (``assessments/forms/site_data.py``), whose
fields are generated from these declarations and whose entries :func:`parse_entries`
validates before they are stored in the scenario's inputs; the result and report pages
show a release so computed as site-specific.
Errors are keyed ``"site_specific[i].SYMBOL"`` (``"site_specific[i].method"``,
``.replaces``, ``.source`` for the entry itself), and are reported together with the
scenario's own errors.

The entry's release is an air release (EIIP estimates air emissions only) with
``site_specific = True``. With ``"replaces": n`` it takes release n's place and number (the
ESD's estimate is kept in ``notes``); with ``null`` it is appended with the next free number.
Days of release and sites: ``days_per_year`` and ``Nsites`` when given, else those of the
replaced release; an entry that replaces nothing must give ``days_per_year`` and stands for
one site (the facility whose data it is) unless ``Nsites`` is given. The effective entries
are recorded in the result's ``inputs["site_specific"]``, so the result can be reproduced.
Submitter data are not capped; when an entry's release takes the total released above the
chemical used (``facts.used_kg_yr``, else ``Qchem_yr``), the result carries a warning.

Units stay EIIP's (lb/hr, gal, dscf, ft³, psia, °R) up to the annual emission; the release
is then converted once: kg/site-yr = E_x [lb/hr] × OH [hr/yr] × 0.45359237 kg/lb, and
kg/site-day = kg/site-yr / days_per_year.

Modules: :mod:`.constants` (sourced constants), :mod:`.equations` (one pure function per
equation, with doctests re-running EIIP's examples), :mod:`.methods` (each method's inputs
and hourly rate, Table 6.3-1, DARS, QA/QC), :mod:`.entries` (parsing the
``site_specific`` entries) and :mod:`.apply` (the release, and applying it to a result).
Nothing here imports Django.
"""

from .apply import EXCEEDS_USE, apply_site_specific, compute_with_site_data, site_specific_release
from .constants import (
    DAYS_PER_YEAR_MAX,
    DILUTION_RATIO_NONE,
    DILUTION_RATIO_TYPICAL_MAX,
    DOC,
    DOCUMENT,
    HOURS_PER_DAY,
    HOURS_PER_YEAR_MAX,
    K_CONSTANT,
    KG_PER_LB,
    LB_PER_TON,
    M_STANDARD,
    MW_WATER,
    P_TOTAL_ATM,
    R_PSIA_FT3,
    SECONDS_PER_HOUR,
)
from .entries import SITE_SPECIFIC, SiteEntry, parse_entries
from .equations import (
    annual_emissions,
    diluted_emissions,
    emission_factor_emissions,
    evaporation_hourly,
    evaporation_rate,
    kg_per_site_day,
    kg_per_site_year,
    mass_transfer_coefficient,
    material_balance_emissions,
    saturation_emissions,
    source_test_emissions,
    speciated_material_balance_emissions,
    vapour_density,
)
from .methods import (
    DARS_COMPOSITE,
    EMISSION_FACTOR,
    ENGINEERING,
    INORGANIC,
    MATERIAL_BALANCE,
    METHODS,
    ORGANIC,
    POLLUTANT_CLASSES,
    QA_QC,
    SOURCE_TEST,
    STEP,
    TABLE_6_3_1,
    VOC,
    SiteMethod,
    standing,
)

__all__ = [
    # the input and its entry point
    "SITE_SPECIFIC", "compute_with_site_data", "parse_entries", "apply_site_specific",
    "site_specific_release", "SiteEntry", "EXCEEDS_USE",
    # the methods and EIIP's tables
    "METHODS", "SiteMethod", "STEP", "standing", "TABLE_6_3_1",
    "DARS_COMPOSITE", "QA_QC", "POLLUTANT_CLASSES", "VOC", "ORGANIC", "INORGANIC",
    "MATERIAL_BALANCE", "SOURCE_TEST", "EMISSION_FACTOR", "ENGINEERING",
    # the equations
    "material_balance_emissions", "speciated_material_balance_emissions",
    "source_test_emissions", "annual_emissions", "emission_factor_emissions", "vapour_density",
    "saturation_emissions", "diluted_emissions", "mass_transfer_coefficient",
    "evaporation_rate", "evaporation_hourly", "kg_per_site_year", "kg_per_site_day",
    # the constants
    "DOC", "DOCUMENT", "M_STANDARD", "LB_PER_TON", "KG_PER_LB", "SECONDS_PER_HOUR",
    "R_PSIA_FT3", "P_TOTAL_ATM", "K_CONSTANT", "MW_WATER", "DILUTION_RATIO_TYPICAL_MAX",
    "DILUTION_RATIO_NONE", "HOURS_PER_DAY", "HOURS_PER_YEAR_MAX", "DAYS_PER_YEAR_MAX",
]
