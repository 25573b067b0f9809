/* Lamport's bakery without the `choosing` flags: a thread can compare its
 * number with the other's before the other has stored the number it picked,
 * see 0, and enter; the other then picks the same number, wins the tie on its
 * smaller id, and enters too.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

int number[2];
int inside;

void *customer(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    int a = number[0], b = number[1];
    number[me] = 1 + (a > b ? a : b);
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
