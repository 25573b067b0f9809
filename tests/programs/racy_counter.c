/* The same increments without the mutex: both threads can read 0 and the
 * counter ends at 1.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

int counter;

void *bump(void *arg) {
    int seen = counter;
    counter = seen + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, bump, 0);
    pthread_create(&b, 0, bump, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
