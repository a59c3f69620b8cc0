#!/bin/sh
# The nginx image's entrypoint contract, for the Debian stand-in: when the command is nginx, source
# /docker-entrypoint.d/*.envsh (their exports reach nginx and the later scripts) and run its
# executable *.sh, in name order, then start the command.
set -e
if [ "$1" = "nginx" ] || [ "$1" = "nginx-debug" ]; then
  for script in /docker-entrypoint.d/*; do
    [ -f "$script" ] || continue
    case "$script" in
      *.envsh)
        if [ -x "$script" ]; then echo "$0: sourcing $script"; . "$script"; else echo "$0: ignoring $script, not executable"; fi ;;
      *.sh)
        if [ -x "$script" ]; then echo "$0: running $script"; "$script"; else echo "$0: ignoring $script, not executable"; fi ;;
      *) echo "$0: ignoring $script" ;;
    esac
  done
  echo "$0: configuration complete; ready for start up"
fi
exec "$@"
