#!/usr/bin/env bash
# Builds Proofline's image and the images beside it from Debian's packages and this checkout (no registry needed), then
# runs the container tests against a real engine (podman): the image started as a user starts it, the seed's OOM
# replayed under a container memory limit, stop/kill and restart on a volume, two containers on one PostgreSQL, the
# compose file, the Helm chart against the image; and the PostgreSQL tests on a PostgreSQL container (Testcontainers
# through podman's Docker-compatible socket).
#
#   scripts/container-test.sh              images, then the container tests (mvn test -Pcontainers)
#   scripts/container-test.sh images       the images only
#   scripts/container-test.sh engine-start starts podman's API socket and prints the variables that point at it
#   scripts/container-test.sh engine-stop  stops that socket
#   scripts/container-test.sh env          prints the variables the tests need (CONTAINERS_CONF, image names)
#
# Needs (installs nothing): podman and runc; debootstrap and the network to a Debian mirror when a base image is not
# made yet (DEBIAN_MIRROR, default http://deb.debian.org/debian); JDK 25 and Maven. As root, Debian: apt-get install
# podman runc debootstrap podman-compose uidmap slirp4netns fuse-overlayfs (.ci/run does). Exits 3, with the reason,
# where no engine can run a container (skip-worthy); other failures exit 1.
#
# Images (the tests' defaults; PROOFLINE_IMAGE, PROOFLINE_PG_IMAGE, PROOFLINE_PROMETHEUS_IMAGE override them):
#   localhost/proofline-base:<hash>        debootstrap --variant=minbase bookworm + curl, ca-certificates, imported;
#                                          cached by the hash of its recipe (suite, packages, this script's version)
#   localhost/proofline:test               docker/Dockerfile with RUNTIME_BASE=that base and APP=prebuilt: the
#                                          runtime jlinked here from docker/jre-modules and target/proofline.jar
#                                          extracted with --layers (mvn package, unless SKIP_PACKAGE=1)
#   localhost/proofline-postgres:15        docker/podman/postgres.Containerfile on a base with Debian's postgresql
#   localhost/proofline-prometheus:latest  docker/podman/prometheus.Containerfile on a base with Debian's prometheus
# Times of each step are printed (and appended to target/container/times.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
work="$root/target/container"
mkdir -p "$work"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/docker/podman/containers.conf}"
suite="${DEBIAN_SUITE:-bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
recipe_version=1           # raise when the base's recipe changes in a way its hash does not see
image="${PROOFLINE_IMAGE:-localhost/proofline:test}"
pg_image="${PROOFLINE_PG_IMAGE:-localhost/proofline-postgres:15}"
prom_image="${PROOFLINE_PROMETHEUS_IMAGE:-localhost/proofline-prometheus:latest}"
socket="${PROOFLINE_PODMAN_SOCKET:-/tmp/proofline-podman-$(id -u).sock}"

say() { printf '%(%H:%M:%S)T [container-test] %s\n' -1 "$*"; }
die() { say "ERROR: $*" >&2; exit 1; }
skip() { say "SKIP: $*" >&2; exit 3; }
timed() {   # timed LABEL command...: runs it, prints and records its wall time
  local label="$1" t0=$SECONDS
  shift
  "$@"
  say "$label: $((SECONDS - t0)) s"
  echo "$(date -u +%FT%TZ) $label $((SECONDS - t0)) s" >> "$work/times.txt"
}
retry() {   # retry N command...: network steps (apt mirrors) fail now and then
  local n="$1" i=1
  shift
  until "$@"; do
    [ "$i" -ge "$n" ] && return 1
    say "attempt $i of $n failed: $*; retrying in $((i * 10)) s"
    sleep $((i * 10))
    i=$((i + 1))
  done
}

check_engine() {
  command -v podman >/dev/null || skip "no podman (Debian: apt-get install podman runc, as root)"
  command -v runc >/dev/null || skip "no runc (docker/podman/containers.conf runs containers with runc)"
  local out
  if ! out="$(podman info --format '{{.Host.OCIRuntime.Name}} {{.Version.Version}}' 2>&1)"; then
    skip "podman cannot start here: $out"
  fi
  # A container that really starts (where the base is made): what the tests need, not only a CLI that answers.
  if podman image exists "$(base_image_name base)" \
      && ! out="$(podman run --rm --network none "$(base_image_name base)" true 2>&1)"; then
    skip "podman cannot run a container here: $out"
  fi
  say "engine: podman $(podman info --format '{{.Version.Version}}, runtime {{.Host.OCIRuntime.Name}}')"
}

