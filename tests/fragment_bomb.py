"""Documents of a few hundred bytes whose fragments spread each other, standing for
millions of copies of one field: the hostile-input suite's and the load test's."""


def spreading(levels: int, fan: int, leaf: str) -> str:
    """A document whose fragments each spread the next ``fan`` times, ``levels`` deep, down
    to one holding ``leaf``: a few hundred bytes standing for fan**levels copies of it."""
    parts = ["query { ...F0 }"]
    parts += [
        f"fragment F{level} on Query {{ {' '.join([f'...F{level + 1}'] * fan)} }}"
        for level in range(levels)
    ]
    parts.append(f"fragment F{levels} on Query {{ {leaf} }}")
    return "\n".join(parts)


# The 574-byte document (8**7 copies) and one more level (8**8).
BOMBS = [spreading(7, 8, "taxonomy { nodeCount }"), spreading(8, 8, "taxonomy { nodeCount }")]
