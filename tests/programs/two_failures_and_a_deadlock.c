/* Two threads take two locks in opposite orders, and each asserts what it
 * cannot know of the other's increment. Each assertion's check stops at its
 * violation before it meets the deadlock, so only the search for findings
 * after (or, with workers, beside) them reports it.
 * VERDICT: violated
 * FINDING: deadlock
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t left = PTHREAD_MUTEX_INITIALIZER, right = PTHREAD_MUTEX_INITIALIZER;
int visits;

void *clockwise(void *unused) {
    pthread_mutex_lock(&left);
    pthread_mutex_lock(&right);
    visits++;
    pthread_mutex_unlock(&right);
    pthread_mutex_unlock(&left);
    assert(visits == 5);
    return 0;
}

void *anticlockwise(void *unused) {
    pthread_mutex_lock(&right);
    pthread_mutex_lock(&left);
    visits++;
    pthread_mutex_unlock(&left);
    pthread_mutex_unlock(&right);
    assert(visits == 7);
    return 0;
}

int main(void) {
    pthread_t walkers[2];
    pthread_create(&walkers[0], 0, clockwise, 0);
    pthread_create(&walkers[1], 0, anticlockwise, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(walkers[i], 0);
    return 0;
}
