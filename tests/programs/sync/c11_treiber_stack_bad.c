/* The lock-free stack with a pop that reads the top and then stores the
 * next node without a compare-and-swap: a push in between is lost, or the
 * popped node stays on the stack.
 * VERDICT 53: holds
 * VERDICT 56: violated
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define EMPTY (-1)

int next[3];
atomic_int top = EMPTY;
int popped = EMPTY;

void push(int n) {
    int old = atomic_load(&top);
    do {
        next[n] = old;
    } while (!atomic_compare_exchange_weak(&top, &old, n));
}

void *pusher(void *arg) {
    push(*(int *)arg);
    return 0;
}

void *popper(void *arg) {
    int old = atomic_load(&top);
    if (old != EMPTY)
        atomic_store(&top, next[old]); /* not a compare-and-swap */
    popped = old;
    return 0;
}

int main(void) {
    int zero = 0, one = 1;
    pthread_t a, b, c;
    pthread_create(&a, 0, pusher, &zero);
    pthread_create(&b, 0, pusher, &one);
    pthread_create(&c, 0, popper, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    int seen = 0, n = atomic_load(&top), steps = 0;
    while (n != EMPTY && steps < 3) {
        seen |= 1 << n;
        n = next[n];
        steps++;
    }
    if (popped != EMPTY) {
        assert(!(seen & (1 << popped)));
        seen |= 1 << popped;
    }
    assert(seen == 3);
    return 0;
}
