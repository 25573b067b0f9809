/* Fibonacci-style racing increments: two threads keep adding each other's
 * counter without any lock. With two rounds each the largest value any
 * interleaving reaches is 8, so claiming both stay below 8 is wrong.
 * EXPECT: violated
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

int i = 1, j = 1;

void *grow_i(void *arg) {
    for (int k = 0; k < 2; k++)
        i = i + j;
    return 0;
}

void *grow_j(void *arg) {
    for (int k = 0; k < 2; k++)
        j = j + i;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, grow_i, 0);
    pthread_create(&b, 0, grow_j, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(i < 8 && j < 8);
    return 0;
}
