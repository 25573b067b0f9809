/* Dekker's algorithm for two threads: a thread that wants in while the other
 * does backs off if it is not its turn (lowers its flag and spins on the
 * turn), then tries again. The back-off rounds write the flag, so they count
 * against the bound; the spins inside them are awaits.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

int wants0, wants1;
int turn;
int inside;

void *zero(void *arg) {
    wants0 = 1;
    while (wants1) {
        if (turn != 0) {
            wants0 = 0;
            while (turn != 0)
                ;
            wants0 = 1;
        }
    }
    inside++;
    assert(inside == 1);
    inside--;
    turn = 1;
    wants0 = 0;
    return 0;
}

void *one(void *arg) {
    wants1 = 1;
    while (wants0) {
        if (turn != 1) {
            wants1 = 0;
            while (turn != 1)
                ;
            wants1 = 1;
        }
    }
    inside++;
    assert(inside == 1);
    inside--;
    turn = 0;
    wants1 = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, zero, 0);
    pthread_create(&b, 0, one, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
