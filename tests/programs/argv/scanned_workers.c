/* The thread count read with sscanf("%d"), as benchmark tasks read theirs,
 * and rejected outside 1..3: each worker takes one slot of a table under a
 * lock, and every slot taken is one of the table's. sscanf of an argument
 * with one integer conversion is in the model of every command line, so
 * the proof is for every command line.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define SLOTS 3
int next, table[SLOTS];
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *claim(void *arg) {
    pthread_mutex_lock(&lock);
    int mine = next++;
    pthread_mutex_unlock(&lock);
    assert(mine < SLOTS);
    table[mine] = 1;
    return 0;
}

int main(int argc, char **argv) {
    int n = 0;
    if (argc != 2 || sscanf(argv[1], "%d", &n) != 1 || n < 1 || n > SLOTS)
        return 1;
    pthread_t t[SLOTS];
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], 0, claim, 0);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], 0);
    return 0;
}
