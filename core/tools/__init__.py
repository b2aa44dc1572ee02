"""What is built on the front door: the ``tcgtrig`` command, ``explore``,
``compare`` and its HTML page, the trace tree, the linter and the pytest
plugin."""
