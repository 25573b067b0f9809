/* RACES: cells write@16 write@30
 * A worker writes cells[i] and main writes cells[j] for inputs i and j:
 * they race when i == j, which the inputs allow. The writes to spare[i] and
 * spare[k] cannot meet (k is kept apart from i) and do not race. */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
int cells[4];
int spare[4];
int i;

void *worker(void *arg)
{
    (void)arg;
    cells[i] = 1;
    spare[i] = 1;
    return 0;
}

int main(void)
{
    pthread_t t;
    i = __VERIFIER_nondet_int();
    int j = __VERIFIER_nondet_int();
    int k = __VERIFIER_nondet_int();
    if (i < 0 || i > 1 || j < 0 || j > 3 || k < 2 || k > 3)
        return 0;
    pthread_create(&t, 0, worker, 0);
    cells[j] = 2;
    spare[k] = 2;
    pthread_join(t, 0);
    assert(cells[i] != 0);
    return 0;
}
