/* Differential regression: deadlock_beside_a_violation
 * Engine (all modes): the assertion is violated, as it should be, but no
 * deadlock is reported. The two threads take a and b in opposite orders, so
 * t1 holding a and t2 holding b deadlocks; the check seems to stop exploring
 * once the assertion fails, so the deadlocking runs are never met. Without the
 * failing assertion (g == 2 instead) the same deadlock is reported.
 * ORACLE line 47: violated  (inputs {}: main: create t1; main: create t2; t1#1: lock a; t1#1: lock b; t1#1: read g == 0; t1#1: write g = 1; t1#1: unlock b; t1#1: unlock a; main: join h0; t2#2: lock b; t2#2: lock a; t2#2: read g == 1; t2#2: write g = 2; t2#2: unlock a; t2#2: unlock b; main: join h1; main: read g == 2; main: assert(g != 2) == 0)
 * ORACLE deadlock: yes  (inputs {}: main: create t1; main: create t2; t1#1: lock a; t2#2: lock b)
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g;
pthread_mutex_t a;
pthread_mutex_t b;

void *t1(void *arg) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    g = g + 1;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return 0;
}

void *t2(void *arg) {
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    g = g + 1;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return 0;
}

int main(void) {
    pthread_t h0;
    pthread_t h1;
    pthread_mutex_init(&a, 0);
    pthread_mutex_init(&b, 0);
    pthread_create(&h0, 0, t1, 0);
    pthread_create(&h1, 0, t2, 0);
    pthread_join(h0, 0);
    pthread_join(h1, 0);
    assert(g != 2);
    return 0;
}
