#!/usr/bin/env bash
# Runs the Proofline service on the GPU machine and measures it through HTTP, as a user would. It runs there from
# the repository root, with .service/ carried (scripts/lab/service-bundle.sh builds it here), and writes to $OUT:
#
#   1. builds the kernels from native-cuda/ (native-cuda/build.sh, one nvcc per core) while it unpacks the bundle and
#      generates an INSECURE BN254 dev circuit of 2^LOG constraints with its witness (`dev-circuit`);
#   2. starts the service (`proofline serve`: embedded H2 store in a fresh data directory, the GPU backend with its
#      default settings, the kernels just built through proofline.gpu.kernels), waits for readiness, registers the
#      circuit over HTTP, then `bench http` with 1 client and with N clients; while the N-client load runs it saves
#      /api/v1/pipeline twice and the console (dashboard and circuits pages, logged in through the form, with their
#      CSS and JS, so that the page can be rendered elsewhere) and samples nvidia-smi; then it saves the proofs,
#      public signals and verification key of a few jobs (snarkjs layout, see scripts/lab/verify-gpu-proofs.sh) and
#      stops the service with SIGTERM;
#   3. the same circuit with the CPU backend (proofline.gpu.enabled=false, same data directory: no second
#      registration), fewer jobs, 1 client, for the CPU/GPU ratio.
#
# What comes back (the device returns at most 8 files): $OUT/run.log (everything, time-stamped), $OUT/summary.txt
# (the bench tables) and $OUT/service-run.tar.gz (results/: bench outputs, pipeline JSON, console/, proofs/, service
# logs, kernel build log, nvidia-smi samples, environment), rewritten after every phase so that a run stopped at its
# limit still returns what it did.
#
#   scripts/lab/device-service-run.sh [--log 20] [--clients 16] [--jobs 256] [--jobs-one 16] [--warmup 2]
#       [--cpu-jobs 3] [--keep-proofs 4] [--no-gpu] [--no-cpu] [--budget 560] [--port 18080] [--rps 100000]
#       [--archive .service/proofline-service.tar.xz] [--work /tmp/proofline-service-run]
#
#   --log N        the circuit has 2^N constraints (BN254; 20: the issue's 2^20 job)
#   --clients N    the loaded run's concurrent clients; --jobs its jobs (16 a client: with 4 a client, the run's start
#                  and end, when fewer clients are busy, weighed on its average); --jobs-one the 1-client run's jobs
#   --no-gpu       no kernel build and no GPU phase (the CPU phase only: how the script is tested on a machine
#                  without a GPU); --no-cpu leaves the CPU phase out
#   --circuit-dir D  instead of a dev circuit, the circuit in D (circuit.zkey, witness.wtns; circuit.wasm and
#                  input.json for --input), registered with its wasm: e.g. the Poseidon chain of
#                  `scripts/lab/cli-bench.sh fixture` (carry .fixtures/bench)
#   --input        after each witness (.wtns) run, the same run with input jobs (input.json: the service computes
#                  the witness with the circuit's witness graph, issue #34)
#   --budget S     seconds the whole run may take: a phase that would start past it is skipped and each step's
#                  timeout is cut to what is left (the device allows 600 s a command)
#   --rps N        proofline.security.requests-per-second for the run: the benchmark's clients poll their jobs,
#                  and 16 of them exceed the default 50 per key, which would measure the rate limiter (the
#                  service's only non-default setting here besides port, data directory and kernels)
set -uo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"

log2=20; clients=16; jobs=256; jobs_one=16; warmup=2; cpu_jobs=3; keep_proofs=4; gpu=true; cpu=true
circuit_dir=""; input=false
budget=560; port=18080; rps=100000
archive=.service/proofline-service.tar.xz
work="${TMPDIR:-/tmp}/proofline-service-run"
while (($#)); do
    case "$1" in
        --log) log2="$2"; shift ;;
        --clients) clients="$2"; shift ;;
        --jobs) jobs="$2"; shift ;;
        --jobs-one) jobs_one="$2"; shift ;;
        --warmup) warmup="$2"; shift ;;
        --cpu-jobs) cpu_jobs="$2"; shift ;;
        --keep-proofs) keep_proofs="$2"; shift ;;
        --no-gpu) gpu=false ;;
        --no-cpu) cpu=false ;;
        --circuit-dir) circuit_dir="$2"; shift ;;
        --input) input=true ;;
        --budget) budget="$2"; shift ;;
        --port) port="$2"; shift ;;
        --rps) rps="$2"; shift ;;
        --archive) archive="$2"; shift ;;
        --work) work="$2"; shift ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (--help)" >&2; exit 2 ;;
    esac
    shift
