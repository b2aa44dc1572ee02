"""``python -m tcgtrig`` runs the ``tcgtrig`` command."""

from .tools.cli import main

main(prog_name="tcgtrig")
