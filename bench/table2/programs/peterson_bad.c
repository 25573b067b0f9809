/* Peterson's protocol with the turn handed over before the flag is raised:
 * both threads can pass the wait and meet in the critical section.
 * EXPECT: violated
 * THREADS: 3
 * UNWIND: 4 (busy-waiting loops)
 */
#include <pthread.h>
#include <assert.h>

int want0, want1, turn;
int inside;

void *first(void *arg) {
    turn = 1;
    want0 = 1;
    while (want1 && turn == 1) {
    }
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
    want0 = 0;
    return 0;
}

void *second(void *arg) {
    turn = 0;
    want1 = 1;
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
