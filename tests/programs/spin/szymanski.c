/* Szymanski's mutual exclusion for two threads: a thread announces its
 * intent (1), waits for the door to be open (no one at 3 or 4), steps in (3);
 * if the other also intends to enter it waits in the waiting room (2) until
 * someone is through (4); then it goes through (4), waits for lower ids to
 * leave and, leaving, for higher ids still in the waiting room.
 * VERDICT: holds
 * FINDING: none
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
    if (other > me) {
        int f;
        do
            f = flag[other];
        while (f == 2 || f == 3);
    }
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
