#!/bin/sh
# The gate runner image's entrypoint: with GATE_LOCAL_FORWARDS ("3000=host:8080 3001=intro:8080"),
# this container's 127.0.0.1:<port> is forwarded to each service, so its Chromium opens the pages
# at the origins users open them at, when those are this machine's published ports (compose) and
# the page names its remotes there. A cluster's public origins need none. Then the command.
set -eu
bad() {
  echo "gate-runner: GATE_LOCAL_FORWARDS entry \"$1\" is not <port>=<name>:<port>" >&2
  exit 64
}
for forward in ${GATE_LOCAL_FORWARDS:-}; do
  case "$forward" in *=*:*) ;; *) bad "$forward" ;; esac
  port=${forward%%=*}
  target=${forward#*=}
  case "$port" in '' | *[!0-9]*) bad "$forward" ;; esac
  case "${target##*:}" in '' | *[!0-9]*) bad "$forward" ;; esac
  case "${target%:*}" in '' | *[!A-Za-z0-9.-]*) bad "$forward" ;; esac
  socat "TCP-LISTEN:$port,bind=127.0.0.1,fork,reuseaddr" "TCP:$target" &
  # A forward that cannot listen (the port taken) says so now, not as every gate's unreachable host.
  sleep 0.2
  kill -0 "$!" 2>/dev/null || { echo "gate-runner: the forward $forward did not start" >&2; exit 69; }
done
exec "$@"
