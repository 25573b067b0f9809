/* Two identical workers take turns on a lock; main joins the second one
 * and looks before joining the first. Which worker ended is a name, so
 * the second may have run alone: counter can be 1 here. (Explored up to
 * a permutation this would always see 2; the run that tells the twins
 * apart sends the exploration back to every order.)
 * VERDICT: violated */
#include <pthread.h>
#include <assert.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    counter++;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    pthread_join(a, 0);
    return 0;
}
