/* C11 thread-specific storage: each worker keeps its own value under one
 * tss_t key and reads back its own.
 * VERDICT: holds
 * FINDING: none
 */
#include <threads.h>
#include <assert.h>

tss_t key;
int slots[2];

int worker(void *arg) {
    int *mine = arg;
    tss_set(key, mine);
    *mine = mine == &slots[0] ? 1 : 2;
    int *back = tss_get(key);
    assert(back == mine);
    return 0;
}

int main(void) {
    thrd_t a, b;
    tss_create(&key, 0);
    thrd_create(&a, worker, &slots[0]);
    thrd_create(&b, worker, &slots[1]);
    thrd_join(a, 0);
    thrd_join(b, 0);
    assert(slots[0] + slots[1] == 3);
    tss_delete(key);
    return 0;
}
