/* A Herlihy-Wing queue: an enqueue takes a slot with a fetch-and-add on the tail and then stores
 * into it; a dequeue swaps each slot below the tail with 0 until it takes a value. Two enqueuers
 * and one dequeuer; what the dequeuer takes was enqueued, and at most once.
 * EXPECT: true
 */
#include <pthread.h>
#include <assert.h>

#define SLOTS 4
int items[SLOTS];
int back;

void enq(int v) {
    int i = __atomic_fetch_add(&back, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&items[i], v, __ATOMIC_SEQ_CST);
}

int deq(void) {
    int range = __atomic_load_n(&back, __ATOMIC_SEQ_CST);
    for (int i = 0; i < range; i++) {
        int x = __atomic_exchange_n(&items[i], 0, __ATOMIC_SEQ_CST);
        if (x != 0)
            return x;
    }
    return 0;
}

void *producer(void *arg) {
    enq((int)(long)arg);
    return 0;
}

int taken;
void *consumer(void *arg) {
    taken = deq();
    return 0;
}

int main(void) {
    pthread_t p1, p2, c;
    pthread_create(&p1, 0, producer, (void *)1L);
    pthread_create(&p2, 0, producer, (void *)2L);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p1, 0);
    pthread_join(p2, 0);
    pthread_join(c, 0);
    int left = items[0] + items[1];
    assert(taken == 0 || taken == 1 || taken == 2);
    assert(taken + left == 3);
    return 0;
}
