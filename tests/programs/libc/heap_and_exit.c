/* A growing buffer shared with a worker: malloc, realloc that keeps the
 * contents, calloc's zeros, free; atexit registration; sleeping and yielding
 * threads; exit before an assertion that would fail past it.
 * The assertion on argc holds for every argc: main reads its command line
 * only as numbers, so the proof is not bounded by --sym-args.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int *items;
int count;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void bye(void) {}

void *producer(void *arg) {
    struct timespec pause = {0, 1000};
    nanosleep(&pause, NULL);
    usleep(10);
    sched_yield();
    pthread_mutex_lock(&lock);
    items[count] = 30;
    count++;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(int argc, char **argv) {
    assert(atexit(bye) == 0);
    items = malloc(2 * sizeof(int));
    items[0] = 10;
    items[1] = 20;
    count = 2;
    items = realloc(items, 4 * sizeof(int));
    assert(items != NULL && items[0] == 10 && items[1] == 20);
    int *zeros = calloc(3, sizeof(int));
    assert(zeros[2] == 0);
    free(zeros);
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    sleep(0);
    pthread_join(t, 0);
    assert(count == 3 && items[2] == 30);
    free(items);
    if (argc > 1000)
        exit(0);
    assert(argc <= 1000);
    return 0;
}
