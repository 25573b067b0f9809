/* Two threads take two locks in opposite orders: when each holds its first
 * lock, neither can go on.
 * FINDING: deadlock
 */
#include <pthread.h>

pthread_mutex_t first = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t second = PTHREAD_MUTEX_INITIALIZER;
int total;

void *forward(void *arg) {
    pthread_mutex_lock(&first);
    pthread_mutex_lock(&second);
    total = total + 1;
    pthread_mutex_unlock(&second);
    pthread_mutex_unlock(&first);
    return 0;
}

void *backward(void *arg) {
    pthread_mutex_lock(&second);
    pthread_mutex_lock(&first);
    total = total + 2;
    pthread_mutex_unlock(&first);
    pthread_mutex_unlock(&second);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, forward, 0);
    pthread_create(&b, 0, backward, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
