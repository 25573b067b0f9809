/* One thread adds 1 to x 1500 times under a mutex while another adds 500 once under the same mutex;
 * main joins both and checks x == 2000. Invariant: every update of x is a locked read-modify-write,
 * so none is lost.
 * STYLE: long-loop
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;

void *stepper(void *arg) {
    for (int i = 0; i < 1500; i++) {
        pthread_mutex_lock(&m);
        x = x + 1;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

void *bulk(void *arg) {
    pthread_mutex_lock(&m);
    int t = x;
    x = t + 500;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, stepper, NULL);
    pthread_create(&b, NULL, bulk, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (x != 2000) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
