# The reference sign-up API, built from the repo root:
#   docker build -f deploy/api.Dockerfile .
# The image runs the compiled bundle (api/dist/main.js) with Node as PID 1, so SIGTERM from the
# container runtime reaches the server itself and it shuts down gracefully.
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
    npm install --no-audit --no-fund -w api
COPY tsconfig.json ./
COPY shared shared
COPY api api
# The one helper the API shares with the local serve scripts: stop when the parent process dies;
# and the list of remotes, whose names and routes telemetry accepts.
COPY tooling/process tooling/process
COPY tooling/remotes/remotes.generated.ts tooling/remotes/
RUN npm run build -w api
# The state agent (docs/releases.md, "The state agent"), the host's sidecar: the same image, another
# command (`node dist/state-agent.js`), one self-contained file built with the API's esbuild. Only
# the files it is made of, so a change elsewhere in tooling/ keeps this layer.
COPY tooling/composition/release-state-source.ts tooling/composition/page-token-signer.ts tooling/composition/
COPY tooling/state-agent/agent.ts tooling/state-agent/kept-state.ts tooling/state-agent/settings.ts tooling/state-agent/main.ts \
     tooling/state-agent/
RUN node_modules/.bin/esbuild tooling/state-agent/main.ts --bundle --platform=node --target=node20 --format=cjs \
      --log-level=warning --outfile=api/dist/state-agent.js

FROM node:24-bookworm-slim
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
# An optional extra CA bundle as a build secret, and npm's cache: see static-app.Dockerfile.
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm install --no-audit --no-fund --omit=dev -w api
COPY --from=build /repo/api/dist api/dist
# PGlite (no DATABASE_URL) keeps its data here, locked with flock(1) from util-linux (in the base image).
ENV PORT=3004 HOST=0.0.0.0 API_DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
WORKDIR /repo/api
EXPOSE 3004
# The state agent instead: command ["node", "dist/state-agent.js"] (docker-compose.yml, deploy/kubernetes).
CMD ["node", "dist/main.js"]
