"""The five files of a dataset folder (DESIGN.md §4), in the order they are read.

A module of its own, importing nothing: `taxonomy generate --help` names the scales of
api.commands.generate, which needs these names and must stay light to import."""

FILES = ("nodes.jsonl", "models.jsonl", "sources.jsonl", "methods.jsonl", "evidence.jsonl")
