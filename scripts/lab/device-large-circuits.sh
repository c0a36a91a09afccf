#!/usr/bin/env bash
# Issue #20's large BLS12-381 figures, through HTTP on the GPU machine: the Filecoin-shaped job (10 partitions of
# 2^22 constraints, 2 jobs in flight) and the Filecoin-scale one (10 partitions of 2^24), the registration of their
# keys, and the engine alone on the 2^24 key. Making the dev circuits takes 2.5 (2^22) and 4.5 minutes (2^24) of the
# host's 16 cores, so the work is split over calls made back to back on the same machine (its /tmp survives between
# them while it is held):
#
#   scripts/lab/device-large-circuits.sh start     unpacks the bundle (.service/, carried; scripts/lab/service-bundle.sh),
#                                              builds the kernels, then generates the INSECURE dev circuits 2^22 − 4
#                                              and 2^24 − 4 (domains 2^22 and 2^24) in a process of its own session,
#                                              which outlives the call (nice 19: what the call measures meanwhile
#                                              keeps its cores); returns once the kernels are built
#   scripts/lab/device-large-circuits.sh wait S    waits up to S seconds for the circuits
#   scripts/lab/device-large-circuits.sh measure [budget-s]
#                                              waits for the circuits, starts `proofline serve` (defaults but the
#                                              kernels, the size limits a 10 GB key and 5 GB jobs need, and the rate
#                                              limit), registers both keys over HTTP (timed from the POST to READY),
#                                              runs `bench http` on each, saves the jobs' JSON (per-partition gpuMs)
#                                              and one proof of each circuit to $OUT, stops the service, then runs
#                                              `bench pipeline` on the 2^24 key if time is left
#   scripts/lab/device-large-circuits.sh register [budget-s]
#                                              the same registrations, and no more
#
# Everything is printed (time-stamped) and kept in $OUT/large.log; the work directory is /tmp/pf-large.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
W=/tmp/pf-large
S="$W/proofline-service"
out="${OUT:-$W/out}"
mkdir -p "$W" "$out"
exec > >(tee -a "$out/large.log") 2>&1
t0=$(date +%s)
say() { echo "$(date +%T) [+$(( $(date +%s) - t0 ))s] $*"; }
# NAME:CONSTRAINTS, the first the Filecoin-shaped one, the last the Filecoin-scale one (the engine alone runs on the
# last; with one circuit it is both; smaller ones test the script on a machine without a GPU, where the service proves
# on the CPU). PROOFLINE_LARGE_CLIENTS: the client counts of the Filecoin-shaped bench (default 2), 2 jobs each.
read -r -a circuits <<< "${PROOFLINE_LARGE_CIRCUITS:-bls22:4194300 bls24:16777212}"
small=${circuits[0]%%:*}; last=${circuits[${#circuits[@]}-1]}; large=${last%%:*}; large_n=${last##*:}
# The Filecoin-shaped bench's closed-loop clients, each with one job at a time (client counts separated by commas).
small_clients=${PROOFLINE_LARGE_CLIENTS:-2}

generated() { [[ -f "$W/gen.done" ]]; }

case "${1:-}" in
start)
    rm -rf "$W/kernels" "$W/gen.done" "$W/$small" "$W/$large" "$S"
    nproc; free -g | head -2; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
    mkdir -p "$W/kernels"
    if command -v nvcc > /dev/null; then
        (native-cuda/build.sh "$W/kernels" 90 > "$W/kernels.log" 2>&1; echo "kernels rc=$?" >> "$W/kernels.log") &
    else
        echo "no nvcc: no kernels" > "$W/kernels.log" &
    fi
    kpid=$!
    xz -dc .service/proofline-service.tar.xz | tar -C "$W" -xf -
    say "bundle $(head -1 "$S/COMMIT")"
    # A session of its own: the generation goes on after this call returns (until the machine is given back). Under
    # nice 19, so that measurements made meanwhile on the same machine keep the cores they ask for.
    setsid nohup nice -n 19 bash -c '
        for c in "$@"; do
            name=${c%%:*}; n=${c##*:}
            echo "$(date +%T) generating $name: bls12381, $n constraints"
            /usr/bin/time -f "$name: wall %e s, user %U s, maxrss %M KiB" env PROOFLINE_JAVA_OPTS=-Xmx80g \
                '"$S"'/bin/proofline dev-circuit --curve bls12381 --constraints "$n" --out '"$W"'/$name --seed 1 2>&1 \
                | grep -v WARNING
            ls -l '"$W"'/$name
        done
        touch '"$W"'/gen.done' _ "${circuits[@]}" > "$W/gen.log" 2>&1 < /dev/null &
    wait "$kpid"; tail -2 "$W/kernels.log"
    say "kernels built; generation running (tail $W/gen.log)"
    ;;
wait)
    limit=$(( $(date +%s) + ${2:-60} ))
    while ! generated && (( $(date +%s) < limit )); do sleep 2; done
    cat "$W/gen.log"; generated && say "circuits ready" || say "circuits not ready yet"
    ;;
measure | register)
    budget=${2:-560}
    deadline=$(( t0 + budget ))
    left() { echo $(( deadline - $(date +%s) )); }
    while ! generated && (( $(left) > 200 )); do sleep 2; done
    cat "$W/gen.log"
    generated || { say "circuits not ready"; exit 1; }
    port=18090; base="http://127.0.0.1:$port"
    key="bench-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
    http() { python3 "$repo/scripts/lab/service-http.py" "$@"; }
    rm -rf "$W/data"
    say "serve"
    PROOFLINE_SECURITY_API_KEYS="$key" PROOFLINE_SECURITY_ADMIN_PASSWORD="adm-$key" \
        PROOFLINE_SECURITY_REQUESTS_PER_SECOND=100000 PROOFLINE_STORE_MAX_CIRCUIT_SIZE=24GB \
        PROOFLINE_STORE_MAX_JOB_SIZE=8GB "$S/bin/proofline" serve --server.port=$port \
        --proofline.store.data-dir="$W/data" --proofline.gpu.kernels="$W/kernels" > "$W/service.log" 2>&1 &
    svc=$!
    until http ready "$base" 1 2>/dev/null; do
        kill -0 $svc 2>/dev/null || { say "service died"; tail -40 "$W/service.log"; exit 1; }; sleep 1
    done
    grep -E "heap|budget|limit|proving devices" "$W/service.log" | head -8
    nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv -lms 1000 > "$W/smi.csv" 2>&1 &
    smi=$!
    declare -A ids
    for c in "${circuits[@]}"; do
        name=${c%%:*}
        s=$(date +%s%N)
        http register "$base" "$key" "$W/$name/circuit.zkey" "dev-$name" "$W/$name.json" 400
        ids[$name]=$(grep -o '"id":"[^"]*"' "$W/$name.json" | head -1 | cut -d'"' -f4)
        say "registered $name ($(du -h "$W/$name/circuit.zkey" | cut -f1)) in $(( ($(date +%s%N) - s) / 1000000 )) ms:" \
            "$(head -c 300 "$W/$name.json")"
    done
    grep -iE "check|registered|REGISTER" "$W/service.log" | grep -v DEBUG | tail -8
    if [[ $1 == register ]]; then
        kill $smi; kill -TERM $svc; wait $svc; say "done"; exit 0
    fi
    bench() { # name clients jobs warmup timeout
        say "bench http $1: 10 partitions, $2 client(s), $3 job(s), warmup $4"
        PROOFLINE_JAVA_OPTS=-Xmx6g timeout "$5" "$S/bin/proofline" bench http --url "$base" --api-key "$key" \
            --circuit "${ids[$1]}" --witness "$W/$1/witness.wtns" --partitions 10 --clients "$2" --jobs "$3" \
            --warmup "$4" --verify-sample 1 2>&1 | grep -v WARNING
    }
    for c in ${small_clients//,/ }; do
        [[ -n "${ids[$small]:-}" ]] && bench "$small" "$c" $((2 * c)) 1 150
    done
    [[ $large != "$small" && -n "${ids[$large]:-}" ]] && bench "$large" 1 2 0 $(( $(left) - 60 ))
    # Every DONE job's detail (per-partition gpuMs) and first proof, in snarkjs's layout (verify them here with
    # scripts/lab/verify-gpu-proofs.sh once $OUT/proofs.tar.gz is unpacked).
    rm -rf "$W/proofs"
    http proofs "$base" "$key" 16 large "$W/proofs" > "$W/proofs.txt" && cat "$W/proofs.txt"
    tar -C "$W" -czf "$out/proofs.tar.gz" proofs
    python3 - "$W"/proofs/*/job.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    j = json.load(open(path))
    parts = j.get('partitions', [])
    gpu = [p.get('timings', {}).get('gpuMs') or 0 for p in parts]
    print(j.get('id')[:8], j.get('circuitId')[:8], j.get('status'), len(parts), 'partitions; gpuMs sum', sum(gpu),
          'max', max(gpu or [0]), '; created', j.get('createdAt'), 'started', j.get('startedAt'),
          'finished', j.get('finishedAt'), '; timings', json.dumps(j.get('timings')))
PY
    kill $smi; sort -t, -k2 "$W/smi.csv" | tail -3
    kill -TERM $svc; wait $svc
    cp "$W/service.log" "$out/service.log" 2>/dev/null
    if (( $(left) > 120 )); then
        jobs=${PROOFLINE_LARGE_ENGINE_JOBS:-1}
        for workers in ${PROOFLINE_LARGE_ENGINE_WORKERS:-1}; do
            say "bench pipeline, the engine alone: $large, 10 partitions, $jobs job(s), $workers prove start(s) at once"
            PROOFLINE_JAVA_OPTS=-Xmx32g timeout $(( $(left) - 10 )) "$S/bin/proofline" bench pipeline \
                --kernels "$W/kernels" --backend "${PROOFLINE_LARGE_BACKEND:-gpu}" --curve bls12381 \
                --constraints "$large_n" --partitions 10 --jobs "$jobs" --synthesis-workers 8 --budget 40GiB \
                --workers-per-device "$workers" --policy budget --dir "$W/$large" 2>&1 | grep -v WARNING
        done
    fi
    say "done"
    ;;
*)
    sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
esac
