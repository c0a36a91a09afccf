#!/usr/bin/env bash
# Uniform against PoRep-like witnesses on the GPU machine (issue #21, "Real witnesses, not only uniform ones"): the
# kernels and whole proofs with each distribution, and the Filecoin-shaped engine run with each. It runs there from the
# repository root with .service/ carried (scripts/lab/service-bundle.sh builds it here) and prints everything to stdout:
#
#   1. builds the kernels for sm_90 (native-cuda/build.sh) while it unpacks the bundle;
#   2. bench gpu --msm 20,22,24 --g2-msm 20 --proofs 20 --ntt none, --witness uniform then porep (both curves);
#   3. bench pipeline --backend gpu, BLS12-381 10 x (2^22 - 4) constraints, 4 jobs, W = 8, --witness uniform then
#      porep (dev circuits generated there, about a minute each).
# About 9 minutes on the H200 host; each step has its own time limit so that a slow one leaves the rest their time.
set -u
t0=$(date +%s)
say() { echo "$(date +%T) [+$(( $(date +%s) - t0 ))s] $*"; }
W=/tmp/pf-mix; rm -rf "$W"; mkdir -p "$W"
(native-cuda/build.sh "$W/kernels" 90 > "$W/kb.log" 2>&1; echo "kernels rc=$?" >> "$W/kb.log") &
kpid=$!
xz -dc .service/proofline-service.tar.xz | tar -C "$W" -xf -
S="$W/proofline-service"
say "bundle $(head -1 "$S/COMMIT")"
wait "$kpid"; tail -1 "$W/kb.log"
for w in uniform porep; do
  say "bench gpu --witness $w"
  PROOFLINE_JAVA_OPTS=-Xmx48g timeout 150 "$S/bin/proofline" bench gpu --kernels "$W/kernels" --msm 20,22,24 \
      --g2-msm 20 --ntt none --proofs 20 --repeats 11 --seconds 130 --seed 7 --witness "$w" 2>&1 | grep -v WARNING
done
for w in uniform porep; do
  say "bench pipeline bls12381 10 x 2^22, --witness $w"
  PROOFLINE_JAVA_OPTS=-Xmx32g timeout 200 "$S/bin/proofline" bench pipeline --kernels "$W/kernels" --backend gpu \
      --devices 0 --curve bls12381 --constraints 4194300 --partitions 10 --jobs 4 --synthesis-workers 8 \
      --budget 12GiB --policy budget --witness "$w" --dir "$W/bls22-$w" 2>&1 | grep -v WARNING | tail -8
done
say done
