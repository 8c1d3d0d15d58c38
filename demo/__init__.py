"""The demo data of a developer's machine: ``manage.py load_demo``."""
