/* Fibonacci-style racing increments, checked against a bound no
 * interleaving of two rounds per thread can exceed.
 * EXPECT: holds
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
    assert(i <= 8 && j <= 8);
    return 0;
}
