#!/usr/bin/env bash
# The development overlay played for real with `podman kube play` (docs/kubernetes.md, "What the
# play proves"), on the images tooling/containers/stack.sh built, then the sign-up journey in
# Chromium against it (e2e/kube/). Part of `npm run verify`, after the compose stack.
#   SG_KUBE_PORT_BASE  the host's published port (default 6350), the remotes' next (as in remotes.json)
#   SG_KUBE_NETWORK    the Podman network the pods join (default sg-kube)
#   SG_KUBE_IMAGE_TAG  the tag of the special-gift/* images to play (default latest, stack.sh's)
# The journey also publishes and releases a build of remote-signup/dist (built beforehand) into the
# object store's stand-in with the release tool, from this machine as a team's CI would (through the
# published ports, as through `kubectl port-forward`).
# Podman ignores Services: each Deployment is played on its own, its pods given the names its
# Services have on a cluster (short and <name>.<namespace>.svc.cluster.local) as network aliases,
# so the same names resolve. Every pod, volume, secret and the network are removed on exit.
set -euo pipefail
cd "$(dirname "$0")/../../.."
export PATH="$PATH:/usr/sbin"
export CONTAINERS_CONF="$PWD/tooling/containers/containers.conf"
base=${SG_KUBE_PORT_BASE:-6350}
network=${SG_KUBE_NETWORK:-sg-kube}
work=$(mktemp -d)
started=$SECONDS

cleanup() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -f "$work/order" ]; then
    # What each played container said, to see why (kube play names them <deployment>-pod-<n>-<container>).
    while read -r name; do
      for container in $(podman ps -a --filter "name=^$name-pod-[0-9]+-" --format '{{.Names}}'); do
        printf '\n--- %s (%s)\n' "$container" "$(podman inspect --format '{{.State.Status}} exit {{.State.ExitCode}}' "$container")"
        podman logs --tail 15 "$container" 2>&1
      done
    done < "$work/order"
  fi
  printf '\n\033[1m== Removing the played pods, volumes, secrets and network\033[0m\n'
  if [ -f "$work/order" ]; then
    while read -r name; do
      podman kube down "$work/$name.yaml" >/dev/null 2>&1 || true
    done < "$work/order"
    # The claims' volumes (kube play makes one per PersistentVolumeClaim: the database's, the bucket's).
    while read -r name; do
      for claim in $(node -e 'for (const d of require("yaml").parseAllDocuments(require("fs").readFileSync(process.argv[1], "utf8"))) { const o = d.toJS(); if (o.kind === "PersistentVolumeClaim") console.log(o.metadata.name) }' "$work/$name.yaml"); do
        podman volume rm -f "$claim" >/dev/null 2>&1 || true
      done
    done < "$work/order"
    for secret in "$work"/*.json; do podman secret rm "$(basename "$secret" .json)" >/dev/null 2>&1 || true; done
  fi
  podman network rm -f "$network" >/dev/null 2>&1 || true
  podman pod ps --filter "network=$network" --format '{{.Name}}' 2>/dev/null | sed 's/^/left over: /'
  rm -rf "$work"
  echo "kube play: $((SECONDS - started)) s"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The stand-in's postgres user (the official image's is 999; docs/containers.md).
SG_PLAY_POSTGRES_UID=$(podman run --rm --entrypoint id docker.io/library/postgres:16-bookworm -u postgres)
export SG_PLAY_POSTGRES_UID
node --import tsx tooling/deployment/kubernetes/play-files.ts "$work" "$base"
podman network create "$network" >/dev/null
for secret in "$work"/*.json; do podman secret create "$(basename "$secret" .json)" "$secret" >/dev/null; done
configmaps=()
for map in "$work"/*.configmap.yaml; do configmaps+=(--configmap "$map"); done
while read -r name; do
  aliases=$(sed 's/^/alias=/' "$work/$name.aliases" | paste -sd, -)
  echo "playing $name (aliases: $(paste -sd' ' "$work/$name.aliases"))"
  # A Deployment no Service selects (the gate runner) gets no alias.
  podman kube play --network "$network${aliases:+:$aliases}" "${configmaps[@]}" "$work/$name.yaml" >/dev/null
done < "$work/order"

# The published ports (SG_HOST_PORT: the stack tests' helpers, e2e/stack/stack.ts, reach the host
# there; the remotes', the object store's).
# shellcheck source=/dev/null
. "$work/ports.env"
npx playwright test --config e2e/kube/playwright.config.ts
