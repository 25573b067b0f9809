/* A file of a small project: its headers are under include/ (found with
 * -Iinclude), WORKERS comes from -DWORKERS=3, and compile_commands.json
 * beside this directory holds both. With POOL_UNLOCKED defined (-D on the
 * command line) the counter loses updates.
 * VERDICT: holds
 */
#include <assert.h>
#include <pool/config.h>
#include "pool/counter.h"

struct counter done = { PTHREAD_MUTEX_INITIALIZER, 0 };

void *worker(void *arg) {
    for (int i = 0; i < ITEMS_PER_WORKER; i++)
        counter_add(&done, 1);
    return 0;
}

int main(void) {
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], 0);
    assert(done.value == WORKERS * ITEMS_PER_WORKER);
    return 0;
}
