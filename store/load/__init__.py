"""The load's statements, all run inside its one transaction: the load lock, the
release before, the bulk writes, the tables built beside the served ones, the release
and its change rows, pruning, and the counts the shrink guard compares. api.ingest reads
and checks the dataset and calls these in order; it builds no SQL of its own."""
