#!/bin/sh
# Makes the JDK's ahead-of-time cache (JEP 483/514/515) for an extracted Proofline jar: one training run of
# `aot-training` (three proofs of a 32,768-constraint dev circuit of each curve, through `prove`, and `verify`) under
# -XX:AOTCacheOutput, which writes the jar's name with .aot beside it. bin/proofline and the Docker image start with it when it is there.
# The Maven build runs this after the jar is built (skip with -Dproofline.skipAot); the Docker image runs it in its
# runtime stage, since a cache holds only for the JVM and the jar paths it was made with.
#
# Usage: scripts/aot-cache.sh EXTRACTED_JAR WORK_DIR [JAVA]
#   EXTRACTED_JAR  e.g. target/app/proofline.jar (java -Djarmode=tools -jar target/proofline.jar extract): plain jars,
#                  since the cache holds only classes that the JDK's own class loaders load, not nested jars' classes
#   WORK_DIR       where the training circuits are made (kept: a second run reuses them)
#   JAVA           the java that will run the jar (default: JAVA_HOME's, else the PATH's)
# A JVM without -XX:AOTCacheOutput (before JDK 25, or not HotSpot) gets no cache: the script says so and exits 0.
set -eu
jar="$1"
work="$2"
java="${3:-${JAVA_HOME:+$JAVA_HOME/bin/}java}"
cache="${jar%.jar}.aot"
rm -f "$cache"
if ! "$java" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -q ' AOTCacheOutput '; then
  echo "aot-cache: $java has no -XX:AOTCacheOutput (JDK 25+ HotSpot); no AOT cache, bin/proofline runs without one"
  exit 0
fi
mkdir -p "$work"
start=$(date +%s)
# The module options must be bin/proofline's for a one-shot command (no Vector API module): the JVM refuses a cache
# made with other ones.
rc=0
env -u JAVA_TOOL_OPTIONS "$java" -XX:AOTCacheOutput="$cache" -Xlog:aot=error,cds=error \
  --enable-native-access=ALL-UNNAMED \
  -jar "$jar" aot-training "$work" >"$work/training.log" 2>&1 || rc=$?
if [ "$rc" != 0 ] || [ ! -s "$cache" ]; then
  cat "$work/training.log" >&2
  echo "aot-cache: the training run failed (exit $rc) or made no cache at $cache" >&2
  rm -f "$cache"
  exit 1
fi
echo "aot-cache: $cache ($(($(wc -c <"$cache") / 1048576)) MiB) in $(($(date +%s) - start)) s"
