/* A reader checks a shared index is in range and then reads the shared index again to use it, while
 * an updater stores a new nondet value; the value used need not be the value checked (schedule: the
 * reader sees shared == 3 < 8, the updater stores 12, the reader uses 12).
 * STYLE: reach-error-misc
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

#define LEN 8
int shared;
int used = -1;

void *updater(void *arg) {
    int v = __VERIFIER_nondet_int();
    shared = v;
    return NULL;
}

void *reader(void *arg) {
    if (shared >= 0 && shared < LEN)
        used = shared;
    return NULL;
}

int main(void) {
    pthread_t u, r;
    shared = __VERIFIER_nondet_int();
    __VERIFIER_assume(shared >= 0 && shared < LEN);
    pthread_create(&u, NULL, updater, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(u, NULL);
    pthread_join(r, NULL);
    if (used >= LEN) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
