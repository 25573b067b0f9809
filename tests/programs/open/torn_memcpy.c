/* Known wrong verdict (open): memcpy is executed as one step, so the
 * reader's copy never interleaves with the writer's; real memcpy copies tear.
 * VERDICT 20: violated
 */
#include <pthread.h>
#include <assert.h>
#include <string.h>

int shared[8];

void *writer(void *arg) {
    int n[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    memcpy(shared, n, sizeof n);
    return 0;
}

void *reader(void *arg) {
    int c[8];
    memcpy(c, shared, sizeof c);
    assert(c[0] == c[7]);
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
