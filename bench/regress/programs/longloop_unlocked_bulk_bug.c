/* One thread adds 1 to x 1500 times under a mutex while another adds 500 once without taking the
 * mutex, by a load and a store: locked increments that run between them are lost (schedule: bulk
 * loads x, the stepper runs some iterations, bulk stores its stale sum), so x misses 2000.
 * STYLE: long-loop
 * EXPECT: false
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
    int t = x;
    x = t + 500;
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
