"""The data checksum: whether two loads had the same data, whatever the order of their
lines or how their JSON was spelt.

Each record is written in one canonical form: its fields as the loader read them (so
key order, spaces, escapes, and `null` versus a missing or empty optional field make no
difference), in the file format's field order, with slugs for references (never row ids,
which follow line order). Lists inside a record (matching aids, aliases) keep their
order: the API serves them in that order.

The records of a kind are a multiset, hashed without sorting: the SHA-256 digests of
their canonical forms are added up modulo 2**256, and counted. Addition does not care
about order and counts repeats (real evidence has exact repeats), and it needs no memory
for the million lines of a large evidence file, which sorting them would.
"""

import hashlib
from collections.abc import Iterable, Iterator

import orjson

from api.ingest.dataset import Catalog, EvidenceValues

_MODULUS = 1 << 256


def _digest(values: tuple[object, ...]) -> int:
    return int.from_bytes(hashlib.sha256(orjson.dumps(values)).digest(), "big")


class _Multiset:
    """An order-independent digest of a kind's records (the sum is reduced when read:
    a million 256-bit digests add up to a 276-bit number)."""

    def __init__(self) -> None:
        self.count = 0
        self.sum = 0

    def add(self, *values: object) -> None:
        self.sum += _digest(values)
        self.count += 1

    def line(self, kind: str) -> bytes:
        return f"{kind} {self.count} {self.sum % _MODULUS:064x}\n".encode()


class DataChecksum:
    """Fed the evidence rows as they are written (``evidence``), then the checked
    catalog (``hexdigest``)."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._evidence = _Multiset()

    def evidence(self, rows: Iterable[EvidenceValues]) -> Iterator[EvidenceValues]:
        """``rows``, passed on unchanged, each added to the checksum on the way."""
        models = [model.slug for model in self._catalog.models]
        methods = [method.slug for method in self._catalog.methods]
        sources = [source.slug for source in self._catalog.sources]
        add = self._evidence.add
        for row in rows:
            _, _, model_id, method_id, source_id, strength, quote, locator = row
            source = sources[source_id - 1] if source_id else None
            add(models[model_id - 1], methods[method_id - 1], strength, source, quote, locator)
            yield row

    def hexdigest(self) -> str:
        catalog = self._catalog
        nodes, models, sources, methods = _Multiset(), _Multiset(), _Multiset(), _Multiset()
        for placed in catalog.nodes:
            node = placed.record
            nodes.add(node.slug, node.name, node.parent, node.description, node.matching_aids)
        for model in catalog.models:
            models.add(model.slug, model.name, model.organization, model.release_date)
        for s in catalog.sources:
            sources.add(s.slug, s.model, s.title, s.kind, s.url, s.published_on)
        for m in catalog.methods:
            methods.add(m.slug, m.name, m.node, m.description, m.aliases)
        kinds = {
            "nodes": nodes,
            "models": models,
            "sources": sources,
            "methods": methods,
            "evidence": self._evidence,
        }
        return hashlib.sha256(
            b"".join(records.line(kind) for kind, records in kinds.items())
        ).hexdigest()
