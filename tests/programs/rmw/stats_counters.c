/* VERDICT: holds
 * Three workers each handle two requests and keep statistics the way servers
 * do: a request counter and a byte total bumped with atomic_fetch_add, error
 * flags or-ed into a mask, and a checksum xor-ed in, none of them reading the
 * old value. Whatever the order, main sees the totals after the joins. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_uint requests;
atomic_ulong bytes;
atomic_uint errors;
atomic_uint checksum;

void *worker(void *arg) {
    unsigned id = (unsigned)(unsigned long)arg;
    for (int i = 0; i < 2; i++) {
        atomic_fetch_add(&requests, 1);
        atomic_fetch_add_explicit(&bytes, 100 + id, memory_order_relaxed);
        if (id == 2)
            atomic_fetch_or(&errors, 1u << i);
        atomic_fetch_xor(&checksum, id << (4 * i));
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (unsigned long i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(requests == 6);
    assert(bytes == 606);
    assert(errors == 3);
    assert(checksum == (0u ^ 1u ^ 2u ^ (1u << 4) ^ (2u << 4)));
    return 0;
}
