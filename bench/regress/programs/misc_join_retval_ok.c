/* Four workers each compute 0 + 1 + ... + id in a local loop and hand the result back through
 * their return value (the last one through pthread_exit), and main sums them via pthread_join.
 * Invariant: each worker touches only its own locals and argument, so the results are 0, 1, 3, 6
 * and the sum is 10.
 * STYLE: reach-error-misc
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>
#include <stdint.h>

#define N 4

void *worker(void *arg) {
    int id = (int)(intptr_t)arg;
    int s = 0;
    for (int k = 0; k <= id; k++)
        s += k;
    if (id == N - 1)
        pthread_exit((void *)(intptr_t)s);
    return (void *)(intptr_t)s;
}

int main(void) {
    pthread_t t[N];
    int total = 0;
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, (void *)(intptr_t)i);
    for (int i = 0; i < N; i++) {
        void *ret;
        pthread_join(t[i], &ret);
        total += (int)(intptr_t)ret;
    }
    assert(total == 10);
    return 0;
}
