/* Szymanski's algorithm (see szymanski.c) whose exit test reads the other's
 * flag twice: it can read 3 for the first comparison and, the other having
 * just moved to the waiting room, 2 for the second, and leave; the other then
 * waits in the waiting room for a 4 it never sees. Mutual exclusion holds; a
 * thread spins forever.
 * VERDICT: holds
 * FINDING: stuck
 */
#include <pthread.h>
#include <assert.h>

int flag[2];
int inside;

void *proc(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    flag[me] = 1;
    while (flag[other] >= 3)
        ;
    flag[me] = 3;
    if (flag[other] == 1) {
        flag[me] = 2;
        while (flag[other] != 4)
            ;
    }
    flag[me] = 4;
    if (other < me)
        while (flag[other] >= 2)
            ;
    inside++;
    assert(inside == 1);
    inside--;
    if (other > me)
        while (flag[other] == 2 || flag[other] == 3)
            ;
    flag[me] = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, proc, (void *)0);
    pthread_create(&b, 0, proc, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
