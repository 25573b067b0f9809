/* Reorder style with 3 threads (1 setting, 2 checking): a
 * setter writes a = 1 and then b = -1; a checker expects to see both or
 * neither, but can read between the two writes.
 * EXPECT: violated
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

int a, b;

void *set(void *arg) {
    a = 1;
    b = -1;
    return 0;
}

void *check(void *arg) {
    int x = a;
    int y = b;
    assert((x == 0 && y == 0) || (x == 1 && y == -1));
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_create(&t[0], 0, set, 0);
    pthread_create(&t[1], 0, check, 0);
    pthread_create(&t[2], 0, check, 0);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], 0);
    return 0;
}
