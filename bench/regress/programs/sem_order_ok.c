/* Three threads append their letter to a log in the order A, B, C enforced by two semaphores
 * (A posts ab, B waits on ab and posts bc, C waits on bc). Invariant: B appends only after A's post,
 * which follows A's append, and C only after B's; so each finds pos equal to its rank.
 * STYLE: rwlock-sem
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t ab, bc;
char logbuf[3];
int pos = 0;

void *ta(void *arg) {
    assert(pos == 0);
    logbuf[pos] = 'A';
    pos = pos + 1;
    sem_post(&ab);
    return 0;
}

void *tb(void *arg) {
    sem_wait(&ab);
    assert(pos == 1);
    logbuf[pos] = 'B';
    pos = pos + 1;
    sem_post(&bc);
    return 0;
}

void *tc(void *arg) {
    sem_wait(&bc);
    assert(pos == 2);
    logbuf[pos] = 'C';
    pos = pos + 1;
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    sem_init(&ab, 0, 0);
    sem_init(&bc, 0, 0);
    pthread_create(&c, 0, tc, 0);
    pthread_create(&b, 0, tb, 0);
    pthread_create(&a, 0, ta, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    assert(logbuf[0] == 'A' && logbuf[1] == 'B' && logbuf[2] == 'C');
    return 0;
}
