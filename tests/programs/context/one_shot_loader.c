/* A loader thread runs once, before the users start: main joins it first.
 * Its check that nothing was loaded yet holds, since it runs exactly once.
 * From main waiting for the user, with the user paused before its read,
 * the loader has ended: it cannot run again, even though `loaded` is 1 by
 * then: from here its assertion cannot be reached.
 *
 * FROM: 39 29
 * UNWIND: 2
 * EXPECT: full=unreachable -RD=unreachable -SI=unreachable naive=unreachable
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int loaded = 0;
int config;

void *loader(void *arg) {
    (void)arg;
    assert(!loaded);
    config = 42;
    loaded = 1;
    return 0;
}

void *user(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int c = config;
    pthread_mutex_unlock(&m);
    return (void *)(long)c;
}

int main(void) {
    pthread_t l, u;
    pthread_create(&l, 0, loader, 0);
    pthread_join(l, 0);
    pthread_create(&u, 0, user, 0);
    pthread_join(u, 0);
    return 0;
}
