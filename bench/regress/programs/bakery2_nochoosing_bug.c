/* Lamport's bakery lock for two threads without the choosing flags: a thread can read the other's
 * number as 0, be overtaken, and then publish an equal number with a smaller id (schedule:
 * customer 0 reads both numbers as 0; customer 1 takes number 1 and enters; customer 0 stores
 * number 1, wins the tie on id and enters too).
 * STYLE: spin-lock
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

int number[2];
int inside = 0;

void lock(int i) {
    int a = number[0];
    int b = number[1];
    number[i] = (a > b ? a : b) + 1;
    for (int j = 0; j < 2; j++) {
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
