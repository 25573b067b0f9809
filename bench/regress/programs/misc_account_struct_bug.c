/* Two accounts live in a struct shared by pointer; a transfer thread moves 10 from a to b in two
 * unlocked steps while an auditor checks the total is 100, and it can read between the steps
 * (schedule: the transfer subtracts 10 from a, the auditor reads a == 40 and b == 50).
 * STYLE: reach-error-misc
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);

struct bank {
    pthread_mutex_t m;
    int a;
    int b;
};

void *transfer(void *arg) {
    struct bank *bk = arg;
    bk->a = bk->a - 10;
    bk->b = bk->b + 10;
    return NULL;
}

void *audit(void *arg) {
    struct bank *bk = arg;
    pthread_mutex_lock(&bk->m);
    int total = bk->a + bk->b;
    pthread_mutex_unlock(&bk->m);
    if (total != 100) {
    ERROR:
        reach_error();
        abort();
    }
    return NULL;
}

int main(void) {
    static struct bank bk;
    pthread_t t1, t2;
    pthread_mutex_init(&bk.m, NULL);
    bk.a = 50;
    bk.b = 50;
    pthread_create(&t1, NULL, transfer, &bk);
    pthread_create(&t2, NULL, audit, &bk);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
