/*
 * Synchronization.Mutex's contended hand-offs made visible to ThreadSanitizer, preloaded
 * (LD_PRELOAD) into test runs under TSan only, with c11-threads.c.
 *
 * Why: Swift's Mutex locks and unlocks inline, with atomics compiled into the caller, which TSan
 * sees. When the lock is contended it calls _lockSlow, _tryLockSlow or _unlockSlow in the
 * toolchain's libswiftSynchronization.so, which is not instrumented: there the lock is taken by a
 * compare-and-swap TSan never sees, or handed over by the kernel (a priority-inheritance futex,
 * swiftlang/swift#88440). Nothing TSan knows of then orders the last owner's accesses before the
 * next owner's, and every access under a contended lock was reported as a race. Defined here, the
 * three slow paths call the library's own and tell TSan of the hand-off, on the lock word's address
 * (the one the inline atomics use): a release before an unlock, an acquire after a lock.
 *
 * Swift passes the borrowed handle by address in the `self` register (swiftcall's swift_context).
 * The names are libswiftSynchronization's exported symbols (Swift 6.3); SanitizerScriptsTests in
 * Tests/DocumentsTests checks that the library still exports them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* Defined by the TSan runtime in the instrumented executable; null anywhere else. */
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

#define SWIFTCALL __attribute__((swiftcall))
#define HANDLE __attribute__((swift_context))

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

typedef SWIFTCALL void (*lock_slow)(uint32_t self_id, void *handle HANDLE);
typedef SWIFTCALL bool (*try_lock_slow)(void *handle HANDLE);
typedef SWIFTCALL void (*unlock_slow)(void *handle HANDLE);

/* The library's own, found at first use (only a process that uses Mutex calls these; the preload
 * also reaches python3, swift and the tools the tests run). A lookup that fails says so and stops,
 * rather than calling address zero. Every thread finds the same address, so a race to store it
 * changes nothing. */
static void *next(const char *name) {
    void *found = dlsym(RTLD_NEXT, name);
    if (found == NULL) {
        static const char message[] = "mutex-handoff.c: libswiftSynchronization.so's Mutex slow path not found\n";
        (void)!write(2, message, sizeof message - 1);
        abort();
    }
    return found;
}

SWIFTCALL void $s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF(uint32_t self_id, void *handle HANDLE) {
    static lock_slow library;
    if (library == NULL) library = (lock_slow)next(LOCK_SLOW);
    library(self_id, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFTCALL bool $s15Synchronization12_MutexHandleV12_tryLockSlowSbyF(void *handle HANDLE) {
    static try_lock_slow library;
    if (library == NULL) library = (try_lock_slow)next(TRY_LOCK_SLOW);
    bool locked = library(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

SWIFTCALL void $s15Synchronization12_MutexHandleV11_unlockSlowyyF(void *handle HANDLE) {
    static unlock_slow library;
    if (library == NULL) library = (unlock_slow)next(UNLOCK_SLOW);
    if (__tsan_release) __tsan_release(handle);
    library(handle);
}
