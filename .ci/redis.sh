#!/usr/bin/env bash
# Installs Debian's redis-server when it is missing: the @toolshield/redis suites start their
# own throwaway servers from it (and skip, saying so, without it).
set -euo pipefail
if ! command -v redis-server >/dev/null 2>&1; then
  echo "::group::apt-get install redis-server"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  ${sudo_cmd} apt-get update -qq
  ${sudo_cmd} apt-get install -y -qq redis-server
  echo "::endgroup::"
fi
redis-server --version
