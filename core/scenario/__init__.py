"""Scenario files: reading YAML and JSON safely, validating against the
schema (``schema/*.json``), compiling a file for a game, writing the model
back as scenario data, and game states to JSON and back.
"""
