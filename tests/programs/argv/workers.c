/* A worker count read from the command line with strtol, and checked before
 * the pool starts: each worker adds its share to a total under a lock, and
 * main finds every share there, whatever the argument. main reads its
 * command line only as a number, so the proof is for every command line,
 * of any length, not only those within --sym-args and --sym-arg-len.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int total;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *work(void *arg) {
    pthread_mutex_lock(&lock);
    total += 10;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2)
        return 1;
    char *end;
    long n = strtol(argv[1], &end, 10);
    if (end == argv[1] || n < 1 || n > 4)
        return 1;
    pthread_t t[4];
    for (long i = 0; i < n; i++)
        pthread_create(&t[i], 0, work, 0);
    for (long i = 0; i < n; i++)
        pthread_join(t[i], 0);
    assert(total == 10 * n);
    return 0;
}
