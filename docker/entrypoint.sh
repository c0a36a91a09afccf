#!/bin/sh
# The image's entrypoint: sizes the JVM from the container's memory limit with the service's one heap rule
# (`proofline heap-opts`: the cgroup's limit, narrowed by PROOFLINE_MEMORY_LIMIT where that is smaller), then
# replaces itself with the JVM, which stays PID 1 and handles SIGTERM. CLI commands get the same options.
set -eu
JAR=/app/proofline.jar
LIMIT_ARGS=""
if [ -n "${PROOFLINE_MEMORY_LIMIT:-}" ]; then
  LIMIT_ARGS="--limit ${PROOFLINE_MEMORY_LIMIT}"
fi
# A small, quick JVM for the one line of options (it does not start the service).
# shellcheck disable=SC2086
HEAP_OPTS="$(JAVA_TOOL_OPTIONS= java -Xmx64m -XX:TieredStopAtLevel=1 -jar "$JAR" heap-opts $LIMIT_ARGS)"
# shellcheck disable=SC2086
exec java $HEAP_OPTS --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar "$JAR" "$@"
