/* Two threads increment a shared counter without a lock.
 *
 * `hits++` is a read of `hits` followed by a write, and another thread may
 * run in between: both threads read 0, both write 1, and main sees 1.
 *
 * distaff reports: the assertion in main can fail (error), with the schedule
 * that makes it fail as notes: the two reads of 0 before either write.
 * `distaff check examples/racy_counter.c` exits with status 1.
 *
 * VERDICT: violated
 * EXIT: 1
 */
#include <pthread.h>
#include <assert.h>

int hits;

void *visit(void *arg) {
    hits++;
    return 0;
}

int main(void) {
    pthread_t first, second;
    pthread_create(&first, 0, visit, 0);
    pthread_create(&second, 0, visit, 0);
    pthread_join(first, 0);
    pthread_join(second, 0);
    assert(hits == 2);
    return 0;
}
