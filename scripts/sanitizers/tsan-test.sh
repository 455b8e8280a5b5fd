#!/bin/sh
# Runs the tests under ThreadSanitizer: `scripts/sanitizers/tsan-test.sh [swift test arguments]`,
# e.g. `--filter TakeoverTests`. A separate build directory (.build-tsan), so the usual build stays.
#
# Two things TSan cannot see, told to it by a library built here and preloaded: librdkafka's threads
# are C11 threads (c11-threads.c turns them into pthreads, which TSan intercepts; without it the
# Kafka tests crash TSan itself), and Synchronization.Mutex hands a contended lock over in the kernel
# (mutex-handoff.c tells TSan of each hand-off; without it every contended lock is reported as a race).
set -eu
cd "$(dirname "$0")/../.."
SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
SCRATCH=.build-tsan
mkdir -p "$SCRATCH"
# The toolchain's own clang unless CC says otherwise.
CC="${CC:-$(dirname "$(readlink -f "$SWIFT")")/clang}"
"$CC" -shared -fPIC -O1 -Wall -Wextra -Werror -o "$SCRATCH/libtsan-preload.so" \
    scripts/sanitizers/c11-threads.c scripts/sanitizers/mutex-handoff.c -ldl
"$SWIFT" build --build-tests --sanitize=thread --scratch-path "$SCRATCH"
# halt_on_error: the first report fails the run where it happened, not in a summary at the end.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
export LD_PRELOAD="$PWD/$SCRATCH/libtsan-preload.so"
exec python3 scripts/run-tests.py --limit-minutes 60 -- "$SWIFT" test --skip-build --sanitize=thread --scratch-path "$SCRATCH" "$@"
