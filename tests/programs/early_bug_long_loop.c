/* A producer fills a one-slot buffer forty times; two consumers each take
 * twenty items but guard their wait with "if" instead of "while". After a
 * broadcast both consumers wake, one takes the item, the other finds the slot
 * empty and its assertion fails: in the consumers' first iteration, while
 * the producer's loop is far from done. A thread that reaches the unwind
 * bound stops and the others go on, so even --unwind 1 finds it.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

#define ITEMS 40

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
int full;
int item;

void *producer(void *arg) {
    for (int i = 1; i <= ITEMS; i++) {
        pthread_mutex_lock(&mu);
        while (full)
            pthread_cond_wait(&changed, &mu);
        item = i;
        full = 1;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&mu);
    }
    return 0;
}

void *consumer(void *arg) {
    for (int i = 0; i < ITEMS / 2; i++) {
        pthread_mutex_lock(&mu);
        if (!full)
            pthread_cond_wait(&changed, &mu);
        assert(full);
        full = 0;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&mu);
    }
    return 0;
}

int main(void) {
    pthread_t p, c1, c2;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c1, 0, consumer, 0);
    pthread_create(&c2, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c1, 0);
    pthread_join(c2, 0);
    return 0;
}
