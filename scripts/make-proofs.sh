#!/usr/bin/env bash
# Regenerates proofs/: one certificate per pair in kernels/pairs whose expected verdict is
# "equivalent". Run from anywhere; paths inside certificates are relative to the certificate
# (../kernels/...), so proofs/ re-checks from any working directory.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p kcert -p kcert-checker
rm -f proofs/*.kcert
for pair in kernels/pairs/*.pair.toml; do
    expect="${pair%.toml}.expect.toml"
    grep -q '^verdict *= *"equivalent"' "$expect" || continue
    name="$(basename "${pair%.pair.toml}")"
    ./target/release/kcert prove "$pair" -o "proofs/$name.kcert"
done
