/* Request handlers started for each request, for ever, each recording its
 * request kind through a helper that keeps a histogram under a lock; the
 * helper checks the bucket it incremented right after (a count that would
 * overflow ends its run: undefined in C).
 * VERDICT 20: holds
 */
#include <pthread.h>
#include <assert.h>

#define KINDS 4

extern int __VERIFIER_nondet_int(void);

int histogram[KINDS];
pthread_mutex_t histogram_lock = PTHREAD_MUTEX_INITIALIZER;

static void record(int kind) {
    pthread_mutex_lock(&histogram_lock);
    histogram[kind] = histogram[kind] + 1;
    assert(histogram[kind] > 0);
    pthread_mutex_unlock(&histogram_lock);
}

static int kind_of(int request) {
    return request < 0 ? 0 : request % KINDS;
}

void *handler(void *arg) {
    record(kind_of((int)(long)arg));
    return 0;
}

int main(void) {
    for (;;) {
        pthread_t t;
        pthread_create(&t, 0, handler, (void *)(long)__VERIFIER_nondet_int());
    }
    return 0;
}
