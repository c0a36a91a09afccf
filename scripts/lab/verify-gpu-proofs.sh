#!/usr/bin/env bash
# Verifies with snarkjs every proof a GPU run wrote: for each DIR/<case>/ holding proof.json, public.json and
# verification_key.json (gpu-selftest --proofs/--fixtures ... --proof-out DIR), runs
#   snarkjs groth16 verify verification_key.json public.json proof.json
# and, where the case also has snarkjs_verification_key.json (a fixture's own snarkjs-made key), the same against
# that key. Prints OK or FAIL per check; exits 1 if any check failed or no case was found.
#
# Usage: scripts/lab/verify-gpu-proofs.sh DIR          (snarkjs: $SNARKJS, else <repo>/.fixtures/node_modules/.bin/snarkjs,
#                                                  which scripts/install-node-tools.sh installs)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${1:?usage: scripts/lab/verify-gpu-proofs.sh DIR}"
snarkjs="${SNARKJS:-$root/.fixtures/node_modules/.bin/snarkjs}"
[[ -x "$snarkjs" ]] || { echo "snarkjs not found at $snarkjs (run scripts/install-node-tools.sh or set SNARKJS)" >&2; exit 2; }
[[ -d "$dir" ]] || { echo "no such folder: $dir" >&2; exit 2; }

checks=0
failed=0
check() { # case-name vkey public proof
    local name="$1" vk="$2" pub="$3" proof="$4" output
    checks=$((checks + 1))
    # snarkjs prints "snarkJS: OK!" and exits 0 for a valid proof; both are required.
    if output="$("$snarkjs" groth16 verify "$vk" "$pub" "$proof" 2>&1)" && grep -q "OK!" <<<"$output"; then
        echo "OK    $name"
    else
        failed=$((failed + 1))
        echo "FAIL  $name: $(tr '\n' ' ' <<<"$output" | cut -c1-300)"
    fi
}

for case_dir in "$dir"/*/; do
    case_dir="${case_dir%/}"
    name="$(basename "$case_dir")"
    if [[ ! -f "$case_dir/proof.json" || ! -f "$case_dir/public.json" || ! -f "$case_dir/verification_key.json" ]]; then
        continue
    fi
    check "$name" "$case_dir/verification_key.json" "$case_dir/public.json" "$case_dir/proof.json"
    if [[ -f "$case_dir/snarkjs_verification_key.json" ]]; then
        check "$name (fixture's snarkjs key)" "$case_dir/snarkjs_verification_key.json" "$case_dir/public.json" \
            "$case_dir/proof.json"
    fi
done

if ((checks == 0)); then
    echo "no proof.json + public.json + verification_key.json under $dir/*/" >&2
    exit 1
fi
echo "$((checks - failed)) of $checks snarkjs checks OK"
((failed == 0))
