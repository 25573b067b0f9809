/* A ticket lock shared by three threads: each takes the next ticket with an
 * atomic fetch-and-add and spins until the lock serves its number; leaving
 * serves the next. Each spin round only reads `serving`: an await.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int next_ticket;
atomic_int serving;
int inside;
int total;

void *worker(void *arg) {
    int mine = atomic_fetch_add(&next_ticket, 1);
    while (atomic_load(&serving) != mine)
        ;
    inside++;
    assert(inside == 1);
    total = total + 1;
    inside--;
    atomic_store(&serving, mine + 1);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(total == 3);
    return 0;
}
