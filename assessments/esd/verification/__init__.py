"""Self-verification: every figure the documents print in their worked examples, run
through the engine (spec INTERFACE.md, "Additions, version 2", "Self-verification").

One declaration of every worked example, one module a document:

- :mod:`.photoresist_2004`: the 2004 ESD's Table 3-1 and Section 4 example (pp. 11, 18-20);
- :mod:`.photoresist_2010`: the 2010 ESD's Section 6 example, Table 3-2 and Table B-8;
- :mod:`.photoresist_2018`: EPA's 2018 update, its Section 6 example and Section 7 sample IRER;
- :mod:`.cvd_2015`: the CVD ESD's Section 6 example, Appendix B (Method 1, Table B-1),
  the Appendix C and D sample calculations and Table C-3;
- :mod:`.eiip`: EIIP Volume II Chapter 6's Examples 6.4-1 to 6.5-4.

Each printed figure is a :class:`~.sources.Figure`: document, section, quantity, the text
as printed, and how the engine computes it, preferably the whole scenario run as a user
runs it (:class:`~.sources.Run`), an equation function where the document's example is of
one equation (:class:`~.sources.Equation`). Whether it matches is computed, never
declared: :func:`~.compare.matches` rounds the engine's number as the document rounded its
figure. A figure that does not match carries a note citing the document's reason (its own
rounding, a contradiction with itself, an illegible or missing figure); :func:`table`
computes every row once per process; :func:`validation` groups them by document.

:mod:`.conformance` reads the same rows model by model: the conformance record
(``esd conformance``, docs/conformance.md), with ChemSTEER v3.2's figure where known.
"""

from .compare import Printed, at_precision, matches, parse_printed
from .conformance import (
    ConformanceRow,
    conformance_digest,
    conformance_json,
    conformance_markdown,
    conformance_rows,
)
from .evaluation import (
    COMPUTED_DIGITS,
    UNCOMPUTED_TEXT,
    DocumentRows,
    Row,
    Summary,
    Validation,
    documents,
    evaluate,
    figures,
    summarise,
    table,
    validation,
)
from .sources import NOT_COMPUTED, Document, Equation, Figure, Run

__all__ = [
    "COMPUTED_DIGITS",
    "ConformanceRow",
    "UNCOMPUTED_TEXT",
    "NOT_COMPUTED",
    "Document",
    "DocumentRows",
    "Equation",
    "Figure",
    "Printed",
    "Row",
    "Run",
    "Summary",
    "Validation",
    "at_precision",
    "conformance_digest",
    "conformance_json",
    "conformance_markdown",
    "conformance_rows",
    "documents",
    "evaluate",
    "figures",
    "matches",
    "parse_printed",
    "summarise",
    "table",
    "validation",
]