done

command -v python3 >/dev/null || { echo "device-service-run: python3 is needed (the HTTP calls)" >&2; exit 1; }
start_time=$(date +%s)
deadline=$((start_time + budget))
out="${OUT:-$work/out}"
results="$work/results"
svc="$work/proofline-service"
base="http://127.0.0.1:$port"
# Throw-away credentials for this run only (the service logs neither when they are given).
api_key="bench-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
admin_password="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
svc_pid=""
monitor_pid=""
kernels_pid=""
circuit_id=""
failures=0      # steps that failed; the exit status is 1 when there was any
mkdir -p "$out" "$work"
rm -rf "$results" "$work/data" "$work/circuit" "$work/kernels" "$svc" "$work/cookies"
mkdir -p "$results"
exec > >(tee -a "$out/run.log") 2>&1

say() { printf '%(%H:%M:%S)T %s\n' -1 "$*"; }
stamp() { while IFS= read -r line; do printf '%(%H:%M:%S)T   %s\n' -1 "$line"; done; }
left() { echo $((deadline - $(date +%s))); }
# The timeout for a step: what it asks for, cut to what is left of the budget (at least 5 s).
upto() { local l; l=$(left); ((l < 5)) && l=5; ((${1} < l)) && echo "$1" || echo "$l"; }
pack() {
    tar -C "$work" -czf "$out/service-run.tar.gz.tmp" results 2>/dev/null && mv "$out/service-run.tar.gz.tmp" "$out/service-run.tar.gz"
}
# HTTP through Python's standard library (scripts/lab/service-http.py): the GPU machine has python3, maybe no curl.
http() { python3 "$repo/scripts/lab/service-http.py" "$@"; }
api_get() { http get "$base$1" "$2" --key "$api_key"; }   # path, file (- for stdout)
first_id() { grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4; }

stop_service() {
    [[ -n "$svc_pid" ]] || return 0
    if kill -0 "$svc_pid" 2>/dev/null; then
        say "stopping the service (SIGTERM to $svc_pid)"
        kill -TERM "$svc_pid"
        local waited=0
        while kill -0 "$svc_pid" 2>/dev/null && ((waited < 90)); do sleep 1; waited=$((waited + 1)); done
        if kill -0 "$svc_pid" 2>/dev/null; then
            say "still running after 90 s: SIGKILL"
            kill -KILL "$svc_pid" 2>/dev/null
        else
            say "the service exited after ${waited} s"
        fi
    fi
    wait "$svc_pid" 2>/dev/null
    say "service exit status: $?"
    svc_pid=""
}
fail() { failures=$((failures + 1)); say "FAILED: $*"; }
finish() {
    local status=$?
    [[ -n "$monitor_pid" ]] && kill "$monitor_pid" 2>/dev/null
    [[ -n "$kernels_pid" ]] && kill "$kernels_pid" 2>/dev/null
    stop_service
    ((status == 0 && failures > 0)) && status=1
    say "done in $(($(date +%s) - start_time)) s: $failures failed step(s), exit $status"
    pack
    exit "$status"
}
trap finish EXIT

say "device-service-run: 2^$log2 BN254, $clients clients x $jobs jobs, 1 client x $jobs_one jobs, CPU $cpu_jobs jobs," \
    "gpu=$gpu cpu=$cpu, budget ${budget} s, work $work, out $out"
{
    echo "date: $(date -u)"; echo "host: $(uname -a)"; echo "cores: $(nproc)"; free -g 2>/dev/null
    echo "tree commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    command -v nvidia-smi >/dev/null && nvidia-smi 2>&1
    command -v nvcc >/dev/null && nvcc --version 2>&1 | tail -2
} > "$results/environment.txt" 2>&1

