#!/usr/bin/env python3
# Lab (issue #21, variant 24): a line-by-line model, in Python integers, of the batch-affine bucket accumulation that
# accumulate-affine.patch puts into native-cuda/msm/pippenger.cuh (accumulate_tasks<K>): K tasks a thread, one point
# into each per step, the step's denominators inverted together (prefix products forward, one inversion, backward),
# a task's first point an assignment, equal x a doubling or a sum at infinity, points at infinity skipped, exhausted
# lanes idle. It checks each task's sum against plain affine additions on BN254 G1, over random tasks of unequal
# lengths with repeated and negated pairs (doublings and P + (-P) occur) and points at infinity, for several K. It
# checks the algorithm, not the CUDA transcription: gpu-selftest's MSM checks do that on the device.
#   python3 docs/lab/batch-affine/accumulate_model.py
import random
p = 21888242871839275222246405745257275088696311157297823662689037894645226208583
INF = None
def add(P, Q):
    if P is INF: return Q
    if Q is INF: return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2:
        if (y1 + y2) % p == 0: return INF
        l = 3 * x1 * x1 * pow(2 * y1, -1, p) % p
    else:
        l = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (l * l - x1 - x2) % p
    return (x3, (l * (x1 - x3) - y1) % p)
def mul(k, P):
    R = INF
    while k:
        if k & 1: R = add(R, P)
        P = add(P, P); k >>= 1
    return R
G = (1, 2)
SIGN = 1 << 31
def signed_point(points, pair):
    q = points[pair & ~SIGN]
    if (pair & SIGN) and q is not INF: q = (q[0], (-q[1]) % p)
    return q
def kernel(points, pairs, ranges, K):
    out = []
    for first in range(0, len(ranges), K):
        lanes = min(K, len(ranges) - first)
        x = [0] * K; y = [0] * K; prefix = [0] * K; at = [0] * K; end = [0] * K
        empty = (1 << 64) - 1
        steps = 0
        for j in range(lanes):
            at[j], end[j] = ranges[first + j]
            steps = max(steps, end[j] - at[j])
        for s in range(steps):
            general = doubling = 0
            product = 1
            for j in range(lanes):
                bit = 1 << j
                prefix[j] = product
                if at[j] >= end[j]: continue
                q = signed_point(points, pairs[at[j]])
                if q is INF: continue
                if empty & bit:
                    x[j], y[j] = q; empty &= ~bit
                elif q[0] != x[j]:
                    general |= bit; product = product * (q[0] - x[j]) % p
                elif q[1] == y[j]:
                    doubling |= bit; product = product * (2 * y[j]) % p
                else:
                    empty |= bit
            if general | doubling:
                inverse = pow(product, -1, p)
                for j in range(lanes - 1, -1, -1):
                    bit = 1 << j
                    if not ((general | doubling) & bit): continue
                    inverse_j = inverse * prefix[j] % p
                    if general & bit:
                        q = signed_point(points, pairs[at[j]])
                        inverse = inverse * (q[0] - x[j]) % p
                        lam = (q[1] - y[j]) * inverse_j % p
                        other_x = q[0]
                    else:
                        inverse = inverse * (2 * y[j]) % p
                        lam = 3 * x[j] * x[j] * inverse_j % p
                        other_x = x[j]
                    x3 = (lam * lam - x[j] - other_x) % p
                    y[j] = (lam * (x[j] - x3) - y[j]) % p
                    x[j] = x3
            for j in range(lanes):
                if at[j] < end[j]: at[j] += 1
        for j in range(lanes):
            out.append(INF if (empty >> j) & 1 else (x[j], y[j]))
    return out
random.seed(5)
npts = 60
points = [mul(random.getrandbits(64) | 1, G) for _ in range(npts - 3)] + [INF, INF, None]
points[-1] = INF
for trial in range(40):
    K = random.choice([1, 2, 3, 8, 16])
    pairs, ranges = [], []
    ntasks = random.randint(1, 40)
    sizes = sorted([random.randint(1, 12) for _ in range(ntasks)], reverse=True)
    for sz in sizes:
        b = len(pairs)
        for _ in range(sz):
            r = random.random()
            if r < 0.1 and pairs:               # repeat an earlier pair of this task: doubling, or P + (-P) with the sign flipped
                prev = pairs[random.randint(b, len(pairs) - 1)] if len(pairs) > b else random.randrange(npts)
                pairs.append(prev ^ (SIGN if random.random() < 0.5 else 0))
            else:
                pairs.append(random.randrange(npts) | (SIGN if random.random() < 0.5 else 0))
        ranges.append((b, len(pairs)))
    got = kernel(points, pairs, ranges, K)
    for (b, e), g in zip(ranges, got):
        want = INF
        for a in range(b, e): want = add(want, signed_point(points, pairs[a]))
        assert g == want, (trial, K, b, e)
print("batch-affine model: 40 trials ok (doublings, P + (-P), infinity points, unequal task lengths)")
