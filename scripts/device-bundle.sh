#!/usr/bin/env bash
# Builds what the GPU test machine needs into the ignored folder .device/ (it has nvcc but no Java, and what
# travels must stay under 64 MiB with the working tree):
#   .device/jre/           a jlinked Java runtime (java.base, java.logging for JCuda's loader, java.management,
#                          jdk.unsupported), ~43 MB
#   .device/lib/proofline-core.jar   target/classes with native/proofline.fatbin (no Spring on the classpath)
#   .device/lib/jcuda-*.jar          JCuda, and its natives jar cut down to libJCudaDriver (it needs only libcuda.so.1)
#   .device/lib/*.jar                the other non-Spring runtime libraries of the core (Jackson, Chicory, ...)
#   .device/run.sh         runs a CLI command there, e.g. .device/run.sh gpu-selftest --bench
#
#   scripts/device-bundle.sh            # kernels for sm_90 only (the H200); PROOFLINE_CUDA_ARCHS="80 89 90" for all
#   scripts/device-bundle.sh --kernels-there
#         no local nvcc run: the printed command builds the fatbin on the GPU machine (16 cores: about a minute,
#         against many minutes on a busy 2-core development machine) and points PROOFLINE_FATBIN at it
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
archs="${PROOFLINE_CUDA_ARCHS:-90}"
kernels_there=false
[[ "${1:-}" == "--kernels-there" ]] && kernels_there=true
jcuda_version=12.6.0
m2="${HOME}/.m2/repository/org/jcuda"

# Kernels first (cached in .native-build/), then the classes without re-running nvcc through Maven.
if ! $kernels_there; then
    PROOFLINE_CUDA_ARCHS="$archs" native-cuda/build.sh .native-build/proofline-device.fatbin "$archs"
    [[ -f .native-build/proofline-device.fatbin ]] || { echo "no fatbin was built (is nvcc on the PATH?)" >&2; exit 1; }
fi
mvn -q -B -Dproofline.skipCuda -DskipTests compile >/dev/null
# The CLI's other commands reference the core's libraries (Jackson, Chicory, Resilience4j): take the runtime
# classpath minus Spring, its web server and metrics, and the 9.5 MB JCuda natives jar (cut down below).
rm -rf .device/deps && mvn -q -B -Dproofline.skipCuda dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory=.device/deps >/dev/null

rm -rf .device/lib .device/run.sh
mkdir -p .device/lib .device/stage/native
if $kernels_there; then
    "$JAVA_HOME/bin/jar" --create --file .device/lib/proofline-core.jar -C target/classes io
else
    cp .native-build/proofline-device.fatbin .device/stage/native/proofline.fatbin
    "$JAVA_HOME/bin/jar" --create --file .device/lib/proofline-core.jar -C target/classes io -C .device/stage native
fi
rm -rf .device/stage

for jar in .device/deps/*.jar; do
    case "$(basename "$jar")" in
        spring-*|tomcat-*|micrometer-*|HdrHistogram-*|LatencyUtils-*|logback-*|log4j-*|snakeyaml-*|jcuda-natives-*) ;;
        *) cp "$jar" .device/lib/ ;;
    esac
done
rm -rf .device/deps
natives="$m2/jcuda-natives/$jcuda_version/jcuda-natives-$jcuda_version-linux-x86_64.jar"
rm -rf .device/natives && mkdir -p .device/natives
(cd .device/natives && unzip -q "$natives" "lib/libJCudaDriver-$jcuda_version-linux-x86_64.so")
"$JAVA_HOME/bin/jar" --create --file ".device/lib/jcuda-natives-driver-$jcuda_version.jar" -C .device/natives lib
rm -rf .device/natives

if [[ ! -x .device/jre/bin/java ]]; then
    "$JAVA_HOME/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.unsupported \
        --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output .device/jre
fi

cat > .device/run.sh <<'RUN'
#!/usr/bin/env bash
# Runs a Proofline CLI command with the bundled runtime: .device/run.sh gpu-selftest [--bench] ...
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/jre/bin/java" --enable-native-access=ALL-UNNAMED -Xmx24g -cp "$here/lib/*" io.proofline.cli.Cli "$@"
RUN
chmod +x .device/run.sh

echo "bundle: $(du -sh .device | cut -f1) in .device/ (kernels: sm_${archs// /, sm_})"
echo "run on the device machine (carry .device):"
if $kernels_there; then
    echo "  native-cuda/build.sh /tmp/pf/proofline.fatbin \"$archs\" && PROOFLINE_FATBIN=/tmp/pf/proofline.fatbin .device/run.sh gpu-selftest --bench 2>&1 | tee \$OUT/selftest.log"
else
    echo "  .device/run.sh gpu-selftest --bench 2>&1 | tee \$OUT/selftest.log"
fi
