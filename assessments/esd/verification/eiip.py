"""EIIP Volume II, Chapter 6's printed figures: its seven worked examples.

EIIP, *Preferred and Alternative Methods for Estimating Air Emissions from Semiconductor
Manufacturing*, Volume II, Chapter 6 (February 1999; seed ``001_f3ae3e2708423a49``;
catalogue spec/eiip-semiconductor-air.md §5). Each example is of one or two equations, so
each figure is the engine's equation function of :mod:`assessments.esd.site_data` applied
to the example's data; an example that carries its hourly result into the annual equation
(6.4-3, 6.5-1) is chained through the engine's own unrounded hourly value. The
extraction lost the section number of "Emissions estimation using engineering
calculations" (Examples 6.5-3 and 6.5-4): it is cited by its title.
"""

from __future__ import annotations

from typing import Any

from ..site_data import (
    annual_emissions,
    emission_factor_emissions,
    evaporation_rate,
    mass_transfer_coefficient,
    material_balance_emissions,
    saturation_emissions,
    source_test_emissions,
    speciated_material_balance_emissions,
)
from .sources import Document, Equation, Figure, Source

DOCUMENT = Document(
    "eiip",
    "EIIP Vol. II Ch. 6",
    "EIIP Volume II, Chapter 6, Preferred and Alternative Methods for Estimating Air Emissions "
    "from Semiconductor Manufacturing (1999)",
)


def _figure(section: str, quantity: str, printed: str, source: Source, **more: Any) -> Figure:
    return Figure(DOCUMENT, section, quantity, printed, source, **more)


_ENGINEERING = "§5, engineering calculations"
#: Example 6.4-3: 15.4 ppmvd HF (as F), MW 20.0, 109,020 dscf/hr, M = 385.5 ft³/lb-mole.
HF_HOURLY = Equation(source_test_emissions, (15.4, 20.0, 109020, 385.5))
#: Example 6.5-1: 15.4 ppmvd toluene, MW 92.0, 109,020 dscf/hr, M = 385.5 ft³/lb-mole.
TOLUENE_HOURLY = Equation(source_test_emissions, (15.4, 92.0, 109020, 385.5))
#: Example 6.5-4: U = 1.7 miles/hr, MW 32 (methanol).
K_METHANOL = Equation(mass_transfer_coefficient, (1.7, 32))

FIGURES = (
    _figure("§4.1, Example 6.4-1, Eqn 6.4-1", "VOC from a cleaning process by material balance, E_VOC [lb/hr]",
            "3.75", Equation(material_balance_emissions, (2, 1.5, 7.5))),
    _figure("§4.1, Example 6.4-2, Eqn 6.4-2", "Toluene by material balance (25 wt%), E_x [lb/hr]", "0.94",
            Equation(speciated_material_balance_emissions, (2, 1.5, 7.5, 25))),
    _figure("§4.2, Example 6.4-3, Eqn 6.4-3", "HF from an emissions test, hourly, E_x [lb/hr]", "0.09",
            HF_HOURLY, remark="Measured as F, converted with the HF molecular weight (20.0) as the example does."),
    _figure("§4.2, Example 6.4-3, Eqn 6.4-4", "HF, annual over 1,760 hr/yr, E_a [ton/yr]", "0.08",
            Equation(annual_emissions, (HF_HOURLY, 1760)),
            # The text the engine was built from prints the hourly rate carried in as "10.09".
            remark=("The example carries the hourly rate rounded to 0.09 lb/hr (0.0792); the engine's "
                    "unrounded 0.0871 gives 0.0767: both read 0.08.")),
    _figure("§5.1, Example 6.5-1, Eqn 6.5-1", "Toluene from a process emissions test, hourly, E_x [lb/hr]", "0.40",
            TOLUENE_HOURLY),
    _figure("§5.1, Example 6.5-1, Eqn 6.5-2", "Toluene, annual over 1,760 hr/yr, E_a [ton/yr]", "0.35",
            Equation(annual_emissions, (TOLUENE_HOURLY, 1760))),
    _figure("§5.2, Example 6.5-2, Eqn 6.5-3", "HF by emission factor (6.0E-6 lb/wafer × 30 wafers/hr), "
            "E_HF [lb/hr]", "1.8 × 10⁻⁴", Equation(emission_factor_emissions, (6.0e-6, 30)),
            remark='The example says "Equation 6.5-4"; the emission-factor equation is 6.5-3.'),
    _figure(f"{_ENGINEERING}, Example 6.5-3, Eqn 6.5-4", "Methanol from a hooded process, saturation "
            "upper limit, E_methanol [lb/hr]", "64.7", Equation(saturation_emissions, (0.13, 1, 6000, 0.083)),
            remark='The example says "Equation 6.5-5" and writes P_x for d_x; the saturation equation is 6.5-4.'),
    _figure(f"{_ENGINEERING}, Example 6.5-4, Eqn 6.5-5", "Gas-phase mass transfer coefficient, K [ft/sec]",
            "0.00547", K_METHANOL),
    _figure(f"{_ENGINEERING}, Example 6.5-4, Eqn 6.5-5", "Methanol evaporation rate, W_x [lb/sec]",
            "5.84 × 10⁻⁵", Equation(evaporation_rate, (32, K_METHANOL, 1, 1.91, 533, 10.73)),
            note=("The document's own rounding: it truncates. (32 × 0.00547 × 1 × 1.91) / (10.73 × 533) = "
                  "5.846E-5 with its printed K, and 5.845E-5 with the unrounded K = 0.0054693 ft/sec: both "
                  "5.85 × 10⁻⁵ to three figures, where Example 6.5-4 prints 5.84 × 10⁻⁵."),
            remark='The example says "Equation 6.5-6", which does not exist; the evaporation equation is 6.5-5.'),
)
