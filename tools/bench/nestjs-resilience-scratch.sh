#!/bin/sh
# Installs nestjs-resilience for the benchmark's optional row, OUTSIDE the repo.
# It declares peers Nest 8-10 / reflect-metadata 0.1, so it is installed with
# --legacy-peer-deps, and its @nestjs, rxjs and reflect-metadata are replaced by symlinks to
# this workspace's copies: it then runs on the same Nest 12 instance as the other rows.
set -eu
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DIR="${NESTJS_RESILIENCE_DIR:-${TMPDIR:-/tmp}/toolshield-bench-nestjs-resilience}"
VERSION="${NESTJS_RESILIENCE_VERSION:-2.1.3}"
mkdir -p "$DIR"
cd "$DIR"
[ -f package.json ] || printf '{ "name": "toolshield-bench-nestjs-resilience", "private": true }\n' > package.json
npm install --legacy-peer-deps --no-audit --no-fund "nestjs-resilience@$VERSION"
rm -rf node_modules/@nestjs node_modules/rxjs node_modules/reflect-metadata
ln -s "$ROOT/node_modules/@nestjs" node_modules/@nestjs
ln -s "$ROOT/node_modules/rxjs" node_modules/rxjs
ln -s "$ROOT/node_modules/reflect-metadata" node_modules/reflect-metadata
echo "nestjs-resilience $VERSION installed in $DIR"
