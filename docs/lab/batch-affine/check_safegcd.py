#!/usr/bin/env python3
"""Checks safegcd_test's lines "curve x inverse" (hex) against Python's pow(x, -1, p); exits 1 on any mismatch."""
import sys

MODULI = {
    "bn254_fq": 21888242871839275222246405745257275088696311157297823662689037894645226208583,
    "bn254_fr": 21888242871839275222246405745257275088548364400416034343698204186575808495617,
    "bls12_381_fq": 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab,
    "bls12_381_fr": 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001,
}
counts, bad = {}, 0
for line in sys.stdin:
    name, x, inv = line.split()
    p, x, inv = MODULI[name], int(x, 16), int(inv, 16)
    want = pow(x, -1, p) if x % p else 0
    if inv != want:
        bad += 1
        if bad <= 5:
            print(f"MISMATCH {name} x={x:#x} got {inv:#x} want {want:#x}")
    counts[name] = counts.get(name, 0) + 1
for name, n in counts.items():
    print(f"{name}: {n} inverses checked")
print("mismatches:", bad)
sys.exit(1 if bad or len(counts) != len(MODULI) else 0)
