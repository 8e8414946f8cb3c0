#!/bin/sh
set -eu
if [ "${1:-}" = redis-server ]; then
  chown redis:redis /data
  exec setpriv --reuid=redis --regid=redis --init-groups "$@" --protected-mode no
fi
exec "$@"
