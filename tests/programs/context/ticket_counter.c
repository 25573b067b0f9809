/* Tickets are numbered from 1: main sets the counter before starting the
 * sellers, and a seller only ever adds to it. Every value the counter has
 * after that is at least 1, so the number a seller reads is a valid ticket
 * whatever the other sellers did. The context does not know the counter's
 * value at the seller's read, but knows it never falls below the value it
 * had when the sellers started.
 *
 * FROM: 21 34
 * UNWIND: 2
 * EXPECT: full=bounded -RD=violated -SI=bounded naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int next_ticket;

void *seller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int t = next_ticket;
    next_ticket = t + 1;
    pthread_mutex_unlock(&m);
    assert(t >= 1);
    return 0;
}

int main(void) {
    pthread_t s[3];
    next_ticket = 1;
    for (int i = 0; i < 3; i++)
        pthread_create(&s[i], 0, seller, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(s[i], 0);
    return 0;
}
