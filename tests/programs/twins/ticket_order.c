/* Two identical workers draw tickets under a lock and return them; main
 * checks the first worker drew ticket 0. Either may draw first: the
 * result a join returns is a name, so these are not explored as twins.
 * VERDICT: violated */
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
int next;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    int mine = next++;
    pthread_mutex_unlock(&m);
    return (void *)(intptr_t)mine;
}
int main(void) {
    pthread_t t[2];
    void *r0, *r1;
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
    pthread_join(t[0], &r0);
    pthread_join(t[1], &r1);
    assert((intptr_t)r0 == 0);
    return 0;
}
