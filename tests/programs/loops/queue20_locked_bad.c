/* A producer fills a queue of 20 under a mutex in a loop over a constant
 * (QSIZE, a macro), calling the queue's functions, which look at shared
 * memory; a consumer takes the items in order under the same mutex. Neither
 * loop's trip count depends on another thread or an input, so --unwind 2
 * cuts neither. The producer writes its last item wrong (the twentieth
 * round only): the consumer sees it, found although --unwind is 2.
 * UNWIND: 2
 * VERDICT 56: violated
 * VERDICT 69: violated
 */
#include <pthread.h>
#include <assert.h>

#define QSIZE 20

int items[QSIZE];
int head, tail, amount;
int stored[QSIZE];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int full(void) { return amount == QSIZE; }
int empty(void) { return amount == 0; }

void enqueue(int v) {
    items[tail] = v;
    tail++;
    amount++;
}

int dequeue(void) {
    int v = items[head];
    head++;
    amount--;
    return v;
}

void *producer(void *arg) {
    int i;
    pthread_mutex_lock(&m);
    for (i = 0; i < QSIZE; i++) {
        if (!full()) {
            enqueue(i == QSIZE - 1 ? 0 : 3 * i + 1);
            stored[i] = 3 * i + 1;
        }
    }
    pthread_mutex_unlock(&m);
    return 0;
}

void *consumer(void *arg) {
    int i;
    pthread_mutex_lock(&m);
    for (i = 0; i < QSIZE; i++) {
        if (!empty()) {
            int v = dequeue();
            assert(v == stored[i]);
        }
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    assert(amount == 0 || (amount == QSIZE && items[QSIZE - 1] == 3 * QSIZE - 2));
    return 0;
}
