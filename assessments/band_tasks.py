"""The Monte Carlo band of a use's sensitivity (``esd.sensitivity.BAND_NAME``), computed by the report
workers (issue 30).

The engine's band (``esd.sensitivity``: P5, P50 and P95 of each output when every input
with a documented range that the case leaves at its default varies at once, the ones it sets
held, ``samples`` draws from ``seed``) takes about 1 ms a
sample: 2,000 samples are seconds a use, too slow for the results page's request. So the
page's button (``views_band``) enqueues :data:`sensitivity_band` with the use's inputs, once
per key (:func:`band_request`), on the queue the IRER PDFs use; a report worker computes the
band and stores a small JSON of it in the report storage (``STORAGES["reports"]``) under
``band/<key>.json``, written once, only if absent, like the PDFs (``reports.cache``). The
page then reads it back (:func:`stored_band`) for the use's current inputs.

The key is the SHA-256 of what the band is a function of: the scenario, the inputs (as
canonical JSON), ``samples``, ``seed``, the engine's version and the band's rules
(:data:`BAND_RULES`) (:func:`band_key`). So a
stored band is never stale: inputs changed give another key, and the page offers the button
again.

The band is an illustration beside the deterministic figure, never the figure reported.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django_tasks import TaskResultStatus, task

from .esd import sensitivity
from .esd.results import ENGINE_VERSION
from .models import Scenario
from .presentation import CURRENT, UNCOMPUTED, scenario_state
from .reports import heartbeat
from .reports.cache import read_whole, report_storage, write_once
from .reports.tasks import _key_lock, active, database_backend

logger = logging.getLogger(__name__)


STORED, QUEUED, FAILED = "stored", "queued", "failed"

BAND_UNCOMPUTED = "This use has not been computed yet: finish its wizard before asking for its band."
BAND_NOT_CURRENT = ("The inputs of this use changed since it was computed: compute it again before asking for its "
                    "band.")
BAND_COMPUTED = f"The {sensitivity.BAND_NAME} is computed: it is shown beside each chart below."
BAND_QUEUED = (f"The {sensitivity.BAND_NAME} is being computed by the report service: reload this page in a few "
               "seconds.")
BAND_NO_WORKER = (f"The {sensitivity.BAND_NAME} is queued, but the report service is not running: no report worker "
                  "has checked in for {seconds} seconds. It is computed as soon as the service runs; tell the "
                  "administrator.")
BAND_FAILED = (f"The {sensitivity.BAND_NAME} could not be computed. Try again; if it fails again, tell the "
               "administrator (the report service's log has the error).")
BAND_NO_STORAGE = 'No report storage is configured (STORAGES["reports"]), so a computed band has nowhere to go.'
BAND_NOT_STORED = "The band was computed but could not be stored in the report storage (missing, full or unwritable)."


class BandRefused(Exception):
    """The band of a use cannot be asked for now; the message (a module constant) says why."""


class BandNotStored(Exception):
    """The band could not be stored, so the page cannot show it; the message says why."""


def band_samples() -> int:
    """The band's samples: setting ``SENSITIVITY_BAND_SAMPLES``, else the engine's default."""
    return int(getattr(settings, "SENSITIVITY_BAND_SAMPLES", sensitivity.DEFAULT_SAMPLES))


def band_seed() -> int:
    """The band's seed: setting ``SENSITIVITY_BAND_SEED``, else the engine's default."""
    return int(getattr(settings, "SENSITIVITY_BAND_SEED", sensitivity.DEFAULT_SEED))


def engine_version() -> str:
    return ENGINE_VERSION


def canonical_json(value: Any) -> str:
    """``value`` as JSON with its keys sorted and no spaces: equal inputs, equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: The band's rules, in its key: raised when the engine draws the band otherwise, so a band
#: stored under the old rules is not shown. 2: the inputs the case sets are held.
BAND_RULES = 2


def band_key(*, scenario_key: str, inputs: dict[str, Any], samples: int, seed: int) -> str:
    """SHA-256 (hex) of what the band is a function of: the scenario, the inputs, the
    samples, the seed, the engine's version and the band's rules."""
    text = canonical_json([scenario_key, canonical_json(inputs), samples, seed, engine_version(), BAND_RULES])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def scenario_band_key(*, scenario: Scenario) -> str:
    """The key of ``scenario``'s band, for the inputs its result was computed from."""
    return band_key(scenario_key=scenario.scenario_key, inputs=scenario.computed_inputs or {},
                    samples=band_samples(), seed=band_seed())


