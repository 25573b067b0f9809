/* A broken test-and-test-and-set lock: after seeing the flag free the thread
 * sets it with a plain load and store instead of one atomic exchange, so two
 * threads can both see it free and both take it: an update is lost.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

int locked;
int counter;

static void acquire(void) {
    for (;;) {
        while (locked)
            ;
        if (locked == 0) {
            locked = 1;
            return;
        }
    }
}

void *worker(void *arg) {
    acquire();
    int seen = counter;
    counter = seen + 1;
    locked = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
