/* A failing assertion aborts the whole process: a counterexample ends at the
 * first assertion that fails. t2's counterexample is t1 writing g = 1, t2
 * reading it and failing before t1 checks its own assertion; t1's failure
 * must not appear in it.
 * VERDICT 16: violated
 * VERDICT 23: violated
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

int g;

void *t1(void *arg) {
    g = 1;
    assert(g == 0);
    return 0;
}

void *t2(void *arg) {
    int l = 0;
    l = g;
    assert(l != 1);
    return 0;
}

int main(void) {
    pthread_t h0, h1;
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t2, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    return 0;
}
