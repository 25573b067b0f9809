/* Three workers each write three status words that nobody reads but `x`, after the joins:
 * DPOR separates every order of the writes of each word; only which write main's read sees
 * matters.
 */
#include <pthread.h>
#include <assert.h>

int x, y, z;

void *worker(void *arg) {
    int id = (int)(long)arg;
    x = id;
    y = id;
    z = id;
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)(i + 1));
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(x >= 1 && x <= 3);
    return 0;
}
