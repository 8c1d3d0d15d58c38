"""A case file's use may give ``include_exposures`` as JSON ``true``/``false``, as the
engine's command line takes it (INTERFACE.md): the import reads it as the wizard stores it."""

import pytest

from assessments.esd import registry
from assessments.transfer.checks import TransferError, _check_inputs


@pytest.mark.parametrize(("given", "stored"), [(False, "no"), (True, "yes"), ("no", "no")])
def test_a_json_boolean_choice_is_stored_as_the_wizard_stores_it(given, stored):
    checked = _check_inputs(registry.get("photoresist-2010"), {"Qchem_yr": 5000, "include_exposures": given}, "use 1")
    assert checked["include_exposures"] == stored


def test_a_number_for_a_choice_is_still_refused():
    with pytest.raises(TransferError, match="include_exposures"):
        _check_inputs(registry.get("photoresist-2010"), {"Qchem_yr": 5000, "include_exposures": 1}, "use 1")
