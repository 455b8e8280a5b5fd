#!/bin/sh
# Runs the tests under AddressSanitizer and LeakSanitizer: `scripts/sanitizers/asan-test.sh [swift test
# arguments]`. A separate build directory (.build-asan), so the usual build stays. ShipquoteTests
# run the `shipquote` built there, so each child process is checked too (leaks make it exit 1).
# lsan.supp names what is reported but is not this project's leak.
set -eu
cd "$(dirname "$0")/../.."
case "$PWD" in
  *[[:space:]:]*) echo "asan-test.sh: LSAN_OPTIONS cannot name a path with a space or a colon: $PWD" >&2; exit 2 ;;
esac
SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
SCRATCH=.build-asan
"$SWIFT" build --build-tests --sanitize=address --scratch-path "$SCRATCH"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/scripts/sanitizers/lsan.supp print_suppressions=0}"
exec python3 scripts/run-tests.py --limit-minutes 60 -- "$SWIFT" test --skip-build --sanitize=address --scratch-path "$SCRATCH" "$@"
