#!/usr/bin/env bash
# The postgres image's environment contract, for the Debian stand-in: POSTGRES_PASSWORD (required),
# POSTGRES_USER (default postgres), POSTGRES_DB (default the user), POSTGRES_INITDB_ARGS; a cluster
# is created in PGDATA on first start; started as root it drops to the postgres user.
set -euo pipefail
if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

if [ "$1" = 'postgres' ]; then
  if [ "$(id -u)" = '0' ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set (the password of the database superuser)}"
    user="${POSTGRES_USER:-postgres}"
    db="${POSTGRES_DB:-$user}"
    mkdir -p "$PGDATA"; chmod 700 "$PGDATA"
    # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of options, as in the image.
    initdb --username="$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") ${POSTGRES_INITDB_ARGS:-} -D "$PGDATA"
    printf "\nlisten_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
    printf '\nhost all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
    if [ "$db" != 'postgres' ]; then
      # A server on the socket only, for the set-up; stopped before the real start.
      pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
      psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres -c "CREATE DATABASE \"$db\""
      pg_ctl -D "$PGDATA" -m fast -w stop
    fi
    echo "PostgreSQL init process complete; ready for start up."
  fi
fi
exec "$@"
