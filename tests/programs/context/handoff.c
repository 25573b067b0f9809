/* Lock handoff: the writer moves one unit from `left` to `right` under
 * `bank`, raising `moving` while the books are inconsistent; the auditor
 * takes `bank` and checks that nothing is in flight.
 *
 * From the writer in the middle of its move (it holds `bank`: it locked it
 * in this function and has not unlocked it) and the auditor at its lock,
 * the auditor can only get `bank` after the writer has lowered `moving`
 * and unlocked: the assertion holds. Without the lock invariant `bank` may
 * be free (or held by the auditor itself), and the auditor reads `moving`
 * while it is up. The lockset needs no reaching definition here (`&bank`
 * is a constant), so only the runs without synchronization invariants fail.
 *
 * FROM: 27 34
 * UNWIND: 2
 * EXPECT: full=holds -RD=holds -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t bank;
int left, right, moving;

void *writer(void *unused) {
    pthread_mutex_lock(&bank);
    moving = 1;
    left = left - 1;
    right = right + 1;                                /* from here (1): writer */
    moving = 0;
    pthread_mutex_unlock(&bank);
    return 0;
}

void *auditor(void *unused) {
    pthread_mutex_lock(&bank);                        /* from here (2): auditor */
    int busy = moving;
    pthread_mutex_unlock(&bank);
    assert(busy == 0);
    return 0;
}

int main(void) {
    pthread_t w, a;
    pthread_mutex_init(&bank, 0);
    left = 6;
    right = 4;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&a, 0, auditor, 0);
    pthread_join(w, 0);
    pthread_join(a, 0);
    return 0;
}
