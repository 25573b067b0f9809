/* A struct assignment is copied scalar by scalar, as C has it: the copies
 * race and the reader can see v[0] == 1, v[7] == 0. (It was once one step,
 * and this assertion was wrongly reported as holding.)
 * VERDICT 20: violated
 */
#include <pthread.h>
#include <assert.h>

struct block { int v[8]; };
struct block shared;

void *writer(void *arg) {
    struct block n = {{1, 1, 1, 1, 1, 1, 1, 1}};
    shared = n;
    return 0;
}

void *reader(void *arg) {
    struct block c = shared;
    assert(c.v[0] == c.v[7]);
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
