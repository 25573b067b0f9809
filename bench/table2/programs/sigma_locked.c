/* Sigma style done right: the index is read and bumped under a mutex, so
 * every thread gets its own slot.
 * EXPECT: holds
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

int slots[3];
int next;
pthread_mutex_t m;

void *claim(void *arg) {
    pthread_mutex_lock(&m);
    int mine = next;
    next = mine + 1;
    pthread_mutex_unlock(&m);
    slots[mine] = 1;
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_mutex_init(&m, 0);
    for (int k = 0; k < 3; k++)
        pthread_create(&t[k], 0, claim, 0);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], 0);
    assert(slots[0] + slots[1] + slots[2] == 3);
    return 0;
}
