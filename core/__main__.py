"""``python -m tcgtrig`` runs the ``tcgtrig`` command."""

from tcgtrig.tools.cli import main

main(prog_name="tcgtrig")
