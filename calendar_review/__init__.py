"""The review calendar of a case (TSCA's 90-day review period, its suspensions and
extensions, the due date) and the assignment of a case's engineer (issue 16)."""
