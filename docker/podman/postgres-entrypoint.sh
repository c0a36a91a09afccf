#!/bin/sh
# The entry point of localhost/proofline-postgres (docker/podman/postgres.Containerfile): PostgreSQL from Debian's
# package, started as the official image starts it, so that compose files and Testcontainers' PostgreSQLContainer
# (as a compatible substitute for "postgres") use it unchanged:
#   POSTGRES_USER (default postgres), POSTGRES_PASSWORD (required unless POSTGRES_HOST_AUTH_METHOD=trust),
#   POSTGRES_DB (default: the user), PGDATA (default /var/lib/postgresql/data), POSTGRES_INITDB_ARGS,
#   POSTGRES_HOST_AUTH_METHOD (default scram-sha-256).
# An empty PGDATA is initialised, then a server that listens on no TCP port creates the database and stops (as the
# official image does; its "ready to accept connections" is the first of the two that Testcontainers waits for), and
# the real server is exec'd as PID 1 with the arguments ("postgres -c fsync=off", or none).
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
: "${POSTGRES_HOST_AUTH_METHOD:=scram-sha-256}"
export PGDATA
if [ "${1:-postgres}" != postgres ] && [ "${1#-}" = "${1:-}" ]; then
  exec "$@"                      # another command (psql, pg_isready, sh)
fi
[ "${1:-}" = postgres ] && shift
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$POSTGRES_HOST_AUTH_METHOD" != trust ]; then
    echo "proofline-postgres: set POSTGRES_PASSWORD (or POSTGRES_HOST_AUTH_METHOD=trust), as with the official image" >&2
    exit 1
  fi
  mkdir -p "$PGDATA" && chmod 700 "$PGDATA"
  pwfile="$(mktemp)"
  printf '%s\n' "${POSTGRES_PASSWORD:-}" > "$pwfile"
  # shellcheck disable=SC2086
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host="$POSTGRES_HOST_AUTH_METHOD" ${POSTGRES_INITDB_ARGS:-} >/dev/null
  rm -f "$pwfile"
  printf "\nlisten_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
  printf 'host all all all %s\n' "$POSTGRES_HOST_AUTH_METHOD" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
      -c "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\""
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo "proofline-postgres: init process complete; ready for start up"
fi
exec postgres "$@"
