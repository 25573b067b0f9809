/* Three identical workers increment a counter without a lock: an update
 * can be lost. Twins still show it.
 * VERDICT: violated */
#include <pthread.h>
#include <assert.h>
int counter;
void *worker(void *arg) {
    int r = counter;
    counter = r + 1;
    return 0;
}
int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    assert(counter == 3);
    return 0;
}
