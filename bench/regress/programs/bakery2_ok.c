/* Lamport's bakery lock for two threads, each taking a number one above the largest it reads
 * (inside a choosing window) and entering twice. Invariant (sequential consistency): a thread
 * enters only when the other holds no number or a larger (number, id) pair that it chose after
 * waiting for this one's choosing window, so the two are never inside together.
 * STYLE: spin-lock
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

int choosing[2];
int number[2];
int inside = 0;

void lock(int i) {
    choosing[i] = 1;
    int a = number[0];
    int b = number[1];
    number[i] = (a > b ? a : b) + 1;
    choosing[i] = 0;
    for (int j = 0; j < 2; j++) {
        while (choosing[j])
            ;
        while (number[j] != 0 &&
               (number[j] < number[i] || (number[j] == number[i] && j < i)))
            ;
    }
}

void unlock(int i) {
    number[i] = 0;
}

void *customer(void *arg) {
    int id = *(int *)arg;
    for (int k = 0; k < 2; k++) {
        lock(id);
        inside = inside + 1;
        assert(inside == 1);
        inside = inside - 1;
        unlock(id);
    }
    return 0;
}

int main(void) {
    pthread_t t0, t1;
    int id0 = 0, id1 = 1;
    pthread_create(&t0, 0, customer, &id0);
    pthread_create(&t1, 0, customer, &id1);
    pthread_join(t0, 0);
    pthread_join(t1, 0);
    return 0;
}
