/* The served count of connection_table.c updated outside the lock: between a
 * handler's increment and its check another handler's increment comes in,
 * so the handler does not find the count it wrote.
 * VERDICT 17: violated
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int served;

void *handle(void *arg) {
    int seen = served;
    served = seen + 1;
    int now = served;
    assert(now == seen + 1);
    return 0;
}

int main(void) {
    while (__VERIFIER_nondet_int()) {
        pthread_t t;
        pthread_create(&t, 0, handle, 0);
    }
    return 0;
}
