"""Core system: workbench — job kinds and their inputs, results as steer messages, the
exactly-once delivery rules, fan-out/assembly of study artifacts, and the static checks of
generated documents (HTML demos, SVG diagrams). Pure: no I/O, no clock, no randomness."""
