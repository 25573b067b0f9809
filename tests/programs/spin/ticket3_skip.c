/* A ticket lock whose leaving thread serves the ticket after next: the
 * holder of the skipped ticket waits for good while the others finish, so
 * main's join never returns (stuck): no execution checks the count.
 * VERDICT 22: holds
 * VERDICT 35: unreachable
 * FINDING: stuck
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
    atomic_store(&serving, mine + 2);
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
