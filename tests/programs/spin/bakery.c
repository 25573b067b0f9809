/* Lamport's bakery for two threads: take a number one above the largest in
 * sight (announcing it with `choosing`), then wait for every thread that is
 * choosing and for every holder of a smaller number (or the same number and
 * a smaller id). The waits are awaits; the numbers stay below 3.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

int choosing[2];
int number[2];
int inside;

void *customer(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    choosing[me] = 1;
    int a = number[0], b = number[1];
    number[me] = 1 + (a > b ? a : b);
    choosing[me] = 0;
    while (choosing[other])
        ;
    while (number[other] != 0 &&
           (number[other] < number[me] || (number[other] == number[me] && other < me)))
        ;
    inside++;
    assert(inside == 1);
    inside--;
    number[me] = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, customer, (void *)0);
    pthread_create(&b, 0, customer, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
