/* A lock-free stack of cells from a static pool: push and pop retry a
 * compare-and-swap on the top (an atomic function, as SV-COMP writes it).
 * Two pushers and a popper: whatever the order, the pool's cells end up
 * either on the stack or popped exactly once.
 * EXPECT: holds
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

int next_of[3];
int top = -1;
int popped;

int __VERIFIER_atomic_cas(int *where, int expected, int wanted) {
    if (*where == expected) {
        *where = wanted;
        return 1;
    }
    return 0;
}

void push(int cell) {
    int old;
    do {
        old = top;
        next_of[cell] = old;
    } while (!__VERIFIER_atomic_cas(&top, old, cell));
}

int pop(void) {
    int old, succ;
    do {
        old = top;
        if (old < 0)
            return -1;
        succ = next_of[old];
    } while (!__VERIFIER_atomic_cas(&top, old, succ));
    return old;
}

void *pusher(void *arg) {
    push((int)(long)arg);
    return 0;
}

void *popper(void *arg) {
    if (pop() >= 0)
        popped = popped + 1;
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, pusher, (void *)0);
    pthread_create(&b, 0, pusher, (void *)1);
    pthread_create(&c, 0, popper, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    int left = 0;
    for (int k = top; k >= 0 && left < 3; k = next_of[k])
        left = left + 1;
    assert(left + popped == 2);
    return 0;
}
