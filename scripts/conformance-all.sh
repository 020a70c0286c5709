#!/usr/bin/env bash
# Every conformance run CI keeps (`npm run conformance:all`): the 0.1.16 suite (active and
# pending) on the default registrar, then the 0.2.0-alpha.12 prerelease with the 2025-11-25
# requirements on both registrars and with the 2026-07-28 requirements on the 2026-07-28
# registrar. The suite exits non-zero when a scored scenario fails; unscored ones (the tasks
# extension, pending scenarios) are printed but do not fail the run. Builds once.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

npm run build --silent
export CONFORMANCE_SKIP_BUILD=1

bash scripts/conformance.sh
CONFORMANCE_VERSION=0.2.0-alpha.12 bash scripts/conformance.sh --requirements 2025-11-25
MCP_PROTOCOL=2026-07-28 CONFORMANCE_VERSION=0.2.0-alpha.12 bash scripts/conformance.sh --requirements 2025-11-25
MCP_PROTOCOL=2026-07-28 CONFORMANCE_VERSION=0.2.0-alpha.12 bash scripts/conformance.sh --requirements 2026-07-28

echo
echo "› every conformance run passed in $((SECONDS - started)) s"
