/* Sigma style: each thread claims the next free slot of an array by reading
 * and bumping a shared index without a lock, then marks its slot. Two
 * threads can claim the same slot, so the marks need not add up.
 * EXPECT: violated
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

int slots[2];
int next;

void *claim(void *arg) {
    int mine = next;
    next = mine + 1;
    slots[mine] = 1;
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        pthread_create(&t[k], 0, claim, 0);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], 0);
    assert(slots[0] + slots[1] == 2);
    return 0;
}
