/* The arbitrary-context paper's Figure 1 in our words: an array of
 * lock-protected slots; one thread bumps a slot in a loop, taking its lock
 * each round, the other adds to the same slot in a loop run entirely under
 * the lock. Both pick the slot from `pick`, which main sets before it
 * starts them.
 *
 * From the marked lines (bumper at its lock, adder inside its loop), a
 * precise context knows that both slots are slot 1 (`pick` is written only
 * before the threads start) and that the adder holds that slot's lock, so
 * the bumper waits for it: the assertion holds. Fresh symbols everywhere
 * let the two slots be the same slot with its lock free, and the adder's
 * write lands between the bumper's write and its check. (The counts are
 * unsigned: a context cannot know their values, which other threads
 * write, and with `int` it would also report the possible overflows.)
 *
 * FROM: 30 40
 * UNWIND: 2
 * EXPECT: full=holds -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>

struct slot { pthread_mutex_t guard; unsigned count; };

struct slot slots[3];
int rounds_bump = 2, rounds_add = 2, pick;

void bump(struct slot *s) {
    for (int r = 0; r < rounds_bump; r++) {
        pthread_mutex_lock(&s->guard);               /* from here (1): bumper */
        unsigned old = s->count;
        s->count = old + 1;
        assert(s->count == old + 1);
        pthread_mutex_unlock(&s->guard);
    }
}

void add(struct slot *s) {
    pthread_mutex_lock(&s->guard);
    for (int r = 0; r < rounds_add; r++) {           /* from here (2): adder */
        s->count = s->count + 5;
    }
    pthread_mutex_unlock(&s->guard);
}

void *bumper(void *unused) {
    int k = pick;
    bump(&slots[k]);
    return 0;
}

void *adder(void *unused) {
    int k = pick;
    add(&slots[k]);
    return 0;
}

int main(void) {
    pthread_t a, b;
    for (int i = 0; i < 3; i++)
        pthread_mutex_init(&slots[i].guard, 0);
    pick = 1;
    pthread_create(&a, 0, bumper, 0);
    pthread_create(&b, 0, adder, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
