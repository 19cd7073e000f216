"""The next version of a dataset, as the upstream pipeline's next run might write it: a
seeded, known mix of every change history records (DESIGN.md section 5), for loading a
release over another in tests and the benchmark.

The seed node's branch and its ancestors are left alone, so the seed page stays exact."""

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any, TypeVar

from api.commands.generate import SEED_NODE, STRENGTHS
from api.ingest.files import FILES

Records = list[dict[str, Any]]
T = TypeVar("T")


def _read(folder: Path, name: str) -> Records:
    with (folder / name).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _write(folder: Path, name: str, rows: Records) -> None:
    with (folder / name).open("w", encoding="utf-8") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)


def _edited(description: str | None, tag: str) -> str:
    """A description edited by the next run: another sentence, or a first one."""
    return f"{description} Edited ({tag})." if description else f"Described ({tag})."


def _kept_nodes(nodes: Records) -> set[str]:
    """The seed node, its ancestors and its branch: never changed."""
    parent = {node["slug"]: node["parent"] for node in nodes}
    kept, slug = set(), SEED_NODE
    while slug is not None and slug in parent:
        kept.add(slug)
        slug = parent[slug]
    children: dict[str | None, list[str]] = {}
    for node in nodes:
        children.setdefault(node["parent"], []).append(node["slug"])
    stack = [SEED_NODE]
    while stack:
        for child in children.get(stack.pop(), []):
            kept.add(child)
            stack.append(child)
    return kept


def _unused_tag(seed: int, *records: Records) -> str:
    """The mark of this version's edits and of the slugs it adds (`next-0-method-1`): the
    seed's, or with a number after it when a version made with the same seed already
    added slugs (a next version of a next version), which would be duplicates."""
    slugs = [record["slug"] for rows in records for record in rows]
    tag, again = f"next-{seed}", 1
    while any(f"{tag}-" in slug for slug in slugs):
        again += 1
        tag = f"next-{seed}-{again}"
    return tag


