#!/usr/bin/env bash
# Back up a folder into a dated, compressed archive and keep the last few.
set -euo pipefail

KEEP=${KEEP:-5}
DEST=${DEST:-/var/backups/site}

usage() {
  echo "usage: $0 SOURCE_DIR" >&2
  exit 2
}

# Remove all but the newest $KEEP archives.
prune() {
  local dir=$1
  ls -1t "$dir"/*.tar.gz 2>/dev/null | tail -n +"$((KEEP + 1))" | while read -r old; do
    rm -f -- "$old"
  done
}

main() {
  [[ $# -eq 1 ]] || usage
  local src=$1
  local stamp
  stamp=$(date +%Y%m%d-%H%M%S)
  mkdir -p "$DEST"
  tar -czf "$DEST/backup-$stamp.tar.gz" -C "$src" .
  prune "$DEST"
  echo "saved $DEST/backup-$stamp.tar.gz"
}

main "$@"
