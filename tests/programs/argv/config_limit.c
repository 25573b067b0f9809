/* A configuration value on the command line: how many items the producer
 * makes, read with sscanf's %d. Nothing checks it against the buffer's
 * capacity, so an argument above 4 lets the producer overrun it; the
 * counterexample shows the argument (argv[1] = "5", or another number
 * above 4), and the reproducer runs the program with it.
 * VERDICT 21: violated
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define CAPACITY 4
int count, limit = CAPACITY;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
    for (int i = 0; i < limit; i++) {
        pthread_mutex_lock(&lock);
        count++;
        assert(count <= CAPACITY);
        pthread_mutex_unlock(&lock);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && sscanf(argv[1], "%d", &limit) != 1)
        return 1;
    pthread_t p;
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    return 0;
}
