/* Independent segments with k = 3 (the assertion-guided paper's Figure 3, our
 * own text): 2^3 distinct final states, every read positive.
 * VERDICT: holds
 * RUNS: baseline=4745
 */
#include <pthread.h>
#include <assert.h>

int p = 1, q = 1, r = 1;

void *checker(void *arg) {
    int u = p;
    assert(u > 0);
    int v = q;
    assert(v > 0);
    int w = r;
    assert(w > 0);
    return 0;
}

void *set_p(void *arg) { p = 5; return 0; }
void *set_q(void *arg) { q = 5; return 0; }
void *set_r(void *arg) { r = 5; return 0; }

int main(void) {
    pthread_t c, s1, s2, s3;
    pthread_create(&c, 0, checker, 0);
    pthread_create(&s1, 0, set_p, 0);
    pthread_create(&s2, 0, set_q, 0);
    pthread_create(&s3, 0, set_r, 0);
    pthread_join(c, 0);
    pthread_join(s1, 0);
    pthread_join(s2, 0);
    pthread_join(s3, 0);
    return 0;
}
