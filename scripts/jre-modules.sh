#!/bin/sh
# Prints docker/jre-modules (the JDK modules of Proofline's jlinked runtime) as jlink's comma-separated list, so that
# every runtime made from it (docker/Dockerfile, scripts/container-test.sh, scripts/lab/service-bundle.sh) links the
# same modules.
#
#   scripts/jre-modules.sh                   the list
#   scripts/jre-modules.sh --check APP LIB   also runs jdeps on APP (the application's jar or classes directory) with
#                                            the jars in LIB (its libraries; e.g. target/app/proofline.jar and
#                                            target/app/lib) and fails, naming them, when it finds modules the list
#                                            lacks; JDEPS (default: JAVA_HOME's, else the PATH's jdeps)
set -eu
list="$(dirname "$0")/../docker/jre-modules"
modules="$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$' | paste -sd, -)"
if [ "${1:-}" = "--check" ]; then
  app="${2:?usage: jre-modules.sh --check APP LIB}"
  lib="${3:?usage: jre-modules.sh --check APP LIB}"
  jdeps="${JDEPS:-${JAVA_HOME:+$JAVA_HOME/bin/}jdeps}"
  found="$("$jdeps" --ignore-missing-deps --recursive --multi-release 25 --print-module-deps \
      --class-path "$lib/*" "$app" | tail -1)"
  case "$found" in
    java.base*) ;;
    *) echo "jre-modules: jdeps answered '$found'" >&2; exit 1 ;;
  esac
  missing=""
  for m in $(echo "$found" | tr , ' '); do
    case ",$modules," in
      *",$m,"*) ;;
      *) missing="$missing $m" ;;
    esac
  done
  if [ -n "$missing" ]; then
    echo "jre-modules: jdeps finds modules that docker/jre-modules lacks:$missing (add them there)" >&2
    exit 1
  fi
fi
echo "$modules"