def band_of(*, scenario_key: str, inputs: dict[str, Any], samples: int, seed: int) -> dict[str, Any]:
    """The engine's band of every output of ``inputs``, as stored: ``{"scenario", "samples",
    "seed", "engine_version", "note", "varied", "held", "outputs": [{"id", "estimate",
    "quantity", "p5", "p50", "p95", "samples"}]}``; ``note`` says why there is no band (""
    when there is one); ``varied`` and ``held`` name the ranged inputs drawn and those held at
    the case's values. Raises
    the engine's validation error for inputs it refuses."""
    found = sensitivity.study(scenario_key, inputs, samples=samples, seed=seed)
    outputs = [{"id": o.id, "estimate": o.estimate, "quantity": o.quantity, "p5": o.band.p5, "p50": o.band.p50,
                "p95": o.band.p95, "samples": o.band.samples} for o in found.outputs if o.band is not None]
    return {"scenario": scenario_key, "samples": samples, "seed": seed, "engine_version": found.engine_version,
            "note": found.band_note, "varied": found.band_varied, "held": found.band_held, "outputs": outputs}


@task()
def sensitivity_band(*, key: str, scenario_key: str, inputs: dict[str, Any], samples: int, seed: int) -> None:
    """Compute the band of ``inputs`` (:func:`band_of`) and store it under ``key`` in the
    report storage, unless one is stored there already. Raises :class:`BandNotStored` when
    it cannot be stored."""
    storage = report_storage()
    if storage is None:
        raise BandNotStored(BAND_NO_STORAGE)
    if stored_band(key=key) is not None:
        return
    band = band_of(scenario_key=scenario_key, inputs=inputs, samples=samples, seed=seed)
    write_once(storage, _name(key), canonical_json(band).encode("utf-8"), whole=_whole, what="Band storage")
    if stored_band(key=key) is None:
        raise BandNotStored(BAND_NOT_STORED)
    logger.info("Sensitivity band of %s (%d samples) stored under %s", scenario_key, samples, key)


# The storage --------------------------------------------------------------------------------


def _name(key: str) -> str:
    return f"band/{key}.json"


def _whole(content: bytes) -> bool:
    """A band's JSON read whole: an object with its list of outputs."""
    try:
        band = json.loads(content.decode("utf-8"))
    except ValueError:  # cut short, or not UTF-8
        return False
    return isinstance(band, dict) and isinstance(band.get("outputs"), list)


def stored_band(*, key: str) -> dict[str, Any] | None:
    """The band stored under ``key``; None when there is none (or it cannot be read whole)."""
    storage = report_storage()
    if storage is None:
        return None
    content = read_whole(storage, _name(key), whole=_whole, what="Band storage")
    return None if content is None else json.loads(content.decode("utf-8"))


# The request --------------------------------------------------------------------------------


@dataclass(frozen=True)
class BandState:
    """Where a use's band is after :func:`band_request`: STORED, QUEUED (being computed) or
    FAILED, and the report workers running (None: the backend has none, it computes at once)."""

    state: str
    workers: int | None = None

    @property
    def message(self) -> str:
        """What the page tells the user who asked for the band."""
        if self.state == STORED:
            return BAND_COMPUTED
        if self.state == FAILED:
            return BAND_FAILED
        if self.workers == 0:
            return BAND_NO_WORKER.format(seconds=int(heartbeat.silent_after().total_seconds()))
        return BAND_QUEUED

    @property
    def level(self) -> str:
        """The message's level, by name (``django.contrib.messages``)."""
        return {STORED: "success", FAILED: "error"}.get(self.state, "warning" if self.workers == 0 else "info")


def band_request(*, scenario: Scenario) -> BandState:
    """The band of ``scenario``'s current inputs: stored already, or a task computing it (the
    one queued or running for its key, else a new one). Raises :class:`BandRefused` for a
    use not computed or whose inputs changed since. With a backend that runs the task at
    once (the immediate backend of the test settings) it is stored (or failed) on return."""
    state = scenario_state(scenario)
    if state == UNCOMPUTED:
        raise BandRefused(BAND_UNCOMPUTED)
    if state != CURRENT:
        raise BandRefused(BAND_NOT_CURRENT)
    inputs = scenario.computed_inputs
    assert inputs is not None, "a current use's result was computed from its inputs (presentation.scenario_state)"
    samples, seed = band_samples(), band_seed()
    key = band_key(scenario_key=scenario.scenario_key, inputs=inputs, samples=samples, seed=seed)
    if stored_band(key=key) is not None:
        return BandState(STORED)
    arguments: dict[str, Any] = {"key": key, "scenario_key": scenario.scenario_key, "inputs": inputs,
                                 "samples": samples, "seed": seed}
    backend = database_backend(sensitivity_band)
    if backend is None:
        result = sensitivity_band.enqueue(**arguments)
        if result.status == TaskResultStatus.SUCCESSFUL:
            return BandState(STORED)
        return BandState(FAILED if result.status == TaskResultStatus.FAILED else QUEUED)
    with _key_lock(key):
        if not active(sensitivity_band, key=key, backend=backend.alias).exists():
            sensitivity_band.enqueue(**arguments)
    return BandState(QUEUED, workers=heartbeat.workers_alive())
