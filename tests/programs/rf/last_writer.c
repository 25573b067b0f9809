/* Three threads write `x` and then `y` with no read between; main reads both after the joins.
 * Which write each read sees is all that matters: 3 x 3 ways, and (x, y) = (2, 1) is one.
 */
#include <pthread.h>
#include <assert.h>

int x, y;

void *writer(void *arg) {
    int id = (int)(long)arg;
    x = id;
    y = id;
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, writer, (void *)(long)(i + 1));
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(x >= 1 && y >= 1);      /* holds */
    assert(!(x == 2 && y == 1));   /* violated: T2 writes x last and T1 writes y last */
    return 0;
}
