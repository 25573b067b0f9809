/* VERDICT: violated
 * An add and an or into one word do not commute: (0 + 1) | 1 is 1, (0 | 1) + 1
 * is 2. Each alone is an update whose old value is unused; the assertion
 * fails when the or comes first. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_uint word;

void *adder(void *arg) {
    atomic_fetch_add(&word, 1);
    return 0;
}

void *orer(void *arg) {
    atomic_fetch_or(&word, 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, adder, 0);
    pthread_create(&b, 0, orer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(word == 1);
    return 0;
}
