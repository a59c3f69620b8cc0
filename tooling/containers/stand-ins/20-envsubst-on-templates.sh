#!/bin/sh
# The nginx image's template contract: each /etc/nginx/templates/**/*.template becomes
# /etc/nginx/conf.d/** without the suffix, with only the variables that are set substituted
# (so nginx's own $variables survive).
set -eu
template_dir="${NGINX_ENVSUBST_TEMPLATE_DIR:-/etc/nginx/templates}"
suffix="${NGINX_ENVSUBST_TEMPLATE_SUFFIX:-.template}"
output_dir="${NGINX_ENVSUBST_OUTPUT_DIR:-/etc/nginx/conf.d}"
[ -d "$template_dir" ] || exit 0
if [ ! -w "$output_dir" ]; then
  echo "$0: ERROR: $output_dir is not writable" >&2
  exit 0
fi
defined_envs=$(printf '${%s} ' $(env | cut -d= -f1))
find "$template_dir" -follow -type f -name "*$suffix" -print | while read -r template; do
  relative="${template#"$template_dir"/}"
  output="$output_dir/${relative%"$suffix"}"
  mkdir -p "$(dirname "$output")"
  echo "$0: rendering $template to $output"
  envsubst "$defined_envs" < "$template" > "$output"
done
