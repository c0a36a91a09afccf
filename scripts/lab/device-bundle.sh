#!/usr/bin/env bash
# Builds what the GPU test machine needs into the ignored folder .device/ (it has nvcc but no Java, and what
# travels must stay under 64 MiB with the working tree):
#   .device/jre/           a jlinked Java runtime (java.base, java.logging for JCuda's loader, java.management,
#                          java.xml for Jackson's optional DOM handlers, jdk.unsupported), ~45 MB
#   .device/lib/proofline-core.jar   target/classes with native/ (the fatbins and modules.list; no Spring)
#   .device/lib/jcuda-*.jar          JCuda, and its natives jar cut down to libJCudaDriver (it needs only libcuda.so.1)
#   .device/lib/*.jar                the other non-Spring runtime libraries of the core (Jackson, Chicory, ...)
#   .device/run.sh         runs a CLI command there (the lab's too), e.g. .device/run.sh gpu-bench
#
#   scripts/lab/device-bundle.sh            # kernels for sm_90 only (the H200); PROOFLINE_CUDA_ARCHS="80 89 90" for all
#   scripts/lab/device-bundle.sh --kernels-there
#         no local nvcc run: the printed command builds the fatbin on the GPU machine (16 cores: about a minute,
#         against many minutes on a busy 2-core development machine) and passes it with --kernels DIR
#   scripts/lab/device-bundle.sh --kernels-there --base COMMIT [--base COMMIT2 ...]
#         also .device/bases/COMMIT/ (named by the short hash): COMMIT's classes (proofline-core.jar), its
#         native-cuda/ and a run.sh that runs them with the bundle's runtime and libraries, so that scripts/lab/device-kernels-ab.sh measures the working tree
#         against each COMMIT in one device call (each built there from its own native-cuda/)
#   scripts/lab/device-bundle.sh --tests
#         also the GPU JUnit tests (tag "gpu") and the JUnit console launcher, run there by .device/test.sh, e.g.
#         .device/test.sh -Dproofline.test.gpu.kernels=/tmp/pf -Dproofline.test.gpu.log=16
set -euo pipefail
cd "$(dirname "$0")/../.."
# A JDK 25: JAVA_HOME, else the one whose java is on the PATH (jlink comes from it).
export JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
archs="${PROOFLINE_CUDA_ARCHS:-90}"
kernels_there=false
# Where the bundle goes: .device/ by default; PROOFLINE_BUNDLE_DIR puts it elsewhere (e.g. into another checkout
# when this one is not the tree that is sent to the GPU machine).
bundle="${PROOFLINE_BUNDLE_DIR:-.device}"
with_tests=false
bases=()
while (( $# > 0 )); do
    case "$1" in
        --kernels-there) kernels_there=true ;;
        --tests) with_tests=true ;;
        --base) bases+=("${2:?--base needs a commit}"); shift ;;
        *) echo "usage: scripts/lab/device-bundle.sh [--kernels-there] [--base COMMIT]... [--tests]" >&2; exit 2 ;;
    esac
    shift
done
# The JUnit console launcher of the project's JUnit version, for --tests.
junit_version=6.0.3
# The JCuda version is the pom's property, the one place it is written.
jcuda_version="$(sed -n 's:.*<jcuda.version>\(.*\)</jcuda.version>.*:\1:p' pom.xml)"
[[ -n "$jcuda_version" ]] || { echo "device-bundle: no <jcuda.version> in pom.xml" >&2; exit 1; }
m2="${HOME}/.m2/repository/org/jcuda"

# Kernels first (cached in .native-build/), then the classes without re-running nvcc through Maven.
if ! $kernels_there; then
    PROOFLINE_CUDA_ARCHS="$archs" native-cuda/build.sh .native-build/kernels-device "$archs"
    [[ -f .native-build/kernels-device/modules.list ]] || { echo "no kernels were built (is nvcc on the PATH?)" >&2; exit 1; }
fi
mvn -q -B -Dproofline.skipCuda -DskipTests compile >/dev/null
# The CLI's other commands reference the core's libraries (Jackson, Chicory, Resilience4j): take the runtime
# classpath minus Spring, its web server and metrics, and the 9.5 MB JCuda natives jar (cut down below).
rm -rf "$bundle"/deps && mvn -q -B -Dproofline.skipCuda dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$bundle"/deps >/dev/null

