/* C11 <threads.h>: workers made with thrd_create add under an mtx_t and
 * signal a cnd_t when the last is done; main waits on the condition, then
 * joins them and reads their int results through thrd_join.
 * VERDICT: holds
 * FINDING: none
 */
#include <threads.h>
#include <assert.h>

mtx_t lock;
cnd_t all_done;
int finished, total;

int worker(void *arg) {
    int amount = *(int *)arg;
    mtx_lock(&lock);
    total += amount;
    finished++;
    if (finished == 2)
        cnd_signal(&all_done);
    mtx_unlock(&lock);
    return amount * 10;
}

int main(void) {
    thrd_t a, b;
    int one = 1, two = 2, ra = 0, rb = 0;
    mtx_init(&lock, mtx_plain);
    cnd_init(&all_done);
    thrd_create(&a, worker, &one);
    thrd_create(&b, worker, &two);
    mtx_lock(&lock);
    while (finished < 2)
        cnd_wait(&all_done, &lock);
    assert(total == 3);
    mtx_unlock(&lock);
    thrd_join(a, &ra);
    thrd_join(b, &rb);
    assert(ra + rb == 30);
    mtx_destroy(&lock);
    cnd_destroy(&all_done);
    return 0;
}
