/* A ticket lock whose ticket is taken by a plain load and store instead of an atomic fetch-and-add:
 * two threads can draw the same ticket and both be served at once (schedule: t0 and t1 both read
 * next_ticket == 0, both store 1, both see serving == 0 and enter).
 * STYLE: spin-lock
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

int next_ticket = 0;
int serving = 0;
int inside = 0;

void *worker(void *arg) {
    int my = next_ticket;
    next_ticket = my + 1;
    while (serving != my)
        ;
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
    serving = my + 1;
    return 0;
}

int main(void) {
    pthread_t t0, t1;
    pthread_create(&t0, 0, worker, 0);
    pthread_create(&t1, 0, worker, 0);
    pthread_join(t0, 0);
    pthread_join(t1, 0);
    return 0;
}
