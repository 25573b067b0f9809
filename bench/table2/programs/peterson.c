/* Peterson's mutual exclusion for two threads: each raises its flag, gives
 * the turn away and waits while the other wants in and has the turn. The
 * critical sections never overlap (sequential consistency).
 * EXPECT: holds
 * THREADS: 3
 * UNWIND: 4 (busy-waiting loops)
 */
#include <pthread.h>
#include <assert.h>

int want0, want1, turn;
int inside;

void *first(void *arg) {
    want0 = 1;
    turn = 1;
    while (want1 && turn == 1) {
    }
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
    want0 = 0;
    return 0;
}

void *second(void *arg) {
    want1 = 1;
    turn = 0;
    while (want0 && turn == 0) {
    }
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
    want1 = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
