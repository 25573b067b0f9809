/* C11 call_once: the counter is set up once, before either worker uses it.
 * VERDICT: holds
 * FINDING: none
 */
#include <threads.h>
#include <assert.h>

once_flag flag = ONCE_FLAG_INIT;
int base;
int setups;

void setup(void) {
    setups++;
    base = 100;
}

int worker(void *arg) {
    call_once(&flag, setup);
    assert(base == 100);
    return 0;
}

int main(void) {
    thrd_t a, b;
    thrd_create(&a, worker, 0);
    thrd_create(&b, worker, 0);
    thrd_join(a, 0);
    thrd_join(b, 0);
    assert(setups == 1);
    return 0;
}
