"""The query-plan tests' shared set-up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from portfolio import receivers


@contextmanager
def portfolio_ledger_paused() -> Iterator[None]:
    """The seed's writes and bulk copies leave the portfolio's ledger as it is: these tests
    read the lists' plans, not the portfolio, and following tens of thousands of cases into the
    ledger costs them many seconds (tests/portfolio holds the ledger's own rules)."""
    receivers.disconnect()
    try:
        yield
    finally:
        receivers.connect()