def next_version(source: Path, target: Path, *, seed: int = 0, each: int = 3) -> Counter[str]:
    """Write into ``target`` the next version of the dataset in ``source``, with up to
    ``each`` changes of every kind (fewer where the data has too few candidates); the
    counts of what was done, by kind."""
    rng = random.Random(seed)
    nodes, models = _read(source, "nodes.jsonl"), _read(source, "models.jsonl")
    sources, methods = _read(source, "sources.jsonl"), _read(source, "methods.jsonl")
    evidence = _read(source, "evidence.jsonl")
    done: Counter[str] = Counter()
    kept = _kept_nodes(nodes)
    free_nodes = sorted(n["slug"] for n in nodes if n["slug"] not in kept)
    tag = _unused_tag(seed, nodes, models, sources, methods)

    def pick(population: list[T], count: int) -> list[T]:
        return rng.sample(population, min(count, len(population)))

    # Nodes: renamed; leaves moved under another root.
    by_slug = {node["slug"]: node for node in nodes}
    renamed_nodes = pick(free_nodes, each)
    for slug in renamed_nodes:
        by_slug[slug]["name"] += f" ({tag})"
        done["node renamed"] += 1
    parents = {node["parent"] for node in nodes}
    roots = sorted(n["slug"] for n in nodes if n["parent"] is None)
    leaves = [s for s in free_nodes if s not in parents and by_slug[s]["parent"] is not None]
    moved_nodes = pick(leaves, each)
    for slug in moved_nodes:
        elsewhere = [root for root in roots if root != by_slug[slug]["parent"]]
        if elsewhere:
            by_slug[slug]["parent"] = rng.choice(elsewhere)
            done["node moved"] += 1
    # Nodes changed in other fields alone: described anew, and a matching aid more.
    untouched = [s for s in free_nodes if s not in {*renamed_nodes, *moved_nodes}]
    for slug in pick(untouched, each):
        node = by_slug[slug]
        node["description"] = _edited(node.get("description"), tag)
        node["matching_aids"] = [*(node.get("matching_aids") or []), f"{slug} {tag}"]
        done["node changed"] += 1

    # Methods outside the seed's branch: removed (with their evidence), moved, renamed.
    free_methods = sorted(m["slug"] for m in methods if m["node"] not in kept)
    changed = pick(free_methods, 3 * each)
    removed = set(changed[:each])
    methods = [m for m in methods if m["slug"] not in removed]
    evidence = [e for e in evidence if e["method"] not in removed]
    done["method removed"] += len(removed)
    method_by_slug = {method["slug"]: method for method in methods}
    for slug in changed[each : 2 * each]:
        others = [n for n in free_nodes if n != method_by_slug[slug]["node"]]
        if others:
            method_by_slug[slug]["node"] = rng.choice(others)
            done["method moved"] += 1
    for slug in changed[2 * each :]:
        method_by_slug[slug]["name"] += f" ({tag})"
        done["method renamed"] += 1
    if changed[2 * each :]:  # one renamed and described anew: a rename with field changes
        renamed = method_by_slug[changed[2 * each]]
        renamed["description"] = _edited(renamed.get("description"), tag)
    # Methods changed in other fields alone: described anew, or given an alias.
    untouched_methods = [slug for slug in free_methods if slug not in set(changed)]
    for index, slug in enumerate(pick(untouched_methods, each)):
        edited = method_by_slug[slug]
        if index % 2:
            edited["aliases"] = [*(edited.get("aliases") or []), f"{slug} {tag}"]
        else:
            edited["description"] = _edited(edited.get("description"), tag)
        done["method changed"] += 1

    # Models: removed (with their sources and evidence), added.
    seed_methods = {m["slug"] for m in methods if m["node"] in kept}
    in_seed = {e["model"] for e in evidence if e["method"] in seed_methods}
    gone = set(pick(sorted(m["slug"] for m in models if m["slug"] not in in_seed), each))
    models = [m for m in models if m["slug"] not in gone]
    # Models outside the seed's branch changed: another organization.
    reorganized = pick([m for m in models if m["slug"] not in in_seed], each)
    for changed_model in reorganized:
        organization = changed_model.get("organization") or "Organization"
        changed_model["organization"] = f"{organization} ({tag})"
        done["model changed"] += 1
    sources = [s for s in sources if s["model"] not in gone]
    evidence = [e for e in evidence if e["model"] not in gone]
    done["model removed"] += len(gone)
    # New methods, treated by new models (and by nothing else).
    outside = [m for m in methods if m["node"] not in kept]
    for index in range(each if free_nodes else 0):
        method = f"{tag}-method-{index}"
        methods.append(
            {"slug": method, "name": f"Method {tag} {index}", "node": rng.choice(free_nodes)}
        )
        done["method added"] += 1
        model = f"{tag}-model-{index}"
        release = f"2027-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        models.append({"slug": model, "name": f"Model {tag} {index}", "release_date": release})
        done["model added"] += 1
        treated = [method, *(m["slug"] for m in pick(outside, 2))]
        evidence += [
            {"model": model, "method": slug, "strength": rng.choice(STRENGTHS)} for slug in treated
        ]
        done["treatment added"] += len(treated)

    # Treatments outside the seed's branch: every piece of a pair set to a new strength.
    pieces: dict[tuple[str, str], Records] = {}
    for piece in evidence:
        if piece["method"] not in seed_methods:
            pieces.setdefault((piece["model"], piece["method"]), []).append(piece)
    strength_set = pick(sorted(pieces), 2 * each)
    for pair in strength_set:
        strength = rng.choice(STRENGTHS)
        for piece in pieces[pair]:
            piece["strength"] = strength
        done["treatment strength set"] += 1

    # Other models outside the seed's branch whose documents changed (their `sources`): a
    # document retitled, or one more document (last, so that what came before draws the
    # same choices as it did).
    other = in_seed | {m["slug"] for m in reorganized}
    outside_models = sorted(m["slug"] for m in models if m["slug"] not in other)
    for index, model in enumerate(pick(outside_models, each)):
        theirs = [s for s in sources if s["model"] == model]
        if index % 2 == 0 and theirs:
            theirs[0]["title"] += f" ({tag})"
        else:
            sources.append(
                {
                    "slug": f"{model}-{tag}-source",
                    "model": model,
                    "title": f"Report {tag}",
                    "kind": "other",
                }
            )
        done["model sources changed"] += 1

    # Other treatments of pairs there before, whose evidence is edited (their strengths
    # as they were): a piece's quote or its locator edited (last, as above).
    left_alone = sorted(
        pair
        for pair in pieces.keys() - set(strength_set)
        if not pair[0].startswith(f"{tag}-model-")
    )
    for index, pair in enumerate(pick(left_alone, each)):
        piece = pieces[pair][0]
        if index % 2 == 0:
            quote = piece.get("quote")
            piece["quote"] = f"{quote} ({tag})" if quote else f"Quoted ({tag})"
        else:
            locator = piece.get("locator")
            piece["locator"] = f"{locator}, {tag}" if locator else f"p. {index} ({tag})"
        done["treatment evidence edited"] += 1

    target.mkdir(parents=True, exist_ok=True)
    rows = {
        "nodes.jsonl": nodes,
        "models.jsonl": models,
        "sources.jsonl": sources,
        "methods.jsonl": methods,
        "evidence.jsonl": evidence,
    }
    for name in FILES:
        _write(target, name, rows[name])
    return done
