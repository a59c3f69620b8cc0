#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the API's tests and benchmark: sourced by tooling/verify.sh
# (and usable by hand: `source tooling/postgres/throwaway-cluster.sh && start_throwaway_postgres`).
# Installs Debian's postgresql when missing, runs initdb as the `postgres` user in a temp folder,
# listens on loopback only on a free port, and exports TEST_DATABASE_URL. stop_throwaway_postgres
# stops it and deletes the folder; the caller traps it so that happens on failure too.

pg_bin_dir() {
  local initdb_path
  initdb_path=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  [ -n "$initdb_path" ] && dirname "$initdb_path"
}

start_throwaway_postgres() {
  if [ -z "$(pg_bin_dir)" ]; then
    echo "Installing PostgreSQL (Debian)"
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  fi
  local bin; bin=$(pg_bin_dir)
  THROWAWAY_PG_DIR=$(mktemp -d /tmp/special-gift-pg.XXXXXX)
  chmod 755 "$THROWAWAY_PG_DIR"
  local port
  port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  # initdb and postgres refuse to run as root: the cluster belongs to the `postgres` user.
  local as_postgres=()
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    chown postgres "$THROWAWAY_PG_DIR"
    as_postgres=(runuser -u postgres --)
  fi
  "${as_postgres[@]}" "$bin/initdb" -D "$THROWAWAY_PG_DIR/data" -U postgres --auth=trust --no-sync >/dev/null
  "${as_postgres[@]}" "$bin/pg_ctl" -D "$THROWAWAY_PG_DIR/data" -l "$THROWAWAY_PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $THROWAWAY_PG_DIR -c max_connections=200 -c fsync=on" start >/dev/null
  THROWAWAY_PG_BIN="$bin"
  THROWAWAY_PG_AS=("${as_postgres[@]}")
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (throwaway, $THROWAWAY_PG_DIR)"
}

stop_throwaway_postgres() {
  [ -n "${THROWAWAY_PG_DIR:-}" ] || return 0
  "${THROWAWAY_PG_AS[@]}" "$THROWAWAY_PG_BIN/pg_ctl" -D "$THROWAWAY_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$THROWAWAY_PG_DIR"
  THROWAWAY_PG_DIR=""
}
