/* Two readers and a writer of one cell, each reader reading twice: a
 * reader can see the write between its two reads.
 * EXPECT: violated
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

int cell;

void *writer(void *arg) {
    cell = 1;
    return 0;
}

void *reader(void *arg) {
    int first = cell;
    int second = cell;
    assert(first == second);
    return 0;
}

int main(void) {
    pthread_t r1, r2, w;
    pthread_create(&r1, 0, reader, 0);
    pthread_create(&r2, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_join(r1, 0);
    pthread_join(r2, 0);
    pthread_join(w, 0);
    return 0;
}