# 1. Kernels (background), bundle, circuit.
if $gpu; then
    if command -v nvcc >/dev/null; then
        say "building the kernels in the background (native-cuda/build.sh, $(nproc) jobs)"
        timeout -k 10 "$(upto 420)" native-cuda/build.sh "$work/kernels" "${PROOFLINE_CUDA_ARCHS:-90}" \
            > "$results/kernels-build.log" 2>&1 &
        kernels_pid=$!
    else
        say "no nvcc on the PATH: no kernels, no GPU phase"
        gpu=false
    fi
fi

[[ -f "$archive" ]] || { say "no bundle at $archive (scripts/lab/service-bundle.sh, and carry .service)"; exit 1; }
say "unpacking $archive ($(du -h "$archive" | cut -f1))"
if command -v xz >/dev/null; then
    timeout 300 bash -c 'xz -dc "$1" | tar -C "$2" -xf -' _ "$archive" "$work"
else
    timeout 300 python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' "$archive" "$work"
fi || { say "unpacking failed"; exit 1; }
say "bundle: commit $(tr '\n' ' ' < "$svc/COMMIT"); runtime $("$svc/jre/bin/java" -version 2>&1 | head -1)"
git_head="$(git rev-parse --short HEAD 2>/dev/null || true)"
if [[ -n "$git_head" && "$(head -1 "$svc/COMMIT")" != "$git_head" ]]; then
    say "WARNING: the bundle was built at $(head -1 "$svc/COMMIT"), the tree (and so the kernels) is at $git_head"
fi

