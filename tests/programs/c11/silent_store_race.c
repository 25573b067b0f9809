/* The writer stores the value x already holds: a store all the same, so it
 * races with main's plain read, which C leaves undefined, though no value
 * read can show it (DPOR treats such a silent store as a read; the race
 * detector may not).
 * UNDER rc11 line 24: holds
 * UNDER sc line 24: holds
 * RACES rc11: 1
 */
#include <pthread.h>
#include <assert.h>

int x;

void *writer(void *arg) {
    x = 0;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int r = x;
    pthread_join(t, 0);
    assert(r == 0);
    return 0;
}
