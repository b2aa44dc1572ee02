"""The resolution loop: the :class:`~tcgtrig.runtime.machine.Machine`, the
frames of pending work it runs, the actions, what events trigger, reading
the state through an effect's eyes, and telling an endless loop from a long
one.  It imports the model and the games layer, never the scenario reader,
the front door or the tools."""
