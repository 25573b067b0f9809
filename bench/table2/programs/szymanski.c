/* A two-thread version of Szymanski's protocol: announce the intent (1),
 * wait for the door to be open, go through it (3), wait in the waiting room
 * while the other may still enter (2), and enter (4) only with a lower
 * number; leave by resetting the flag.
 * EXPECT: holds
 * THREADS: 3
 * UNWIND: 4 (busy-waiting loops)
 */
#include <pthread.h>
#include <assert.h>

int flag0, flag1;
int inside;

void *first(void *arg) {
    flag0 = 1;
    while (flag1 >= 3) {
    }
    flag0 = 3;
    if (flag1 == 1) {
        flag0 = 2;
        while (flag1 != 4) {
        }
    }
    flag0 = 4;
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
    while (flag1 >= 2 && flag1 <= 3) {
    }
    flag0 = 0;
    return 0;
}

void *second(void *arg) {
    flag1 = 1;
    while (flag0 >= 3) {
    }
    flag1 = 3;
    if (flag0 == 1) {
        flag1 = 2;
        while (flag0 != 4) {
        }
    }
    flag1 = 4;
    while (flag0 >= 2) {
    }
    inside = inside + 1;
    assert(inside == 1);
    inside = inside - 1;
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
