/* Two transfers between accounts take the accounts' locks in opposite order.
 *
 * If `to_savings` takes `checking_lock` and then `to_checking` takes
 * `savings_lock`, each waits forever for the lock the other holds. On every
 * run that does finish, both transfers were counted under both locks, so the
 * assertion in main holds.
 *
 * distaff reports: a deadlock (warning) with the schedule that reaches it as
 * notes, and the assertion holds on every run that reaches it. A deadlock
 * counts as found: exit status 1.
 *
 * VERDICT: holds
 * FINDINGS: deadlock
 * EXIT: 1
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t checking_lock, savings_lock;
int transfers;

void *to_savings(void *arg) {
    pthread_mutex_lock(&checking_lock);
    pthread_mutex_lock(&savings_lock);
    transfers = transfers + 1;
    pthread_mutex_unlock(&savings_lock);
    pthread_mutex_unlock(&checking_lock);
    return 0;
}

void *to_checking(void *arg) {
    pthread_mutex_lock(&savings_lock);
    pthread_mutex_lock(&checking_lock);
    transfers = transfers + 1;
    pthread_mutex_unlock(&checking_lock);
    pthread_mutex_unlock(&savings_lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_mutex_init(&checking_lock, 0);
    pthread_mutex_init(&savings_lock, 0);
    pthread_create(&a, 0, to_savings, 0);
    pthread_create(&b, 0, to_checking, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(transfers == 2);
    return 0;
}
