/* main fills eight cells with nondet values in [0, 1000]; four workers fold the maximum of their
 * two cells into a global maximum by an unlocked check-then-write, so a smaller maximum can
 * overwrite a larger one (schedule: worker 0 passes its check, worker 1 stores a larger maximum,
 * worker 0 stores its own) and a cell then exceeds gmax.
 * STYLE: thread-array
 * EXPECT: false
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

void *worker(void *arg) {
    int id = *(int *)arg;
    int a = cells[2 * id], b = cells[2 * id + 1];
    int local = a > b ? a : b;
    if (local > gmax)
        gmax = local;
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
