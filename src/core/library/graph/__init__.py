"""The graph's read side: the ledgers folded into a snapshot, its views, export and node search."""
