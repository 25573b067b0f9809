/* VERDICT 27: holds
   VERDICT 28: violated
   The library's user: a producer puts 1 .. ITEMS, a consumer gets ITEMS
   values and sums them. The ring keeps every value and its order, so the sum
   is known; the consumer's last value is ITEMS, not ITEMS - 1. */
#include <assert.h>
#include <pthread.h>
#include "ring.h"

static int sum, last;

static void *producer(void *arg) {
    for (int i = 1; i <= ITEMS; i++)
        ring_put(i);
    return 0;
}

static void *consumer(void *arg) {
    for (int i = 0; i < ITEMS; i++) {
        last = ring_get();
        sum += last;
    }
    return 0;
}

static void check_totals(void) {
    assert(sum == ITEMS * (ITEMS + 1) / 2);
    assert(last == ITEMS - 1);
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    check_totals();
    return 0;
}
