# One image recipe for every static app (the host and each remote), built from the repo root:
#   docker build -f deploy/static-app.Dockerfile --build-arg APP_DIR=remote-signup --build-arg APP_KIND=remote .
# The same image runs in every environment: config.json and the nginx config are rendered from
# environment variables when the container starts.

FROM node:24-bookworm-slim AS build
WORKDIR /repo
# Manifests first, so the dependency layer is cached until they change.
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
# npm's downloads are cached across builds (not in a layer). NPM_CA is an optional extra CA bundle
# (a TLS-inspecting proxy's), given as a build secret so it never lands in a layer:
#   --secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm install --no-audit --no-fund
COPY tsconfig.json ./
COPY tooling tooling
# The build records each chunk's integrity with the release tool's hash (release-cli/src/sri.ts).
COPY release-cli release-cli
COPY shared shared
ARG APP_DIR
COPY ${APP_DIR} ${APP_DIR}
RUN npm run build -w ${APP_DIR} && find ${APP_DIR}/dist -name '*.map' -delete

FROM nginx:1.27-alpine
ARG APP_DIR
ARG APP_KIND
ENV APP_KIND=${APP_KIND} \
    PORT=8080 \
    STATIC_ROOT=/usr/share/nginx/html
# /srv/builds: a remote's folder of the build store is mounted there (docs/releases.md).
RUN rm -f /etc/nginx/conf.d/default.conf /usr/share/nginx/html/* && mkdir -p /srv/builds
# The main config: the official one plus njs and `env PAGE_TOKEN_KEY` (the host mints page tokens).
COPY deploy/nginx/nginx.conf /etc/nginx/nginx.conf
COPY deploy/nginx/snippets /etc/nginx/snippets
COPY deploy/nginx/njs /etc/nginx/njs
COPY deploy/nginx/${APP_KIND}.conf.template /etc/nginx/templates/default.conf.template
# Executable: the image's entrypoint ignores (with a log line) any .envsh that is not.
COPY --chmod=0755 deploy/nginx/entrypoint/15-runtime-config.envsh /docker-entrypoint.d/15-runtime-config.envsh
COPY --from=build /repo/${APP_DIR}/dist /usr/share/nginx/html
# nginx runs as its own unprivileged user. At start-up it writes config.json into the web root and
# the rendered config into conf.d, then its pid file, cache and temp files.
RUN touch /var/run/nginx.pid \
 && chown -R nginx:nginx /usr/share/nginx/html /etc/nginx/conf.d /var/cache/nginx /var/run/nginx.pid
USER nginx
EXPOSE 8080
