#!/usr/bin/env bash
# Regenerate the real-tool fixtures of tests/jurycal/importers/fixtures/real/ by running the tools.
# Not run by CI. Needs: a Python with inspect-ai and deepeval (TOOLS_PYTHON), and promptfoo
# (PROMPTFOO, e.g. node_modules/.bin/promptfoo after `npm install promptfoo`). Everything runs
# offline: mockllm models (Inspect), local file:// python providers (promptfoo), a stub judge
# (DeepEval). The versions these fixtures were made with are in docs/importers.md.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$(cd "$HERE/../.." && pwd)/tests/jurycal/importers/fixtures/real"
TOOLS_PYTHON="${TOOLS_PYTHON:-python}"
PROMPTFOO="${PROMPTFOO:-promptfoo}"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
mkdir -p "$OUT"

"$TOOLS_PYTHON" "$HERE/inspect_runs.py" "$OUT"
"$TOOLS_PYTHON" "$HERE/inspect_score_runs.py" "$OUT"

(cd "$SCRATCH" && DEEPEVAL_TELEMETRY_OPT_OUT=YES "$TOOLS_PYTHON" "$HERE/deepeval_runs.py" "$OUT")

cp "$HERE"/promptfoo/* "$SCRATCH/"
(cd "$SCRATCH" && PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 \
    PROMPTFOO_PYTHON="$TOOLS_PYTHON" PROMPTFOO_CONFIG_DIR="$SCRATCH/.promptfoo" \
    "$PROMPTFOO" eval -c promptfooconfig.yaml -o "$OUT/promptfoo_two_providers.json" \
    --no-cache --no-progress-bar >/dev/null || true)  # exits 100 when some tests fail
test -s "$OUT/promptfoo_two_providers.json"

"$TOOLS_PYTHON" -c 'import inspect_ai, deepeval; print("inspect-ai", inspect_ai.__version__, "| deepeval", deepeval.__version__)'
echo "promptfoo $("$PROMPTFOO" --version)"
