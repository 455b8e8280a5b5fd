/*
 * C11 threads (<threads.h>) as calls to pthreads, preloaded (LD_PRELOAD) into test runs under
 * ThreadSanitizer only.
 *
 * Why: Debian's librdkafka makes its threads with glibc's thrd_create and locks with mtx_lock and
 * cnd_wait. glibc implements those by internal calls that ThreadSanitizer's interceptors never see
 * (google/sanitizers#1603, llvm/llvm-project#199585): a librdkafka thread then runs without TSan's
 * per-thread state and the first intercepted call on it (malloc, a callback into Swift) crashes
 * TSan itself ("SEGV on unknown address ... nested bug in the same thread"), and the hand-offs
 * through librdkafka's queues would look like races. Defined here, these names bind librdkafka's
 * calls to pthread_create, pthread_mutex_lock and the rest, which TSan does intercept.
 *
 * Built (with mutex-handoff.c) and used by scripts/sanitizers/tsan-test.sh; never part of the product.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

static int result_of(int error) {
    switch (error) {
    case 0: return thrd_success;
    case EBUSY: return thrd_busy;
    case ETIMEDOUT: return thrd_timedout;
    case ENOMEM: return thrd_nomem;
    default: return thrd_error;
    }
}

/* The C11 start routine returns int, a pthread's void *: carried across in the pointer. */
struct start {
    thrd_start_t function;
    void *argument;
};

static void *run(void *opaque) {
    struct start start = *(struct start *)opaque;
    free(opaque);
    return (void *)(intptr_t)start.function(start.argument);
}

int thrd_create(thrd_t *thread, thrd_start_t function, void *argument) {
    struct start *start = malloc(sizeof *start);
    if (start == NULL) return thrd_nomem;
    start->function = function;
    start->argument = argument;
    int error = pthread_create((pthread_t *)thread, NULL, run, start);
    if (error != 0) free(start);
    return result_of(error);
}

int thrd_join(thrd_t thread, int *result) {
    void *value = NULL;
    int error = pthread_join((pthread_t)thread, &value);
    if (error == 0 && result != NULL) *result = (int)(intptr_t)value;
    return result_of(error);
}

int thrd_detach(thrd_t thread) { return result_of(pthread_detach((pthread_t)thread)); }

void thrd_exit(int result) { pthread_exit((void *)(intptr_t)result); }

/* glibc's mtx_t and cnd_t hold a pthread_mutex_t and a pthread_cond_t (same size and alignment). */
_Static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t), "mtx_t holds a pthread_mutex_t");
_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "cnd_t holds a pthread_cond_t");

int mtx_init(mtx_t *mutex, int type) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    if (type & mtx_recursive) pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
    int error = pthread_mutex_init((pthread_mutex_t *)mutex, &attributes);
    pthread_mutexattr_destroy(&attributes);
    return result_of(error);
}

int mtx_lock(mtx_t *mutex) { return result_of(pthread_mutex_lock((pthread_mutex_t *)mutex)); }
int mtx_trylock(mtx_t *mutex) { return result_of(pthread_mutex_trylock((pthread_mutex_t *)mutex)); }
int mtx_unlock(mtx_t *mutex) { return result_of(pthread_mutex_unlock((pthread_mutex_t *)mutex)); }
void mtx_destroy(mtx_t *mutex) { pthread_mutex_destroy((pthread_mutex_t *)mutex); }

int cnd_init(cnd_t *condition) { return result_of(pthread_cond_init((pthread_cond_t *)condition, NULL)); }
int cnd_signal(cnd_t *condition) { return result_of(pthread_cond_signal((pthread_cond_t *)condition)); }
int cnd_broadcast(cnd_t *condition) { return result_of(pthread_cond_broadcast((pthread_cond_t *)condition)); }
void cnd_destroy(cnd_t *condition) { pthread_cond_destroy((pthread_cond_t *)condition); }

int cnd_wait(cnd_t *condition, mtx_t *mutex) {
    return result_of(pthread_cond_wait((pthread_cond_t *)condition, (pthread_mutex_t *)mutex));
}

/* C11's cnd_timedwait takes a CLOCK_REALTIME deadline, as pthread_cond_timedwait's default does. */
int cnd_timedwait(cnd_t *restrict condition, mtx_t *restrict mutex, const struct timespec *restrict deadline) {
    return result_of(pthread_cond_timedwait((pthread_cond_t *)condition, (pthread_mutex_t *)mutex, deadline));
}

void call_once(once_flag *flag, void (*function)(void)) {
    pthread_once((pthread_once_t *)flag, function);
}
