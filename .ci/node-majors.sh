#!/usr/bin/env bash
# The project suites on the other Node majors that engines.node promises (22 and 26), each
# fetched from the npm registry. Called by .ci/run after `npm test` and the registry smoke
# (the services of .ci/services.sh still up); runs alone too, from the repository root.
#
# The two majors run side by side, one lane each, every project's full suite in each lane.
# Much of a lane's time is spent waiting (servers starting, real sockets, child processes),
# so two lanes finish in far less than twice one. The two projects that run real servers and
# hold wall-clock bounds (the redis suite: a breaker followed within 100 ms; the sample
# agent: Chromium, PostgreSQL, Prometheus, three instances on Redis) share one lock, so no
# two of them ever run at once, on one major or both: each runs beside the other lane's
# package suites only, as it runs beside other tasks in `npm test`. The Node 22 lane
# starts with the packages and the Node 26 lane with those two, so they rarely wait.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

export CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false FORCE_COLOR=0

packages=(packages/core packages/nest packages/chaos packages/ai-sdk packages/openai-agents packages/langchain packages/mastra packages/mcp)
real_servers=(packages/redis apps/sample-agent)

work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT
lock="${work}/real-servers.lock"

# Fetches Node `major` into work/node<major> and prints its binary's path.
fetch_node() {
  local prefix="${work}/node$1"
  mkdir -p "${prefix}"
  echo '{"private":true}' > "${prefix}/package.json"
  npm install --prefix "${prefix}" --no-save --no-package-lock --no-audit --no-fund "node@$1" >/dev/null
  echo "${prefix}/node_modules/.bin/node"
}

# Runs one project's whole suite on a Node binary, under the lock when it runs real servers
# (the time printed includes any wait for the lock).
run_project() {
  local node_bin=$1 project=$2 started=$SECONDS
  local jest=("${node_bin}" --experimental-vm-modules ../../node_modules/jest/bin/jest.js --ci)
  if [[ " ${real_servers[*]} " == *" ${project} "* ]]; then
    (cd "${project}" && flock "${lock}" "${jest[@]}")
  else
    (cd "${project}" && "${jest[@]}")
  fi
  echo "${project}: $((SECONDS - started)) s"
}

# One lane: every project on one major, in the given order; stops at the first failure.
lane() {
  local major=$1 node_bin
  shift
  node_bin=$(fetch_node "${major}")
  echo "using $("${node_bin}" --version)"
  for project in "$@"; do run_project "${node_bin}" "${project}"; done
}

started=$SECONDS
echo "::group::project tests on Node 22 and 26 (side by side; lines prefixed with the major)"
(lane 22 "${packages[@]}" "${real_servers[@]}" 2>&1 | sed -u 's/^/[node 22] /' | tee "${work}/22.log") &
lane_22=$!
(lane 26 "${real_servers[@]}" "${packages[@]}" 2>&1 | sed -u 's/^/[node 26] /' | tee "${work}/26.log") &
lane_26=$!
failed=()
wait "${lane_22}" || failed+=(22)
wait "${lane_26}" || failed+=(26)
echo "::endgroup::"
if ((${#failed[@]} > 0)); then
  # The lanes' output interleaves and CI logs are often read from the end: repeat what failed.
  for major in "${failed[@]}"; do
    echo "::group::what failed on Node ${major}"
    grep -E '^\[node [0-9]+\] +FAIL ' "${work}/${major}.log" || true
    grep -E -m 1 -A 50 '^\[node [0-9]+\] +● ' "${work}/${major}.log" || true
    tail -n 10 "${work}/${major}.log"
    echo "::endgroup::"
  done
  echo "project tests failed on Node ${failed[*]} (after $((SECONDS - started)) s)"
  exit 1
fi
echo "project tests on Node 22 and 26: $((SECONDS - started)) s"
