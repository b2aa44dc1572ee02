"""``python -m tcgtrig`` runs the ``tcgtrig`` command."""

from .cli import main

main(prog_name="tcgtrig")