constraints=$((1 << log2))
if [[ -n "$circuit_dir" ]]; then
    say "the circuit of $circuit_dir"
    mkdir -p "$work/circuit" && cp "$circuit_dir"/* "$work/circuit/"
    circuit_name="$(basename "$circuit_dir")"
else
    say "generating the dev circuit: bn128, $constraints constraints"
    PROOFLINE_JAVA_OPTS="-Xmx${PROOFLINE_GEN_HEAP:-24g}" timeout -k 10 "$(upto 240)" "$svc/bin/proofline" dev-circuit \
        --curve bn128 --constraints "$constraints" --out "$work/circuit" --seed 1 2>&1 | stamp | tee "$results/dev-circuit.log"
    circuit_name="dev-bn128-2^$log2"
fi
[[ -f "$work/circuit/circuit.zkey" && -f "$work/circuit/witness.wtns" ]] || { say "no circuit"; exit 1; }
if $input && [[ ! -f "$work/circuit/circuit.wasm" || ! -f "$work/circuit/input.json" ]]; then
    say "--input needs circuit.wasm and input.json in the circuit's folder"; exit 1
fi
say "circuit: zkey $(du -h "$work/circuit/circuit.zkey" | cut -f1), witness $(du -h "$work/circuit/witness.wtns" | cut -f1)"
cp "$work/circuit/verification_key.json" "$results/dev-circuit-verification_key.json"

if [[ -n "$kernels_pid" ]]; then
    say "waiting for the kernel build"
    wait "$kernels_pid"
    status=$?
    kernels_pid=""
    stamp < "$results/kernels-build.log" | tail -3
    if ((status != 0)) || [[ ! -f "$work/kernels/modules.list" ]]; then
        fail "the kernel build (exit $status): no GPU phase"
        gpu=false
    fi
fi
pack

# Starts the service with the given extra Spring arguments; waits for readiness.
start_service() { # name args...
    local name="$1"; shift
    say "starting the service ($name): $*"
    PROOFLINE_SECURITY_API_KEYS="$api_key" PROOFLINE_SECURITY_ADMIN_PASSWORD="$admin_password" \
        PROOFLINE_SECURITY_REQUESTS_PER_SECOND="$rps" \
        "$svc/bin/proofline" serve --server.port="$port" --proofline.store.data-dir="$work/data" "$@" \
        > "$results/service-$name.log" 2>&1 &
    svc_pid=$!
    local limit=$(($(date +%s) + $(upto 180)))
    while (($(date +%s) < limit)); do
        if ! kill -0 "$svc_pid" 2>/dev/null; then
            fail "the service exited during start-up:"; tail -30 "$results/service-$name.log" | stamp
            svc_pid=""; return 1
        fi
        if http ready "$base" 1; then
            say "ready (pid $svc_pid, java $(readlink "/proc/$svc_pid/exe" 2>/dev/null))"
            http get "$base/actuator/health" "$results/health-$name.json" --admin "$admin_password"
            http get "$base/actuator/info" "$results/info-$name.json" --admin "$admin_password"
            grep -iE 'backend|device|gpu|kernel|budget|memory limit' "$results/service-$name.log" | head -20 | stamp
            return 0
        fi
        sleep 1
    done
    fail "not ready within the limit:"; tail -30 "$results/service-$name.log" | stamp
    return 1
}

register_circuit() {
    [[ -n "$circuit_id" ]] && return 0
    say "registering the circuit over HTTP (zkey $(du -h "$work/circuit/circuit.zkey" | cut -f1))"
    local t0=$(date +%s)
    local wasm=""
    [[ -f "$work/circuit/circuit.wasm" ]] && wasm="$work/circuit/circuit.wasm"
    http register "$base" "$api_key" "$work/circuit/circuit.zkey" "$circuit_name" "$results/circuit.json" \
        "$(upto 300)" $wasm
    circuit_id="$(first_id < "$results/circuit.json")"
    if [[ -z "$circuit_id" ]]; then
        fail "registration failed: $(head -c 500 "$results/circuit.json")"; return 1
    fi
    # service-http.py waits for READY; should a circuit still be REGISTERING (its timeout), wait on here.
    local limit=$(($(date +%s) + $(upto 300)))
    while grep -qiE '"(status|state)":"(pending|validating|registering|checking|queued|running)' "$results/circuit.json" \
            && (($(date +%s) < limit)); do
        sleep 1
        api_get "/api/v1/circuits/$circuit_id" "$results/circuit.json"
    done
    say "registered $circuit_id in $(($(date +%s) - t0)) s: $(head -c 400 "$results/circuit.json")"
}

bench() { # name clients jobs warmup verify-sample; a name ending in -input submits input jobs
    local name="$1" c="$2" n="$3" w="$4" sample="$5" job=(--witness "$work/circuit/witness.wtns")
    [[ "$name" == *-input ]] && job=(--input "$work/circuit/input.json")
    say "bench http ($name): $c client(s), $n jobs, warmup $w"
    PROOFLINE_JAVA_OPTS="-Xmx4g" timeout -k 10 "$(upto 400)" "$svc/bin/proofline" bench http --url "$base" \
        --api-key "$api_key" --circuit "$circuit_id" "${job[@]}" --clients "$c" \
        --jobs "$n" --warmup "$w" --verify-sample "$sample" > "$results/bench-$name.txt" 2>&1 &
    bench_pid=$!
}

finish_bench() { # name
    wait "$bench_pid"
    local status=$?
    stamp < "$results/bench-$1.txt"
    ((status == 0)) || fail "bench $1 exited $status"
    say "bench $1: exit $status"
    { echo "== bench $1 (exit $status)"; cat "$results/bench-$1.txt"; echo; } >> "$out/summary.txt"
}

# The console under load: logged in through its form, the dashboard, circuits and jobs pages with their CSS and JS
# (links made relative, so that the page renders from files) under results/console-NAME/.
save_console() { # name
    local saved
    if saved="$(timeout 60 python3 "$repo/scripts/lab/service-http.py" console "$base" "$admin_password" \
            "$results/console-$1")"; then
        say "console saved: $saved"
    else
        fail "console: not saved"
    fi
}

# While the loaded bench runs: wait for its warmup to end and a device to be busy, then snapshot.
snapshots() { # name
    local name="$1" limit=$(($(date +%s) + $(upto 120)))
    while kill -0 "$bench_pid" 2>/dev/null && ! grep -q '^verified' "$results/bench-$name.txt" 2>/dev/null \
            && (($(date +%s) < limit)); do sleep 0.5; done
    local tries=0
    while kill -0 "$bench_pid" 2>/dev/null && ((tries < 40)) \
            && ! api_get /api/v1/pipeline - 2>/dev/null | grep -qE '"busyWorkers":[1-9]'; do
        sleep 0.25; tries=$((tries + 1))
    done
    kill -0 "$bench_pid" 2>/dev/null || say "note: the bench ended before the snapshots"
    api_get /api/v1/pipeline "$results/pipeline-$name-1.json"
    save_console "$name"
    api_get /api/v1/pipeline "$results/pipeline-$name-2.json"
    say "pipeline snapshots saved ($(grep -oE '"busyWorkers":[0-9]+' "$results/pipeline-$name-1.json" | tr '\n' ' '))"
}

# The newest DONE jobs' proofs in snarkjs's layout (results/proofs/PREFIX-ID/), each checked here with the bundle's
# verifier as well; scripts/lab/verify-gpu-proofs.sh checks them with snarkjs once they are back.
save_proofs() { # prefix count
    local dir devices
    http proofs "$base" "$api_key" "$2" "$1" "$results/proofs" > "$work/proofs.txt" || fail "could not fetch proofs"
    while read -r dir devices; do
        local verdict
        verdict="$(PROOFLINE_JAVA_OPTS=-Xmx1g timeout 60 "$svc/bin/proofline" verify "$dir/verification_key.json" \
            "$dir/public.json" "$dir/proof.json" 2>&1)" || fail "proof $(basename "$dir") did not verify"
        say "proof $(basename "$dir") (device $devices): $(grep -v incubator <<<"$verdict" | tr '\n' ' ')"
    done < "$work/proofs.txt"
}

# Samples /api/v1/pipeline once a second into results/pipeline-series-NAME.jsonl while the bench runs (RSS, reserved
# bytes and busy workers over the run; the console's chart is drawn from the same snapshots).
series() { # name
    while kill -0 "$bench_pid" 2>/dev/null; do
        api_get /api/v1/pipeline - 2>/dev/null >> "$results/pipeline-series-$1.jsonl" && echo >> "$results/pipeline-series-$1.jsonl"
        sleep 1
    done
}

# 2. The GPU phase.
if $gpu && (($(left) > 60)); then
    say "== GPU phase"
    if start_service gpu --proofline.gpu.kernels="$work/kernels"; then
        grep -q 'proving devices: \[gpu' "$results/service-gpu.log" \
            || say "WARNING: the GPU phase has no GPU device: $(grep -o 'proving devices: .*' "$results/service-gpu.log")"
        if command -v nvidia-smi >/dev/null; then
            timeout "$(upto 600)" nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,power.draw \
                --format=csv -lms 500 > "$results/nvidia-smi.csv" 2>&1 &
            monitor_pid=$!
        fi
        if register_circuit; then
            bench gpu-1 1 "$jobs_one" "$warmup" 4
            finish_bench gpu-1
            pack
            bench "gpu-$clients" "$clients" "$jobs" "$warmup" 4
            series "gpu-$clients" &
            snapshots "gpu-$clients"
            finish_bench "gpu-$clients"
            save_proofs gpu "$keep_proofs"
            if $input; then
                bench gpu-1-input 1 "$jobs_one" "$warmup" 4
                finish_bench gpu-1-input
                pack
                bench "gpu-$clients-input" "$clients" "$jobs" "$warmup" 4
                series "gpu-$clients-input" &
                snapshots "gpu-$clients-input"
                finish_bench "gpu-$clients-input"
            fi
        fi
        [[ -n "$monitor_pid" ]] && kill "$monitor_pid" 2>/dev/null
        monitor_pid=""
    fi
    stop_service
    pack
elif $gpu; then
    say "== GPU phase skipped: $(left) s left"
fi

# 3. The CPU phase: the same circuit (already registered when the GPU phase ran) on the CPU backend.
if $cpu && (($(left) > 60)); then
    say "== CPU phase"
    if start_service cpu --proofline.gpu.enabled=false; then
        if register_circuit; then
            bench cpu-1 1 "$cpu_jobs" 1 1
            series cpu-1 &
            snapshots cpu-1
            finish_bench cpu-1
            save_proofs cpu 1
        fi
    fi
    stop_service
elif $cpu; then
    say "== CPU phase skipped: $(left) s left"
fi
pack