# The packages of each base beyond debootstrap's minbase: Proofline's (curl for the HEALTHCHECK), PostgreSQL's,
# Prometheus's. The first is made by debootstrap; the others start from a copy of its tree and add their packages
# with apt in a chroot (one download of the minbase, not three).
packages() {
  case "$1" in
    base) echo "curl ca-certificates" ;;
    postgres) echo "postgresql" ;;
    prometheus) echo "prometheus" ;;
  esac
}
base_image_name() {
  local hash
  hash="$(printf '%s\n' "$suite" "$(packages base)" "$(packages "$1")" "$recipe_version" | sha256sum | cut -c1-12)"
  if [ "$1" = base ]; then echo "localhost/proofline-base:$hash"; else echo "localhost/proofline-$1-base:$hash"; fi
}

# What an image never reads: apt's lists and caches, docs, man pages, locales but C; and per role the largest
# files it does not need (PostgreSQL's LLVM JIT, which it runs without; the JavaScript of Prometheus's old console).
slim() {
  local rootfs="$1" role="$2"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* \
    "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/*
  find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} + 2>/dev/null || true
  case "$role" in
    postgres) rm -rf "$rootfs"/usr/lib/postgresql/*/lib/llvmjit* "$rootfs"/usr/lib/postgresql/*/lib/bitcode \
      "$rootfs"/usr/lib/x86_64-linux-gnu/libLLVM* "$rootfs"/usr/lib/x86_64-linux-gnu/libz3* ;;
    prometheus) rm -rf "$rootfs"/usr/share/javascript ;;
  esac
}

# The minbase tree with apt's lists, kept in $work/rootfs-minbase while a run makes the other bases from it.
minbase_tree() {
  local tree="$work/rootfs-minbase"
  [ -f "$tree/.complete" ] && return
  command -v debootstrap >/dev/null || skip "no debootstrap to make the base images (apt-get install debootstrap)"
  [ "$(id -u)" = 0 ] || skip "debootstrap and the chroot need root to make the base images"
  say "debootstrap $suite (minbase + $(packages base)) from $mirror"
  bootstrap() {
    rm -rf "$tree"
    debootstrap --variant=minbase --include="$(packages base | tr ' ' ,)" "$suite" "$tree" "$mirror" \
      > "$work/debootstrap.log" 2>&1 || { tail -5 "$work/debootstrap.log" >&2; return 1; }
  }
  # A mirror out of reach is the machine's trouble, not the code's: skip-worthy (exit 3), with the reason.
  retry 3 bootstrap || skip "debootstrap failed three times (mirror $mirror); see $work/debootstrap.log"
  touch "$tree/.complete"
}

build_base() {
  local role="$1" name rootfs
  name="$(base_image_name "$role")"
  if podman image exists "$name"; then
    say "$name: cached"
    return
  fi
  minbase_tree
  rootfs="$work/rootfs-$role"
  rm -rf "$rootfs" && cp -a "$work/rootfs-minbase" "$rootfs" && rm -f "$rootfs/.complete"
  if [ "$role" != base ]; then
    say "$name: apt-get install $(packages "$role") in a chroot"
    # No service starts inside the chroot (policy-rc.d), and the host's resolver serves apt.
    printf '#!/bin/sh\nexit 101\n' > "$rootfs/usr/sbin/policy-rc.d" && chmod +x "$rootfs/usr/sbin/policy-rc.d"
    cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
    install_packages() {
      chroot "$rootfs" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get -q -o Acquire::Retries=3 install -y \
        --no-install-recommends $(packages "$role") > "$work/apt-$role.log" 2>&1 \
        || { chroot "$rootfs" apt-get -q update >> "$work/apt-$role.log" 2>&1; tail -5 "$work/apt-$role.log" >&2; return 1; }
    }
    retry 3 install_packages || skip "apt-get install $(packages "$role") failed three times; see $work/apt-$role.log"
    rm -f "$rootfs/usr/sbin/policy-rc.d"
    : > "$rootfs/etc/resolv.conf"
  fi
  slim "$rootfs" "$role"
  tar -C "$rootfs" -c . | podman import --change 'CMD ["/bin/bash"]' - "$name" >/dev/null
  rm -rf "$rootfs"
  say "$name: $(podman image inspect --format '{{.Size}}' "$name" | awk '{printf "%.0f MB", $1 / 1e6}')"
}

