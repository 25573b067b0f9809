/* Two threads that each announce themselves and then wait for the other to
 * be gone: when both announce first, each waits for a flag the other never
 * lowers. Both spin forever (stuck); the assertion after the waits is never
 * reached in that run, and holds in the others.
 * VERDICT: holds
 * FINDING: stuck
 */
#include <pthread.h>
#include <assert.h>

int here[2];
int done;

void *visit(void *arg) {
    int me = (int)(long)arg;
    here[me] = 1;
    while (here[1 - me])
        ;
    done++;
    assert(done <= 2);
    here[me] = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, visit, (void *)0);
    pthread_create(&b, 0, visit, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
