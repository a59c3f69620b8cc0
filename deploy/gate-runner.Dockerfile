# The rollouts' gate runner (docs/rollouts.md, "The gate runner"), built from the repo root:
#   docker build -f deploy/gate-runner.Dockerfile .
# Debian's Chromium, headless, and the runner's bundle, run by the unprivileged `node` user under
# tini, which passes SIGTERM to the runner: it stops its poll and exits.
FROM node:24-bookworm-slim AS build
WORKDIR /repo
COPY package.json package-lock.json .npmrc ./
# >>> generated from tooling/remotes/remotes.json by `npm run generate`, do not edit: workspace manifests
COPY shared/package.json shared/
COPY host/package.json host/
COPY remote-intro/package.json remote-intro/
COPY remote-signup/package.json remote-signup/
COPY remote-thankyou/package.json remote-thankyou/
COPY api/package.json api/
COPY release-cli/package.json release-cli/
COPY gate-runner/package.json gate-runner/
# <<< end of generated: workspace manifests
# An optional extra CA bundle as a build secret, and npm's cache: see static-app.Dockerfile.
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm install --no-audit --no-fund -w gate-runner
COPY tsconfig.json ./
COPY shared shared
COPY gate-runner gate-runner
# What the runner shares: Chromium's flags and stopping with its parent (with the suite and
# `npm run up`), the files' SRI (with the release tool, which records it at publish).
COPY tooling/chromium.ts tooling/
COPY tooling/process tooling/process
COPY release-cli/src/sri.ts release-cli/src/
RUN npm run build -w gate-runner

FROM node:24-bookworm-slim
# Chromium from Debian's archive (the build Debian's security team patches, as on the machines
# that run the suite), a font for its pages, socat for GATE_LOCAL_FORWARDS (compose only), and
# tini as PID 1: it reaps the processes Chromium leaves behind, which Node does not.
RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium fonts-liberation socat tini \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*
WORKDIR /repo
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
# >>> generated from tooling/remotes/remotes.json by `npm run generate`, do not edit: workspace manifests (runtime)
COPY shared/package.json shared/
COPY host/package.json host/
COPY remote-intro/package.json remote-intro/
COPY remote-signup/package.json remote-signup/
COPY remote-thankyou/package.json remote-thankyou/
COPY api/package.json api/
COPY release-cli/package.json release-cli/
COPY gate-runner/package.json gate-runner/
# <<< end of generated: workspace manifests (runtime)
# Only its runtime dependencies (puppeteer-core, axe-core's browser build): the rest is bundled.
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm install --no-audit --no-fund --omit=dev -w gate-runner
COPY --from=build /repo/gate-runner/dist gate-runner/dist
COPY deploy/gate-runner-entrypoint.sh /usr/local/bin/gate-runner-entrypoint.sh
ENV CHROMIUM_PATH=/usr/bin/chromium GATE_HEALTH_PORT=3020
USER node
# -s: still the reaper when a runtime's own init runs first (compose's `init: true`).
ENTRYPOINT ["/usr/bin/tini", "-s", "--", "gate-runner-entrypoint.sh"]
CMD ["node", "gate-runner/dist/gate-runner.js"]