rm -rf "$bundle"/lib "$bundle"/run.sh
mkdir -p "$bundle"/lib "$bundle"/stage/native
if $kernels_there; then
    "$JAVA_HOME/bin/jar" --create --file "$bundle"/lib/proofline-core.jar -C target/classes io -C target/classes META-INF/services
else
    cp .native-build/kernels-device/*.fatbin .native-build/kernels-device/modules.list "$bundle"/stage/native/
    "$JAVA_HOME/bin/jar" --create --file "$bundle"/lib/proofline-core.jar -C target/classes io -C target/classes META-INF/services -C "$bundle"/stage native
fi
rm -rf "$bundle"/stage

# An allow-list, not a deny-list: the service's libraries (Spring, H2, Flyway, ...) would push the bundle past 64 MiB.
for jar in "$bundle"/deps/*.jar; do
    case "$(basename "$jar")" in
        jcuda-natives-*) ;;
        asm-*|commons-logging-*|compiler-*|runtime-*|wasm-*|jackson-core-3*|jackson-databind-3*|jackson-annotations-*|\
        jakarta.annotation-api-*|jcuda-*|jspecify-*|slf4j-api-*|jul-to-slf4j-*|resilience4j-core-*|resilience4j-bulkhead-*|resilience4j-circuitbreaker-*) cp "$jar" "$bundle"/lib/ ;;
        *) ;;
    esac
done
rm -rf "$bundle"/deps
natives="$m2/jcuda-natives/$jcuda_version/jcuda-natives-$jcuda_version-linux-x86_64.jar"
rm -rf "$bundle"/natives && mkdir -p "$bundle"/natives
(cd "$bundle"/natives && unzip -q "$natives" "lib/libJCudaDriver-$jcuda_version-linux-x86_64.so")
"$JAVA_HOME/bin/jar" --create --file "$bundle/lib/jcuda-natives-driver-$jcuda_version.jar" -C "$bundle"/natives lib
rm -rf "$bundle"/natives

if [[ ! -x "$bundle"/jre/bin/java ]]; then
    "$JAVA_HOME/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.management,java.xml,jdk.unsupported \
        --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output "$bundle"/jre
    # libjvm.so ships with its symbol table (30 MB); without it (25 MB) bundle + checkout stay under the 64 MiB that
    # travels to the device. Dynamic symbols stay, so the JVM and JCuda's JNI loading are unaffected.
    if command -v strip >/dev/null; then
        strip --strip-unneeded "$bundle"/jre/lib/server/libjvm.so
    fi
fi

cat > "$bundle"/run.sh <<'RUN'
#!/usr/bin/env bash
# Runs a Proofline CLI command with the bundled runtime: .device/run.sh gpu-selftest | gpu-bench | bench gpu ...
here="$(cd "$(dirname "$0")" && pwd)"
# PROOFLINE_JAVA_OPTS replaces the heap setting (the GPU machine has 128 GiB; bench gpu proofs of 2^22 need a few GB).
exec "$here/jre/bin/java" --enable-native-access=ALL-UNNAMED ${PROOFLINE_JAVA_OPTS:--Xmx48g} -cp "$here/lib/*" io.proofline.cli.Cli "$@"
RUN
chmod +x "$bundle"/run.sh

rm -rf "$bundle"/base "$bundle"/bases
# Each baseline's classes from a worktree of its own (its Maven build, the same libraries as far as they match).
trees=()
# Removed however the script ends (a failed compile under set -e too), so no stale worktree is left registered.
trap 'for t in "${trees[@]}"; do git worktree remove --force "$t/src" 2>/dev/null; rm -rf "$t"; done' EXIT
for base in "${bases[@]}"; do
    tree="$(mktemp -d)"
    trees+=("$tree")
    git worktree add -q --detach "$tree/src" "$base"
    (cd "$tree/src" && mvn -q -B -Dproofline.skipCuda -DskipTests compile >/dev/null)
    commit="$(git -C "$tree/src" rev-parse --short HEAD)"
    dir="$bundle/bases/$commit"
    mkdir -p "$dir"
    "$JAVA_HOME/bin/jar" --create --file "$dir"/proofline-core.jar -C "$tree/src/target/classes" io \
        -C "$tree/src/target/classes" META-INF/services
    cp -r "$tree/src/native-cuda" "$dir"/
    cat > "$dir"/run.sh <<'RUN'
#!/usr/bin/env bash
# Runs a CLI command of this baseline commit (the folder's name) with the bundle's runtime and libraries.
here="$(cd "$(dirname "$0")" && pwd)"
cp="$here/proofline-core.jar"
for jar in "$here"/../../lib/*.jar; do [[ "$(basename "$jar")" == proofline-core.jar ]] || cp="$cp:$jar"; done
exec "$here/../../jre/bin/java" --enable-native-access=ALL-UNNAMED ${PROOFLINE_JAVA_OPTS:--Xmx48g} -cp "$cp" io.proofline.cli.Cli "$@"
RUN
    chmod +x "$dir"/run.sh
done

rm -rf "$bundle"/test "$bundle"/test.sh
if $with_tests; then
    # The tests tagged "gpu" need no Spring and no fixtures: their classes and the console launcher are enough.
    mvn -q -B -Dproofline.skipCuda -DskipTests test-compile >/dev/null
    mvn -q -B dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:$junit_version \
        -DoutputDirectory="$bundle"/test >/dev/null
    # Each class tagged "gpu" (by its source) with its nested and anonymous classes.
    classes=$(grep -rl '@Tag("gpu")' src/test/java | sed 's|^src/test/java/||; s|\.java$||')
    [[ -n "$classes" ]] || { echo "no test is tagged gpu" >&2; exit 1; }
    entries=()
    for c in $classes; do
        for f in target/test-classes/"$c".class target/test-classes/"$c"\$*.class; do
            [[ -f "$f" ]] && entries+=(-C target/test-classes "${f#target/test-classes/}")
        done
    done
    "$JAVA_HOME/bin/jar" --create --file "$bundle"/test/proofline-gpu-tests.jar "${entries[@]}"
    tests=$(for c in $classes; do printf -- '--select-class %s ' "${c//\//.}"; done)
    cat > "$bundle"/test.sh <<TEST
#!/usr/bin/env bash
# Runs the GPU JUnit tests with the bundled runtime; JVM options (-D...) first, e.g.
#   .device/test.sh -Dproofline.test.gpu.kernels=/tmp/pf -Dproofline.test.gpu.log=16
here="\$(cd "\$(dirname "\$0")" && pwd)"
opts=(); while [[ "\${1:-}" == -D* || "\${1:-}" == -X* ]]; do opts+=("\$1"); shift; done
exec "\$here/jre/bin/java" --enable-native-access=ALL-UNNAMED -Xmx32g "\${opts[@]}" \\
    -jar "\$here/test/junit-platform-console-standalone-$junit_version.jar" execute \\
    --class-path "\$here/test/proofline-gpu-tests.jar:\$(ls "\$here"/lib/*.jar | tr '\\n' ':')" \\
    --include-tag gpu $tests --details=tree --disable-banner --disable-ansi-colors --fail-if-no-tests "\$@"
TEST
    chmod +x "$bundle"/test.sh
fi

echo "bundle: $(du -sh "$bundle" | cut -f1) in $bundle/ (kernels: sm_${archs// /, sm_})"
echo "run on the device machine (carry $bundle):"
if (( ${#bases[@]} > 0 )); then
    echo "  scripts/lab/device-kernels-ab.sh    (the working tree against $(ls "$bundle"/bases | tr '\n' ' ' | sed 's/ $//'); pack $bundle first if"
    echo "  it does not fit: tar -cf - $bundle | xz -T2 -6 > .device-pack/device.tar.xz, carry .device-pack)"
elif $kernels_there; then
    echo "  native-cuda/build.sh /tmp/pf \"$archs\" && $bundle/run.sh gpu-bench --kernels /tmp/pf 2>&1 | tee \$OUT/selftest.log"
else
    echo "  $bundle/run.sh gpu-bench 2>&1 | tee \$OUT/selftest.log"
fi
