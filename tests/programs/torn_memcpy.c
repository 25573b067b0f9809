/* memcpy of shared memory moves 4 bytes per visible step, so racing copies
 * tear as they can in C: the reader sees c[0] == 1 and c[3] == 0. (memcpy
 * was once one step, and this assertion was wrongly reported as holding.)
 * VERDICT 21: violated
 */
#include <pthread.h>
#include <assert.h>
#include <string.h>

int shared[4];

void *writer(void *arg) {
    int n[4] = {1, 1, 1, 1};
    memcpy(shared, n, sizeof n);
    return 0;
}

void *reader(void *arg) {
    int c[4];
    memcpy(c, shared, sizeof c);
    assert(c[0] == c[3]);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
