"""Size limits of a plan: generous for a session's map, small enough to keep the UI readable
and the parser's work bounded whatever a model sends."""

MAX_TEXT_BYTES = 50_000  # the mermaid source, UTF-8
MAX_NODES = 200
MAX_EDGES = 400
MAX_GROUPS = 50
MAX_LABEL = 200  # characters of a node label, an edge label or a subgraph title
MAX_ID = 100  # characters of a node id
MAX_ERRORS = 100  # errors reported at once; one more line says how many were left out
