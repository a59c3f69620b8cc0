#!/usr/bin/env bash
# A remote's `npm run build` (run in its folder): the production bundle, then its screen
# prerendered per language beside it (prerender-remote.ts, with styles ignored on the server).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
webpack --mode production
TSX_TSCONFIG_PATH="$here/tsconfig.json" exec node --require "$here/ignore-styles.cjs" --import tsx "$here/prerender-remote.ts"
