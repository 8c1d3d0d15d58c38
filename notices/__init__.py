"""Notices (in the application and by email) and the supervisors' comments on single uses."""
