/* C11 threads: a worker that gives up on mtx_trylock (thrd_busy) but still
 * counts its item loses the count's exclusivity.
 * VERDICT: violated
 */
#include <threads.h>
#include <assert.h>

mtx_t lock;
int items;

int worker(void *arg) {
    if (mtx_trylock(&lock) == thrd_busy) {
        items++; /* without the lock */
        return 0;
    }
    items++;
    mtx_unlock(&lock);
    return 0;
}

int main(void) {
    thrd_t a, b;
    mtx_init(&lock, mtx_plain | mtx_recursive);
    thrd_create(&a, worker, 0);
    thrd_create(&b, worker, 0);
    thrd_join(a, 0);
    thrd_join(b, 0);
    assert(items == 2);
    return 0;
}
