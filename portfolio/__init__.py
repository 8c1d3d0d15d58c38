"""The team's workload at a glance: the rework the history records (returns, amendments,
recomputes after submission, time in each status), the departures from the documents'
defaults, and the open cases by days left, summed by engineer, method and month
(docs/portfolio.md)."""
