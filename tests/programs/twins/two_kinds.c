/* Two pairs of twins, by argument: workers with argument 1 add, workers
 * with argument 2 double, each under a lock. Only the order of adds and
 * doubles matters; main checks the one order that gives 6 does not occur
 * (it does: 0+1+1 then doubled twice is 8, 0*2*2+1+1 is 2, ...(0+1)*2+1)*2 is 6).
 * VERDICT: violated */
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    if ((intptr_t)arg == 1) x = x + 1; else x = x * 2;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, worker, (void *)(intptr_t)(i < 2 ? 1 : 2));
    for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
    assert(x != 6);
    return 0;
}
