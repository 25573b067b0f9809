/* C11 atomics: counter++ and total += k on _Atomic objects are atomic
 * read-modify-writes, so no update is lost; "plain = plain + 1" on an
 * atomic_int is a load and a store, two atomic operations, and loses one.
 * VERDICT 32: holds
 * VERDICT 33: holds
 * VERDICT 34: violated
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int counter;
_Atomic long total = ATOMIC_VAR_INIT(0);
atomic_int plain;

void *worker(void *arg) {
    counter++;
    total += 5;
    plain = plain + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int c = atomic_load(&counter);
    long t = atomic_load_explicit(&total, memory_order_acquire);
    int p = plain;
    assert(c == 2);
    assert(t == 10);
    assert(p == 2);
    return 0;
}
