#!/usr/bin/env bash
# The README's test command (`npm run verify`) and what CI runs: installs what is missing
# (Debian packages, npm packages), then lint, deployment-config validation, type-check, unit
# tests, production build (plus the monolith baseline the bytes budget is measured against), the
# browser end-to-end suite, which serves the builds with nginx and the images' config on separate
# origins (in Chromium, and its cross-engine part in Firefox ESR and WebKitGTK too), then the six images built (the S3 stand-in among them) and the compose stack run and
# tested with Podman, and the Kubernetes development overlay played on those images (podman kube play).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/sbin"

# Each step's time, printed at the end (pass or fail), so the next person sees where the minutes go.
step_times=(); step_name=""; step_started=$SECONDS
end_step() {
  [ -n "$step_name" ] && step_times+=("$(printf '%6d s  %s' $((SECONDS - step_started)) "$step_name")")
  step_name=""
}
step() { end_step; step_name="$*"; step_started=$SECONDS; printf '\n\033[1m== %s\033[0m\n' "$*"; }
print_step_times() {
  end_step
  printf '\n== Time per step (%d s in all)\n' "$SECONDS"
  printf '%s\n' "${step_times[@]}"
}
# The browser, stack and kube tests that failed (e2e/support/slowest-reporter.ts), printed last:
# CI keeps only the tail of the output, and a failed stack run prints its containers' logs after
# Playwright's own report.
SG_FAILURE_SUMMARY=$(mktemp)
export SG_FAILURE_SUMMARY
print_failures() {
  if [ -s "$SG_FAILURE_SUMMARY" ]; then
    printf '\n== The tests that failed, with the head of each error (their whole report is above)\n'
    cat "$SG_FAILURE_SUMMARY"
  fi
  rm -f "$SG_FAILURE_SUMMARY"
}

# Chromium for the browser tests, nginx to serve the builds exactly as the images do,
# docker-compose to validate docker-compose.yml (there is no Docker engine to run it).
missing=()
command -v "${CHROMIUM_PATH:-/usr/bin/chromium}" >/dev/null 2>&1 || missing+=(chromium)
# The other engines the users have (docs/browsers.md): Firefox ESR (Gecko, driven over WebDriver
# BiDi) and WebKitGTK's MiniBrowser through WebKitWebDriver, on a virtual display (xvfb-run).
command -v "${FIREFOX_PATH:-/usr/bin/firefox-esr}" >/dev/null 2>&1 || missing+=(firefox-esr)
command -v WebKitWebDriver >/dev/null 2>&1 || missing+=(webkit2gtk-driver)
command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb)
command -v xauth >/dev/null 2>&1 || missing+=(xauth) # xvfb-run needs it; xvfb does not depend on it
command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
# njs, with which the host's nginx mints page tokens (deploy/nginx/njs/; the nginx tests load it).
[ -e /usr/lib/nginx/modules/ngx_http_js_module.so ] || missing+=(libnginx-mod-http-js)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
# kubectl for its kustomize (Debian's kubernetes-client if none is installed), catatonit for the
# pods' infra container that `podman kube play` starts (tooling/deployment/kubernetes/).
command -v kubectl >/dev/null 2>&1 || missing+=(kubernetes-client)
command -v catatonit >/dev/null 2>&1 || missing+=(catatonit)
# Podman (rootful, runc, netavark with aardvark-dns for names, iptables for its bridges),
# podman-compose and mmdebstrap build and run the images and the compose stack.
for tool in podman podman-compose mmdebstrap runc iptables; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ -x /usr/lib/podman/netavark ] || missing+=(netavark)
[ -x /usr/lib/podman/aardvark-dns ] || missing+=(aardvark-dns)
if [ ${#missing[@]} -gt 0 ]; then
  step "Installing ${missing[*]} (Debian)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Everything from here runs on the Node the images run (fetched once from npm, reused), whatever
# Node started this script.
step "Node (the images' release)"
source tooling/node/use-node.sh
echo "node $(node --version) at $(command -v node), npm $(npm --version)"

# `npm install` against the committed lock, not `npm ci`: the registry reachable here serves only
# the Linux builds of packages' optional platform binaries (@swc/core-*, @rspack/binding-*), so
# the lock cannot list the others and `npm ci` rejects it as out of sync. Versions stay pinned.
if [ "${CI:-}" = "true" ] || [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm install (from package-lock.json)"
  npm install --no-audit --no-fund
fi

# A throwaway PostgreSQL cluster on loopback for the API's tests (TEST_DATABASE_URL); stopped and
# deleted on any exit, failure included.
source tooling/postgres/throwaway-cluster.sh
trap 'stop_throwaway_postgres; print_step_times; print_failures' EXIT
step "PostgreSQL for the API tests"; start_throwaway_postgres

# Lint and the type-check at once: each is mostly one core's work. The type-check's output is
# printed after the lint's, so the two never interleave.
step "Lint and type-check (at once)"
typecheck_log=$(mktemp)
npm run typecheck >"$typecheck_log" 2>&1 &
typecheck_pid=$!
lint_status=0; npm run lint || lint_status=$?
typecheck_status=0; wait "$typecheck_pid" || typecheck_status=$?
printf '\n-- type-check --\n'; cat "$typecheck_log"; rm -f "$typecheck_log"
[ "$lint_status" -eq 0 ] || { echo "lint failed (exit $lint_status)"; exit "$lint_status"; }
[ "$typecheck_status" -eq 0 ] || { echo "the type-check failed (exit $typecheck_status)"; exit "$typecheck_status"; }
step "Deployment config"
docker-compose -f docker-compose.yml config -q && echo "docker-compose.yml is valid"
bash tooling/deployment/kubernetes/check-kustomize.sh
# The builds first: the release tool's tests publish remote-signup's build, and would build it
# themselves otherwise. The monolith baseline builds beside the workspaces (two webpack lanes).
step "Build"
baseline_log=$(mktemp)
npm run build:baseline >"$baseline_log" 2>&1 &
baseline_pid=$!
npm run build
wait "$baseline_pid" || { cat "$baseline_log"; echo "the monolith baseline's build failed"; exit 1; }
rm -f "$baseline_log"
# Two workers, not Jest's default of one fewer than the cores: the slowest files mostly wait on
# processes, sockets and timers (graceful shutdown, the data-directory lock, keep-alive).
step "Unit tests";  npm run test:unit -- --maxWorkers=2
step "Browser end-to-end suite"; npm run test:e2e
step "Images and the compose stack (Podman)"; bash tooling/containers/stack.sh
step "The Kubernetes development overlay played (podman kube play)"; bash tooling/deployment/kubernetes/play.sh
