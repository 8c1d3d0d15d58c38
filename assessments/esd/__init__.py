"""The calculation engine: the published emission-scenario methods in pure Python.

Nothing here imports Django. ``registry.compute(key, inputs)`` is the entry point;
``spec/INTERFACE.md`` (in the shared specification) is the JSON contract.
"""