# The application built here: the executable jar (mvn package unless SKIP_PACKAGE=1), extracted into layers, and a
# runtime jlinked from docker/jre-modules (checked against jdeps), staged as the Dockerfile's APP=prebuilt context.
stage_app() {
  local context="$work/context" java_home="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
  [ -x "$java_home/bin/jlink" ] || die "no JDK at $java_home (set JAVA_HOME to a JDK 25)"
  if [ "${SKIP_PACKAGE:-0}" != 1 ]; then
    # The image makes its own AOT cache (for its JRE and paths); the kernels are built where nvcc is.
    timed "mvn package" env JAVA_HOME="$java_home" mvn -B -q -DskipTests -Dproofline.skipAot package
  fi
  [ -f target/proofline.jar ] || die "no target/proofline.jar (mvn -B -DskipTests package)"
  rm -rf "$context" && mkdir -p "$context/scripts" "$context/bin"
  "$java_home/bin/java" -Djarmode=tools -jar target/proofline.jar extract --layers --destination "$context/layers" >/dev/null
  "$java_home/bin/java" -Djarmode=tools -jar target/proofline.jar extract --destination "$work/flat" --force >/dev/null
  local modules key
  modules="$(JDEPS="$java_home/bin/jdeps" scripts/jre-modules.sh --check "$work/flat/proofline.jar" "$work/flat/lib")"
  key="$("$java_home/bin/java" -version 2>&1 | head -1) $modules"
  if [ ! -x "$work/jre/bin/java" ] || [ "$(cat "$work/jre.key" 2>/dev/null)" != "$key" ]; then
    rm -rf "$work/jre"
    timed "jlink" "$java_home/bin/jlink" --add-modules "$modules" --include-locales=en --strip-debug --no-man-pages \
      --no-header-files --compress=zip-6 --output "$work/jre"
    echo "$key" > "$work/jre.key"
  fi
  cp -a "$work/jre" "$context/jre"
  cp -a bin/proofline "$context/bin/"
  cp -a scripts/aot-cache.sh "$context/scripts/"
  cp -a application.yml "$context/"
}

build_images() {
  check_engine
  for role in base postgres prometheus; do
    timed "base image $role" build_base "$role"
  done
  rm -rf "$work/rootfs-minbase"
  check_engine
  timed "image $pg_image" podman build -q --format docker --build-arg BASE="$(base_image_name postgres)" \
    -t "$pg_image" -f docker/podman/postgres.Containerfile docker/podman
  timed "image $prom_image" podman build -q --format docker --build-arg BASE="$(base_image_name prometheus)" \
    -t "$prom_image" -f docker/podman/prometheus.Containerfile docker/podman
  stage_app
  # --format docker keeps the HEALTHCHECK (OCI images have no such field).
  build_proofline() {
    podman build --format docker --build-arg RUNTIME_BASE="$(base_image_name base)" --build-arg APP=prebuilt \
      -t "$image" -f docker/Dockerfile "$work/context" > "$work/image-build.log" 2>&1 \
      || { tail -30 "$work/image-build.log" >&2; die "podman build of $image failed; see $work/image-build.log"; }
  }
  timed "image $image" build_proofline
  podman image prune -f >/dev/null 2>&1 || true
  say "$image: $(podman image inspect --format '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1 / 1e6}')"
}

engine_start() {
  if [ -S "$socket" ] && curl -fsS --unix-socket "$socket" http://d/_ping >/dev/null 2>&1; then
    say "podman API already answers at $socket" >&2
  else
    rm -f "$socket"
    nohup podman system service --time=0 "unix://$socket" > "$work/podman-api.log" 2>&1 &
    echo $! > "$work/podman-api.pid"
    for _ in $(seq 1 50); do
      curl -fsS --unix-socket "$socket" http://d/_ping >/dev/null 2>&1 && break
      sleep 0.2
    done
    curl -fsS --unix-socket "$socket" http://d/_ping >/dev/null 2>&1 \
      || die "podman system service did not answer at $socket; see $work/podman-api.log"
    say "podman API at $socket (pid $(cat "$work/podman-api.pid"))" >&2
  fi
  print_env
  echo "export DOCKER_HOST=unix://$socket TESTCONTAINERS_RYUK_DISABLED=true"
}

engine_stop() {
  if [ -f "$work/podman-api.pid" ]; then
    kill "$(cat "$work/podman-api.pid")" 2>/dev/null || true
    rm -f "$work/podman-api.pid" "$socket"
    say "podman API stopped" >&2
  fi
}

print_env() {
  echo "export CONTAINERS_CONF=$CONTAINERS_CONF PROOFLINE_IMAGE=$image PROOFLINE_PG_IMAGE=$pg_image PROOFLINE_PROMETHEUS_IMAGE=$prom_image"
}

run_tests() {
  local started_here=0
  if [ -z "${DOCKER_HOST:-}" ]; then
    eval "$(engine_start)"
    started_here=1
  fi
  export PROOFLINE_IMAGE="$image" PROOFLINE_PG_IMAGE="$pg_image" PROOFLINE_PROMETHEUS_IMAGE="$prom_image"
  export TESTCONTAINERS_RYUK_DISABLED=true
  local rc=0
  timed "container tests" env JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}" \
    mvn -B -Pcontainers ${CONTAINER_TESTS:+-Dtest="$CONTAINER_TESTS" -Dsurefire.failIfNoSpecifiedTests=false} test || rc=$?
  [ "$started_here" = 1 ] && engine_stop
  return "$rc"
}

case "${1:-test}" in
  images) build_images ;;
  test) build_images && run_tests ;;
  engine-start) check_engine >&2 && engine_start ;;
  engine-stop) engine_stop ;;
  env) print_env ;;
  *) sed -n '2,30p' "$0" >&2; exit 2 ;;
esac
