#!/usr/bin/env bash
# Cold one-shot GPU proofs from the service bundle on the GPU machine (issue #22's "H200 host, BN254 2^20 one-shot CLI
# with the GPU"), as a script that proves once per call runs them. It runs there from the repository root with
# .service/ carried (scripts/lab/service-bundle.sh builds it here):
#
#   1. builds the kernels for sm_90 (native-cuda/build.sh) while it unpacks the bundle, makes the AOT cache there with
#      the bundle's runtime (bin/aot-cache.sh, as the Docker image's build does) and generates an INSECURE BN254 dev
#      circuit of 2^20 constraints with its witness;
#   2. five cold `bin/proofline prove ... --timings` with the AOT cache, two without it, two under /usr/bin/time (CPU
#      time and peak RSS), one `verify` of the first proof;
#   3. one cold proof under JFR, whose samples it sums by thread and innermost Proofline frame (where the cold run's
#      time goes);
#   4. copies the first proof, its public signals and the verification key to $OUT (check them here with
#      `snarkjs groth16 verify`).
# Everything else goes to stdout. About 3 minutes on the H200 host.
set -u
t0=$(date +%s)
say() { echo "$(date +%T) [+$(( $(date +%s) - t0 ))s] $*"; }
W=/tmp/pf; rm -rf $W; mkdir -p $W
nproc; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
(native-cuda/build.sh $W/kernels 90 > $W/kb.log 2>&1; echo "kernels rc=$?" >> $W/kb.log) &
kpid=$!
xz -dc .service/proofline-service.tar.xz | tar -C $W -xf -
S=$W/proofline-service
say "bundle $(cat $S/COMMIT)"
say "aot cache"; $S/bin/aot-cache.sh $S/app/proofline.jar $W/aotw $S/jre/bin/java
say "dev circuit 2^20 bn128"
PROOFLINE_JAVA_OPTS=-Xmx24g $S/bin/proofline dev-circuit --curve bn128 --constraints 1048576 --out $W/c20 --seed 1 2>&1 | tail -2
ls -la $W/c20
wait $kpid; tail -2 $W/kb.log
C=$W/c20
run() { # label env...: one cold prove with its --timings line and its wall time
  local label=$1; shift
  local s; s=$(date +%s%N)
  env "$@" "$S/bin/proofline" prove "$C/circuit.zkey" "$C/witness.wtns" "$W/p-$label.json" "$W/q-$label.json" \
      --kernels "$W/kernels" --timings 2>&1 | grep -v "^backend gpu"
  echo "$label wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
}
for i in 1 2 3 4 5; do run aot$i PROOFLINE_AOT_CACHE="$S/app/proofline.aot"; done
for i in 1 2; do run noaot$i PROOFLINE_AOT_CACHE=; done
for i in 1 2; do /usr/bin/time -f "aot-time$i: wall %e s, user %U s, sys %S s, maxrss %M KiB" $S/bin/proofline prove $C/circuit.zkey $C/witness.wtns $W/p-t$i.json $W/q-t$i.json --kernels $W/kernels 2>&1 | grep -v "^backend gpu"; done
say "verify"
$S/bin/proofline verify $C/verification_key.json $W/q-aot1.json $W/p-aot1.json
say "jfr run"
PROOFLINE_JAVA_OPTS="-XX:StartFlightRecording:filename=$W/cold.jfr,settings=profile -Xlog:jfr=off" $S/bin/proofline prove $C/circuit.zkey $C/witness.wtns $W/p-jfr.json $W/q-jfr.json --kernels $W/kernels --timings 2>&1 | grep timings
$S/jre/bin/jfr print --events jdk.ExecutionSample --stack-depth 64 $W/cold.jfr > $W/samples.txt
python3 - $W/samples.txt <<'PY'
import sys, re, collections
text = open(sys.argv[1]).read()
top, thread = collections.Counter(), collections.Counter()
for ev in text.split('jdk.ExecutionSample')[1:]:
    frames = re.findall(r'^\s+([\w.$<>]+)\(', ev, re.M)
    t = re.search(r'sampledThread = "([^"]*)"', ev)
    tn = t.group(1) if t else '?'
    first = next((f for f in frames if f.startswith('io.proofline')), frames[0] if frames else '?')
    thread[tn] += 1
    top[(tn.split('-')[0] if 'ForkJoin' in tn else tn, first)] += 1
print('samples by thread:', thread.most_common(8))
for (tn, f), n in top.most_common(40):
    print(f'{n:5d}  {tn:28s} {f}')
PY
mkdir -p $OUT; cp $C/verification_key.json $OUT/vk.json; cp $W/p-aot1.json $OUT/proof.json; cp $W/q-aot1.json $OUT/public.json
say done
