#!/usr/bin/env bash
# Builds the whole Spring Boot service, with a runtime to run it, into one xz archive for a machine that has no Java
# and no network (the GPU test machine), where what travels (the working tree plus carried paths) is at most 64 MiB:
#
#   .service/proofline-service.tar.xz     the only file in .service/ (carry that folder); it unpacks to
#     proofline-service/jre/              a jlinked Java runtime with the modules the service needs: jdeps on the
#                                         classes and their libraries, plus those reached by reflection or service
#                                         loading (the same list as docker/Dockerfile's runtime)
#     proofline-service/app/proofline.jar target/classes (templates, static files, migrations, application.yml) as
#                                         the extracted layout's plain jar (Main-Class, Class-Path lib/...), no
#                                         kernels: the GPU machine builds them (native-cuda/build.sh) and the service
#                                         loads them from proofline.gpu.kernels
#     proofline-service/app/lib/*.jar     every runtime library; JCuda's natives jar cut down to libJCudaDriver
#     proofline-service/bin/proofline     runs the service (`serve`) or any CLI command with that runtime, through
#                                         the repository's launcher (bin/launcher: the same JVM options as the
#                                         Docker image; the AOT cache app/proofline.aot when there is one)
#     proofline-service/bin/aot-cache.sh  makes that cache on the machine that runs it, as the Docker image's build
#                                         does (a cache holds only for the runtime and jar paths it was made with):
#                                         bin/aot-cache.sh app/proofline.jar WORK_DIR jre/bin/java
#     proofline-service/COMMIT            the commit it was built from
#
# The libraries' jars are rewritten with their entries stored, not deflated (same entries, same order, same
# manifests): xz over stored class files packs about twice as tightly as over deflated ones; the application's jar is
# stored too. The runtime is linked without compression for the same reason, and without the JDK's default CDS
# archive (29 MB): the AOT cache that bin/aot-cache.sh makes there holds the JDK's classes too. Intermediate results
# are kept in target/service-bundle/ (the runtime is linked again only when the module list or the JDK changes).
#
#   scripts/lab/service-bundle.sh                 # then carry .service to the GPU machine; scripts/lab/device-service-run.sh
#                                             # there unpacks and runs it
#   PROOFLINE_SERVICE_DIR=DIR scripts/lab/service-bundle.sh     puts the archive into DIR instead of .service/
#   PROOFLINE_XZ_LEVEL=6 ...                  quicker, a few MB larger (default 9)
#
# Needs JDK 25 (JAVA_HOME, else the java on the PATH), Maven, python3 (to rewrite the jars) and xz.
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
out="${PROOFLINE_SERVICE_DIR:-.service}"
level="${PROOFLINE_XZ_LEVEL:-9}"
stage=target/service-bundle
# The JCuda version is the pom's property, the one place it is written.
jcuda_version="$(sed -n 's:.*<jcuda.version>\(.*\)</jcuda.version>.*:\1:p' pom.xml)"
[[ -n "$jcuda_version" ]] || { echo "service-bundle: no <jcuda.version> in pom.xml" >&2; exit 1; }
natives="${HOME}/.m2/repository/org/jcuda/jcuda-natives/$jcuda_version/jcuda-natives-$jcuda_version-linux-x86_64.jar"
limit=$((64 * 1024 * 1024))
for tool in python3 xz; do
    command -v "$tool" >/dev/null || { echo "service-bundle: $tool is needed" >&2; exit 1; }
done
started=$(date +%s)
say() { printf '%(%H:%M:%S)T [service-bundle] %s\n' -1 "$*"; }

say "compiling (no kernels: -Dproofline.skipCuda)"
mvn -q -B -Dproofline.skipCuda -DskipTests compile >/dev/null
rm -rf "$stage/deps" && mkdir -p "$stage"
mvn -q -B -Dproofline.skipCuda dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$stage/deps" >/dev/null
[[ -f "$natives" ]] || { echo "service-bundle: $natives is missing (mvn dependency:resolve)" >&2; exit 1; }

# The modules: docker/jre-modules (what jdeps finds, and what is reached by reflection or service loading), the one list
# of every jlinked runtime; jre-modules.sh --check fails when jdeps finds one the list lacks.
say "checking the JDK modules against jdeps"
modules="$(JDEPS="$JAVA_HOME/bin/jdeps" scripts/jre-modules.sh --check target/classes "$stage/deps")"
key="$("$JAVA_HOME/bin/java" -version 2>&1 | head -1) $modules"
if [[ ! -x "$stage/jre/bin/java" || "$(cat "$stage/jre.key" 2>/dev/null)" != "$key" ]]; then
    say "linking the runtime: $modules"
    rm -rf "$stage/jre"
    "$JAVA_HOME/bin/jlink" --add-modules "$modules" --include-locales=en --strip-debug --no-man-pages \
        --no-header-files --compress=zip-0 --output "$stage/jre" 2>&1 | grep -v 'incubator modules' || true
    # libjvm.so ships with its symbol table; the dynamic symbols that JNI and the JVM need stay.
    strip --strip-unneeded "$stage/jre/lib/server/libjvm.so"
    echo "$key" > "$stage/jre.key"
else
    say "the runtime in $stage/jre is current"
fi

