#!/usr/bin/env bash
# The test command of the README: the whole workspace test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
