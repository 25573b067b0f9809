/* Twenty threads each record one hit with atomic_fetch_add on a C11 atomic counter; main joins all
 * and checks 20 hits. Invariant: each fetch-and-add adds exactly one, indivisibly.
 * STYLE: many-threads
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>

#define N 20

atomic_int hits = 0;

void *hit(void *arg) {
    atomic_fetch_add(&hits, 1);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, hit, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    assert(atomic_load(&hits) == N);
    return 0;
}
