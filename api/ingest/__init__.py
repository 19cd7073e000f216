"""Loading a dataset folder (DESIGN.md §4) into the database, all or nothing."""
