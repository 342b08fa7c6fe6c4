#!/usr/bin/env python3
"""Writes two logs of N lifetime purchases for measuring hash flooding (issue 32): in one, every
event id, subject and transaction is crafted onto one SymbolTable.hash (a multicollision, as an
attacker who knows the unkeyed hash builds it); in the other, ordinary strings of the same length.

    python3 Scripts/hash-flood-log.py 100000 /tmp/flood
    storeledger check /tmp/flood/crafted.jsonl --catalog Events/catalog.json
    storeledger check /tmp/flood/ordinary.jsonl --catalog Events/catalog.json

The construction is the one in Tests/StoreLedgerCommandTests/Reliability/HashFloodTests.swift."""
import os
import random
import sys

MASK = (1 << 64) - 1


def step(h, word):
    h = ((h ^ word) * 0x100000001B3) & MASK
    return h ^ (h >> 29)


def printable(word):
    for k in range(8):
        byte = (word >> (8 * k)) & 0xFF
        if byte < 0x20 or byte >= 0x7F or byte in (0x22, 0x5C):
            return False
    return True


def crafted(count, stages=7, choices=6, seed=1):
    rng = random.Random(seed)
    word = lambda: int.from_bytes(bytes(rng.randrange(0x23, 0x5C) for _ in range(8)), "little")
    state = 0xCBF29CE484222325 ^ (16 * stages)
    options = []
    for _ in range(stages):
        a, b = word(), word()
        target = step(state, a) ^ b
        stage = [(a, b)]
        while len(stage) < choices:
            w = word()
            second = step(state, w) ^ target
            if printable(second):
                stage.append((w, second))
        options.append(stage)
        state = step(step(state, a), b)
    assert choices ** stages >= count
    out = []
    for n in range(count):
        parts = []
        for stage in options:
            a, b = stage[n % choices]
            n //= choices
            parts.append(a.to_bytes(8, "little") + b.to_bytes(8, "little"))
        out.append(b"".join(parts).decode("ascii"))
    return out


def write(path, ids):
    with open(path, "w") as f:
        for n, s in enumerate(ids):
            at = "2026-03-%02dT%02d:%02d:%02dZ" % (1 + n % 28, n % 24, n % 60, (n // 60) % 60)
            f.write('{"id":"%s","type":"purchase","subject":"%s","at":"%s","product":"pro.lifetime","transaction":"%s"}\n' % (s, s, at, s))


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    folder = sys.argv[2] if len(sys.argv) > 2 else "/tmp/flood"
    os.makedirs(folder, exist_ok=True)
    attack = crafted(count)
    width = len(attack[0])
    write(os.path.join(folder, "crafted.jsonl"), attack)
    write(os.path.join(folder, "ordinary.jsonl"), [("evt-%d-" % n).ljust(width, "x") for n in range(count)])


if __name__ == "__main__":
    main()
