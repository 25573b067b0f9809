/* VERDICT: violated
 * Two threads add to a shared level with fetch_add while a third samples it
 * with a plain atomic load between them: the sample sees 0, 1, 3 or 2 as the
 * order goes, and 2 -- the second adder first -- breaks the assertion. The
 * updates commute with each other, not with the sample. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int level;

void *one(void *arg) { atomic_fetch_add(&level, 1); return 0; }
void *two(void *arg) { atomic_fetch_add(&level, 2); return 0; }

void *sampler(void *arg) {
    int seen = atomic_load(&level);
    assert(seen != 2);
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, one, 0);
    pthread_create(&b, 0, two, 0);
    pthread_create(&c, 0, sampler, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
