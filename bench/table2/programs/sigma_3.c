/* Sigma style with three threads claiming slots through an unlocked
 * shared index.
 * EXPECT: violated
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

int slots[3];
int next;

void *claim(void *arg) {
    int mine = next;
    next = mine + 1;
    slots[mine] = 1;
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int k = 0; k < 3; k++)
        pthread_create(&t[k], 0, claim, 0);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], 0);
    assert(slots[0] + slots[1] + slots[2] == 3);
    return 0;
}
