/* VERDICT: holds
 * A writer stores two increasing values into a shared cell; a reader reads it
 * twice and checks the second read is not older than the first. The start
 * value is symbolic, and large start values end the program early. */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int cell;

void *writer(void *unused) {
    cell = 5;
    cell = 15;
    return 0;
}

void *reader(void *unused) {
    int first = cell;
    int second = cell;
    assert(first <= second);
    return 0;
}

int main(void) {
    pthread_t w, r;
    cell = __VERIFIER_nondet_int();
    if (cell > 5)
        return 0;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
