/* Independent segments (the assertion-guided paper's Figure 3 with k = 2, our
 * own text): each (read, check) pair races one writer, independently of the
 * other pair. Every value a read can see is positive.
 * VERDICT: holds
 * RUNS: baseline=113
 */
#include <pthread.h>
#include <assert.h>

int p = 1, q = 1;

void *checker(void *arg) {
    int u = p;
    assert(u > 0);
    int v = q;
    assert(v > 0);
    return 0;
}

void *set_p(void *arg) { p = 7; return 0; }
void *set_q(void *arg) { q = 7; return 0; }

int main(void) {
    pthread_t c, s1, s2;
    pthread_create(&c, 0, checker, 0);
    pthread_create(&s1, 0, set_p, 0);
    pthread_create(&s2, 0, set_q, 0);
    pthread_join(c, 0);
    pthread_join(s1, 0);
    pthread_join(s2, 0);
    return 0;
}
