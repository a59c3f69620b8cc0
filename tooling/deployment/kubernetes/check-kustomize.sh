#!/usr/bin/env bash
# kustomize itself (built into kubectl) builds each overlay of deploy/kubernetes, and the objects it
# prints are exactly those of deploy/kubernetes/rendered/<overlay>.yaml, which the unit tests
# validate against the Kubernetes API schemas (tooling/deployment/kubernetes/manifests.test.ts).
set -euo pipefail
cd "$(dirname "$0")/../../.."
kubectl version --client 2>/dev/null | grep -E '^(Client|Kustomize) Version' || true
for overlay in deploy/kubernetes/overlays/*/; do
  name=$(basename "$overlay")
  # (kustomize 5 warns, on stderr, that `bases` is deprecated: kept for kubectl 1.20's kustomize.)
  kubectl kustomize "$overlay" 2>/dev/null | node --import tsx tooling/deployment/kubernetes/compare-kustomize.ts "$name"
done
