/* The same stack with plain reads and writes of the top instead of a
 * compare-and-swap: two pushes can both link to the same old top, and one
 * cell is lost.
 * EXPECT: violated
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

int next_of[2];
int top = -1;

void push(int cell) {
    int old = top;
    next_of[cell] = old;
    top = cell;
}

void *pusher(void *arg) {
    push((int)(long)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, pusher, (void *)0);
    pthread_create(&b, 0, pusher, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int left = 0;
    for (int k = top; k >= 0 && left < 2; k = next_of[k])
        left = left + 1;
    assert(left == 2);
    return 0;
}
