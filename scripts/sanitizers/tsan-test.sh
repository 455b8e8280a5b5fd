#!/bin/sh
# Runs the tests under ThreadSanitizer: `scripts/sanitizers/tsan-test.sh [swift test arguments]`,
# e.g. `--filter TakeoverTests`. A separate build directory (.build-tsan), so the usual build stays.
#
# Two things TSan cannot see, told to it by a library built here and preloaded: librdkafka's threads
# are C11 threads (c11-threads.c turns them into pthreads, which TSan intercepts; without it the
# Kafka tests crash TSan itself), and Synchronization.Mutex hands a contended lock over in code TSan
# does not see (mutex-handoff.c tells TSan of each hand-off; without it every contended lock is
# reported as a race).
set -eu
cd "$(dirname "$0")/../.."
case "$PWD" in
  *[[:space:]:]*) echo "tsan-test.sh: LD_PRELOAD cannot name a path with a space or a colon: $PWD" >&2; exit 2 ;;
esac
SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
# clang, for its swiftcall attributes: the toolchain's own, else the one on PATH.
CLANG="$(dirname "$(readlink -f "$SWIFT")")/clang"
[ -x "$CLANG" ] || CLANG="$(command -v clang)"
SCRATCH=.build-tsan
mkdir -p "$SCRATCH"
"$CLANG" -shared -fPIC -O1 -Wall -Wextra -Werror -o "$SCRATCH/libtsan-preload.so" \
    scripts/sanitizers/c11-threads.c scripts/sanitizers/mutex-handoff.c -ldl
"$SWIFT" build --build-tests --sanitize=thread --scratch-path "$SCRATCH"
# halt_on_error: the first report fails the run where it happened, not in a summary at the end.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
export LD_PRELOAD="$PWD/$SCRATCH/libtsan-preload.so"
exec python3 scripts/run-tests.py --limit-minutes 60 -- "$SWIFT" test --skip-build --sanitize=thread --scratch-path "$SCRATCH" "$@"
