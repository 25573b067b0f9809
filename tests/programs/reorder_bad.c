/* Like reorder.c, but asserting that both reads agree: an interleaving with
 * the writer's first store between the two reads breaks it.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int shared;

void *writer(void *arg) {
    shared = 10;
    shared = 20;
    return 0;
}

void *reader(void *arg) {
    int first = shared;
    int second = shared;
    assert(first == second);
    return 0;
}

int main(void) {
    pthread_t w, r;
    shared = __VERIFIER_nondet_int();
    if (shared > 10)
        return 0;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
