# Sourced by .ci/run: the outside services the sample agent's tests use, started for the run
# and stopped on exit. A real PostgreSQL server (Debian's `postgresql`, installed when missing)
# on 127.0.0.1, whose URL goes to the tests as TEST_DATABASE_URL, Debian's `chromium` for
# the dashboard's browser test (CHROMIUM_PATH), and Debian's `prometheus`, which the metrics
# test starts itself (its own port on 127.0.0.1, temp storage) to scrape the service.

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  ${sudo} apt-get update -qq
  DEBIAN_FRONTEND=noninteractive ${sudo} apt-get install -y -qq "$@" >/dev/null
}

ensure_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then apt_install postgresql; fi
  local bin
  bin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
  PG_DIR=$(mktemp -d)
  local port=${PG_PORT:-55432}
  local as=""
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "${PG_DIR}"
    as="runuser -u postgres --"
  fi
  ${as} "${bin}/initdb" -D "${PG_DIR}/data" -U postgres --auth=trust >/dev/null
  ${as} "${bin}/pg_ctl" -D "${PG_DIR}/data" -l "${PG_DIR}/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p ${port} -k ${PG_DIR}" start >/dev/null
  PG_STOP="${as} ${bin}/pg_ctl -D ${PG_DIR}/data -m fast -w stop"
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:${port}/postgres"
  echo "PostgreSQL $("${bin}/postgres" --version | awk '{print $3}') on 127.0.0.1:${port}"
}

stop_postgres() {
  if [ -n "${PG_STOP:-}" ]; then ${PG_STOP} >/dev/null 2>&1 || true; fi
  if [ -n "${PG_DIR:-}" ]; then rm -rf "${PG_DIR}"; fi
}

ensure_chromium() {
  if ! command -v chromium >/dev/null 2>&1; then apt_install chromium; fi
  export CHROMIUM_PATH
  CHROMIUM_PATH=$(command -v chromium)
  echo "Chromium at ${CHROMIUM_PATH}"
}

ensure_prometheus() {
  if ! command -v prometheus >/dev/null 2>&1; then apt_install prometheus; fi
  echo "Prometheus at $(command -v prometheus)"
}

echo "::group::services for the sample agent's tests"
ensure_postgres
ensure_chromium
ensure_prometheus
trap stop_postgres EXIT
echo "::endgroup::"
