#!/usr/bin/env bash
# The images and the compose stack, built and run with a real container engine (Podman), then
# tested through their published ports (e2e/stack/*.spec.ts). Part of `npm run verify`; alone:
# `npm run test:stack` (arguments go to Playwright: `npm run test:stack -- e2e/stack/08-fault-matrix.spec.ts`).
# See docs/containers.md.
#   SG_STACK_PORT_BASE  first published port (default 6300: host, then each remote in remotes.json)
#   SG_BUILD_CA_BUNDLE  CA bundle given to the builds as the secret npm_ca (default: the machine's)
# Every container, network and volume (named or anonymous) of the stack is removed on exit, failure
# and interruption included; images and their layers are kept, so the next run reuses them.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/sbin"
export CONTAINERS_CONF="$PWD/tooling/containers/containers.conf"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
timings=()
child=""
timed() { # label command...: runs it, keeps "label: N s" for the summary
  local label=$1 started=$SECONDS; shift
  # In the background, in its own process group, and waited for: a signal then runs the traps at
  # once (not after the command), and the clean-up stops the command with all its children.
  setsid "$@" &
  child=$!
  local status=0
  wait "$child" || status=$?
  child=""
  timings+=("$label: $((SECONDS - started)) s")
  # Its own status: a failed image build must stop the run, not leave the last image in use.
  return "$status"
}

export SG_STACK_PROJECT=${SG_STACK_PROJECT:-sg-stack}
base=${SG_STACK_PORT_BASE:-6300}
export SG_HOST_PORT=$base
# Each remote's port: the base plus its offset in remotes.json (localPort - 3000).
while read -r name port; do
  export "SG_${name^^}_PORT=$((base + port - 3000))"
done < <(node -e 'for (const r of require("./tooling/remotes/remotes.json")) console.log(r.name, r.localPort)')
# The S3 stand-in (the build store), published for the machine's own publishing.
export SG_S3_PORT=$((base + 9))
# The tests sign up far more often than one person would.
export SG_SIGN_UP_RATE_PER_MINUTE=600000 SG_SIGN_UPS_PER_MINUTE=600000
POSTGRES_PASSWORD="stack-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
export POSTGRES_PASSWORD
# The teams' token for releases and the report (docs/releases.md): the release test publishes and releases.
SG_OPERATOR_TOKEN="stack-operator-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
export SG_OPERATOR_TOKEN
# The page-token key (docs/telemetry.md, "Signed page views"): one for the host's nginx, which signs
# the tokens, and the API and the state agent, which verify them.
SG_PAGE_TOKEN_KEY="stack-page-token-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
export SG_PAGE_TOKEN_KEY

cleanup() {
  local status=$?
  [ -z "$child" ] || kill -TERM -- "-$child" 2>/dev/null || true
  local filter="label=io.podman.compose.project=$SG_STACK_PROJECT"
  # A failed run keeps what the proxy and the API said, before their containers go.
  # Each container's whole log goes to test-results/stack/logs/; printed are the last lines of the
  # host, its state agent and the API replicas (their errors first), kept short: CI keeps only the
  # tail of the output, where verify prints the failed tests last.
  if [ "$status" -ne 0 ]; then
    step "The last log lines of the host, its state agent and the API replicas (the run failed)"
    local logs=test-results/stack/logs
    mkdir -p "$logs"
    for name in $(podman ps -a --filter "$filter" --format '{{.Names}}'); do
      podman logs "$name" >"$logs/$name.log" 2>&1 || true
    done
    for name in $(podman ps -a --filter "$filter" --format '{{.Names}}' | grep -E '_(host|state-agent|api)_[0-9]+$'); do
      printf -- '-- %s: %s lines in %s; the errors among the last 2000, then the last 8 --\n' \
        "$name" "$(wc -l <"$logs/$name.log")" "$logs/$name.log"
      tail -n 2000 "$logs/$name.log" | grep -iE 'error|fail|refus|" 5[0-9][0-9] |"status":5[0-9][0-9]' | tail -n 10 | cut -c1-300 || true
      tail -n 8 "$logs/$name.log" | cut -c1-300
    done
  fi
  step "Removing the stack's containers, network and volume"
  # (Podman reports that it cannot remove healthcheck timers: there is no systemd here.)
  podman ps -aq --filter "$filter" | xargs -r podman rm -f -v -t 2 >/dev/null 2>&1 || true
  podman volume ls -q --filter "$filter" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman network ls -q --filter "$filter" | xargs -r podman network rm -f >/dev/null 2>&1 || true
  podman ps -a --filter "$filter" --format '{{.Names}}' | sed 's/^/left over: /'
  rm -rf "$secret_dir"
  printf '%s\n' "${timings[@]}"
  exit "$status"
}
secret_dir=$(mktemp -d)
trap cleanup EXIT
trap 'exit 130' INT TERM

step "Base image stand-ins"
timed "base image stand-ins" bash tooling/containers/base-images.sh

# The builds reach the npm registry through the machine's TLS chain: its CA bundle goes in as a
# build secret. The marker line lets the check below find the secret in any layer; it is computed,
# so that no source file (copied into a build stage) holds it.
SECRET_MARKER="npm-ca-secret-$(printf 'special-gift' | sha256sum | cut -c1-32)"
{ cat "${SG_BUILD_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"; echo "# $SECRET_MARKER"; } > "$secret_dir/npm_ca.pem"
build() { # image dockerfile build-args...
  local image=$1 dockerfile=$2; shift 2
  local log="$secret_dir/build.log"
  timed "build $image" podman build --layers --pull=never --secret "id=npm_ca,src=$secret_dir/npm_ca.pem" \
    -f "$dockerfile" "$@" -t "$image" . >"$log" 2>&1 || { cat "$log"; echo "building $image failed" >&2; return 1; }
}
step "Images (each built once; unchanged layers are reused)"
build special-gift/host deploy/static-app.Dockerfile --build-arg APP_DIR=host --build-arg APP_KIND=host
for dir in $(node -p 'require("./tooling/remotes/remotes.json").map((r) => r.dir).join(" ")'); do
  build "special-gift/$dir" deploy/static-app.Dockerfile --build-arg "APP_DIR=$dir" --build-arg APP_KIND=remote
done
build special-gift/api deploy/api.Dockerfile
build special-gift/gate-runner deploy/gate-runner.Dockerfile
build special-gift/s3-stand-in deploy/s3.Dockerfile
printf '%s\n' "${timings[@]:1}"
podman images --format '{{.Repository}}:{{.Tag}}  {{.Size}}' --filter reference='localhost/special-gift/*' --filter reference='docker.io/library/*'

step "The build secret is in no layer"
graph_root=$(podman info --format '{{.Store.GraphRoot}}')
searched=$SECONDS
if grep -rlF "$SECRET_MARKER" "$graph_root"/overlay/*/diff 2>/dev/null; then
  echo "the CA bundle given as a build secret was found in the layers above" >&2
  exit 1
fi
echo "not found in any layer under $graph_root/overlay ($((SECONDS - searched)) s)"

export SG_BUILD_SECRET="$secret_dir/npm_ca.pem" # the roll test builds a new remote image
step "Stack tests (Podman, $SG_STACK_PROJECT on ports $base-$((base + 5)))"
timed "stack tests" npx playwright test --config e2e/stack/playwright.config.ts "$@"
