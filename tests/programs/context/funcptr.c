/* A function pointer chosen by main before the threads start: `apply`
 * points to the locked increment; the unlocked one exists and may be
 * installed by `degrade`, which nothing calls (points-to still counts it).
 *
 * From both workers at the call through `apply` (the same line twice): with
 * reaching definitions `apply` is main's value and both calls go to the
 * locked increment: the assertion holds. Without them the pointer is
 * resolved by points-to (either increment may be called) and then by the
 * solver, and both workers may run the unlocked one.
 *
 * FROM: 42 42
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int count;

void inc(void) {
    int c = count;
    count = c + 1;
    assert(count == c + 1);
}

void locked_inc(void) {
    pthread_mutex_lock(&m);
    inc();
    pthread_mutex_unlock(&m);
}

void racy_inc(void) {
    inc();
}

void (*apply)(void);

void degrade(void) { apply = racy_inc; }

void *worker(void *unused) {
    apply();                                        /* from here (1,2): two workers */
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_mutex_init(&m, 0);
    apply = locked_inc;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