# The libraries, stored; a jar already rewritten (same file name, so the same version) is reused.
say "rewriting $(ls "$stage/deps" | wc -l) library jars with stored entries"
mkdir -p "$stage/stored"
rm -rf "$stage/natives" && mkdir -p "$stage/natives"
(cd "$stage/natives" && unzip -q "$natives" "lib/libJCudaDriver-$jcuda_version-linux-x86_64.so")
"$JAVA_HOME/bin/jar" --create --file "$stage/deps/jcuda-natives-driver-$jcuda_version.jar" -C "$stage/natives" lib
rm -f "$stage/deps/jcuda-natives-$jcuda_version-linux-x86_64.jar" "$stage/stored/jcuda-natives-driver-$jcuda_version.jar"
python3 - "$stage/deps" "$stage/stored" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    target = os.path.join(dst, name)
    if not name.endswith('.jar') or os.path.exists(target):
        continue
    with zipfile.ZipFile(os.path.join(src, name)) as zin, zipfile.ZipFile(target + '.tmp', 'w', zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            info.compress_type = zipfile.ZIP_STORED
            zout.writestr(info, data)
    os.replace(target + '.tmp', target)
PY

# The tree that is archived.
tree="$stage/tree/proofline-service"
rm -rf "$stage/tree" && mkdir -p "$tree/app/lib" "$tree/bin"
cp -a "$stage/jre" "$tree/jre"
for jar in "$stage"/deps/*.jar; do
    cp "$stage/stored/$(basename "$jar")" "$tree/app/lib/"
done
# The application's classes as the plain jar of Spring Boot's extracted layout (the AOT cache holds classes from
# jars only, not from a folder), its manifest naming the libraries.
python3 - target/classes "$tree/app/proofline.jar" $(cd "$tree/app" && ls lib/*.jar) <<'PY'
import os, sys, zipfile
classes, target, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
def wrapped(line):
    data, out = line.encode(), []
    while len(data) > 70:
        out.append(data[:70]); data = b' ' + data[70:]
    return b'\r\n'.join(out + [data]) + b'\r\n'
manifest = b''.join(wrapped(l) for l in ['Manifest-Version: 1.0', 'Main-Class: io.proofline.Proofline',
                                          'Class-Path: ' + ' '.join(libs)]) + b'\r\n'
with zipfile.ZipFile(target, 'w', zipfile.ZIP_STORED) as jar:
    jar.writestr('META-INF/MANIFEST.MF', manifest)
    for root, dirs, files in os.walk(classes):
        dirs[:] = sorted(d for d in dirs if not (root == classes and d == 'native'))
        if root != classes and os.path.relpath(root, classes) != 'META-INF':
            # Directory entries: Spring's classpath scanning asks the class loader for the package's folder.
            jar.writestr(os.path.relpath(root, classes) + '/', b'')
        for name in sorted(files):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, classes)
            if rel != 'META-INF/MANIFEST.MF':
                jar.write(path, rel)
PY
git rev-parse --short HEAD > "$tree/COMMIT"
git status --porcelain --untracked-files=no | grep -q . && echo "(with uncommitted changes)" >> "$tree/COMMIT"
cp bin/proofline "$tree/bin/launcher"
cp scripts/aot-cache.sh "$tree/bin/aot-cache.sh"
cat > "$tree/bin/proofline" <<'RUN'
#!/usr/bin/env bash
# Proofline with its bundled runtime: `proofline serve [--spring.options]` starts the service, any other first
# argument is a CLI command (proofline dev-circuit ..., proofline bench http ...), through the repository's launcher
# (bin/launcher) with this runtime and jar. PROOFLINE_JAVA_OPTS, when set, replaces the heap options. The bundle's one
# jar carries the lab's classes too (target/classes), so it is also the lab jar the launcher asks for.
home="$(cd "$(dirname "$0")/.." && pwd)"
JAVA_HOME="$home/jre" PROOFLINE_JAR="$home/app/proofline.jar" PROOFLINE_LAB_JAR="$home/app/proofline.jar" \
  exec "$home/bin/launcher" "$@"
RUN
chmod +x "$tree/bin/proofline" "$tree/bin/launcher" "$tree/bin/aot-cache.sh"

say "compressing (xz -$level)"
mkdir -p "$out"
rm -f "$out"/*.tmp
tar -C "$stage/tree" -cf - proofline-service | xz -T0 "-$level" > "$out/proofline-service.tar.xz.tmp"
mv "$out/proofline-service.tar.xz.tmp" "$out/proofline-service.tar.xz"
rm -rf "$stage/tree"

archive=$(stat -c %s "$out/proofline-service.tar.xz")
checkout=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
others=$(git ls-files -z --others --exclude-standard | xargs -0 -r du -cb 2>/dev/null | tail -1 | cut -f1)
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
say "unpacked: runtime $(du -sh "$stage/jre" | cut -f1), classes $(du -sh target/classes --exclude=native | cut -f1), libraries $(du -shc "$stage"/stored/*.jar | tail -1 | cut -f1) (stored)"
say "archive: $out/proofline-service.tar.xz $(mib "$archive") ($archive bytes)"
say "with the working tree (tracked $(mib "$checkout"), untracked $(mib "${others:-0}")): $(mib $((archive + checkout + ${others:-0}))) of the 64 MiB that travels"
if ((archive + checkout + ${others:-0} > limit)); then
    say "WARNING: over 64 MiB: the device run would be refused"
fi
say "done in $(( $(date +%s) - started )) s; on the GPU machine (carry $out):  scripts/lab/device-service-run.sh"
