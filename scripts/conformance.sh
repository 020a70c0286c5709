#!/usr/bin/env bash
# Runs the official MCP conformance suite against examples/conformance-server over
# Streamable HTTP: builds, starts the example on a free port, runs the suite, prints the
# summary, stops the server, and exits non-zero when a check fails.
#
#   npm run conformance                                   # 0.1.16: active suite, then pending
#   npm run conformance -- --suite all                    # any other arguments of `conformance server`
#   CONFORMANCE_VERSION=0.2.0-alpha.12 npm run conformance -- --requirements 2025-11-25
#   MCP_PROTOCOL=2026-07-28 …                            # the server on the 2026-07-28 registrar
#   CONFORMANCE_SKIP_BUILD=1 …                           # reuse the last build
#
# The suite needs Node 22 while the project runs on Node 20: unless `node` is already 22 or
# newer, Node 22 is installed from the npm registry (the `node` package) into .tmp/node22 and
# used for the suite only. The server itself runs on the project's own `node`.
set -euo pipefail

cd "$(dirname "$0")/.."
started=$SECONDS
version="${CONFORMANCE_VERSION:-0.1.16}"
logs=".tmp/conformance"
mkdir -p "$logs"

if [ "${CONFORMANCE_SKIP_BUILD:-}" != 1 ]; then
  echo "› npm run build"
  npm run build --silent
fi

# --- Node 22 for the suite -------------------------------------------------------------
if [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 22 ]; then
  suite_node_dir="$(dirname "$(command -v node)")"
else
  suite_node_dir="$PWD/.tmp/node22/node_modules/node/bin"
  if ! "$suite_node_dir/node" --version 2>/dev/null | grep -q '^v22\.'; then
    echo "› installing Node 22 (npm package \`node@22\`) into .tmp/node22"
    npm install --prefix .tmp/node22 --no-save --no-audit --no-fund --loglevel=error node@22 >/dev/null
  fi
fi
echo "› suite runs on Node $("$suite_node_dir/node" --version), server on Node $(node --version)"

# --- the server -------------------------------------------------------------------------
port="$(node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')"
url="http://127.0.0.1:$port/mcp"
PORT="$port" node .build/examples/conformance-server/main.js 2>"$logs/server.log" &
server_pid=$!
stop_server() {
  if kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
trap stop_server EXIT

listening=0
for _ in $(seq 1 100); do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "the conformance server exited on start-up:" >&2
    cat "$logs/server.log" >&2
    exit 1
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    listening=1
    break
  fi
  sleep 0.1
done
if [ "$listening" -ne 1 ]; then
  echo "the conformance server did not listen on port $port within 10 s:" >&2
  cat "$logs/server.log" >&2
  exit 1
fi
echo "› server listening on $url (pid $server_pid; log: $logs/server.log)"

# --- the suite --------------------------------------------------------------------------
run_suite() {
  local name="$1"
  shift
  local log="$logs/$name.log"
  echo
  echo "› npx @modelcontextprotocol/conformance@$version server --url $url $*"
  local status=0
  PATH="$suite_node_dir:$PATH" npx --yes "@modelcontextprotocol/conformance@$version" server --url "$url" "$@" \
    >"$log" 2>&1 || status=$?
  if grep -q '=== SUMMARY ===' "$log"; then
    sed -n '/=== SUMMARY ===/,$p' "$log"
  elif grep -q '^Test Results:' "$log"; then
    sed -n '/^Test Results:/,/^Passed:/p' "$log" # a single --scenario
  else
    tail -n 20 "$log"
  fi
  if [ "$status" -ne 0 ]; then
    echo "✗ $name: exit code $status; failed checks (full output: $log):"
    grep -E 'FAILURE|Error:' "$log" | sed 's/\x1b\[[0-9;]*m//g' | head -n 40 || true
  fi
  return "$status"
}

failed=0
if [ "$#" -gt 0 ]; then
  run_suite custom "$@" || failed=1
else
  run_suite active --suite active || failed=1
  run_suite pending --suite pending || failed=1
fi

echo
echo "› conformance@$version: $([ "$failed" -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
exit "$failed"
