/* main fills eight cells with nondet values in [0, 1000]; four workers each take the maximum of
 * their two cells and fold it into a global maximum under a mutex. Invariant: the locked fold never
 * lowers gmax, so after the joins gmax is at least every cell.
 * STYLE: thread-array
 * EXPECT: true
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

#define W 4

int cells[2 * W];
int gmax = -1;
int ids[W];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    int id = *(int *)arg;
    int a = cells[2 * id], b = cells[2 * id + 1];
    int local = a > b ? a : b;
    pthread_mutex_lock(&m);
    if (local > gmax)
        gmax = local;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t t[W];
    int i;
    for (i = 0; i < 2 * W; i++) {
        cells[i] = __VERIFIER_nondet_int();
        __VERIFIER_assume(cells[i] >= 0 && cells[i] <= 1000);
    }
    for (i = 0; i < W; i++) {
        ids[i] = i;
        pthread_create(&t[i], NULL, worker, &ids[i]);
    }
    for (i = 0; i < W; i++)
        pthread_join(t[i], NULL);
    for (i = 0; i < 2 * W; i++)
        if (cells[i] > gmax) {
        ERROR:
            reach_error();
        }
    return 0;
}
