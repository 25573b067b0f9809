/* VERDICT: holds
 * One thread reads three shared cells, each written once by its own thread.
 * The read/write pairs are independent of each other, so every combination
 * of orders is possible, and every read sees a positive value. */
#include <pthread.h>
#include <assert.h>

int p = 1, q = 1, r = 1;
int seen_p, seen_q, seen_r;

void *observe(void *unused) {
    seen_p = p;
    assert(seen_p > 0);
    seen_q = q;
    assert(seen_q > 0);
    seen_r = r;
    assert(seen_r > 0);
    return 0;
}

void *set_p(void *unused) { p = 7; return 0; }
void *set_q(void *unused) { q = 7; return 0; }
void *set_r(void *unused) { r = 7; return 0; }

int main(void) {
    pthread_t t[4];
    pthread_create(&t[0], 0, observe, 0);
    pthread_create(&t[1], 0, set_p, 0);
    pthread_create(&t[2], 0, set_q, 0);
    pthread_create(&t[3], 0, set_r, 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    return 0;
}
