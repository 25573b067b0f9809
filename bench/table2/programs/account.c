/* A bank account: deposit and withdraw under the account's lock, with a
 * symbolic opening balance; the final balance is the opening one plus the
 * deposit minus the withdrawal.
 * EXPECT: holds
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int balance;
pthread_mutex_t m;

void *deposit(void *arg) {
    pthread_mutex_lock(&m);
    balance = balance + 10;
    pthread_mutex_unlock(&m);
    return 0;
}

void *withdraw(void *arg) {
    pthread_mutex_lock(&m);
    if (balance >= 5)
        balance = balance - 5;
    else
        balance = balance - 0;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t d, w;
    int open = __VERIFIER_nondet_int();
    __VERIFIER_assume(open >= 5 && open < 1000);
    balance = open;
    pthread_mutex_init(&m, 0);
    pthread_create(&d, 0, deposit, 0);
    pthread_create(&w, 0, withdraw, 0);
    pthread_join(d, 0);
    pthread_join(w, 0);
    assert(balance == open + 5);
    return 0;
}
