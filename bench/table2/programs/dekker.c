/* Dekker's algorithm for two threads: a thread that sees the other's flag
 * and does not have the turn lowers its own flag and waits for the turn.
 * EXPECT: holds
 * THREADS: 3
 * UNWIND: 4 (busy-waiting loops)
 */
#include <pthread.h>
#include <assert.h>

int flag0, flag1, turn;
int inside;

void *first(void *arg) {
    flag0 = 1;
    while (flag1) {
        if (turn != 0) {
            flag0 = 0;
            while (turn != 0) {
            }
            flag0 = 1;
        }
    }
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
    turn = 1;
    flag0 = 0;
    return 0;
}

void *second(void *arg) {
    flag1 = 1;
    while (flag0) {
        if (turn != 1) {
            flag1 = 0;
            while (turn != 1) {
            }
            flag1 = 1;
        }
    }
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
    turn = 0;
    flag1 = 0;
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
