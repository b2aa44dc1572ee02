"""Foundations every layer may use: the public exceptions, text made safe
for a terminal, fast JSON text, and the memory and garbage-collector
helpers.  Nothing here knows about cards or games."""
