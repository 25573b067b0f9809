/* Fibonacci-style racing increments with three rounds per thread: the bound
 * 21 is reached only by strictly alternating the two threads.
 * EXPECT: violated
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

int i = 1, j = 1;

void *grow_i(void *arg) {
    for (int k = 0; k < 3; k++)
        i = i + j;
    return 0;
}

void *grow_j(void *arg) {
    for (int k = 0; k < 3; k++)
        j = j + i;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, grow_i, 0);
    pthread_create(&b, 0, grow_j, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(i < 21 && j < 21);
    return 0;
}
