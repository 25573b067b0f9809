/* A pool of four workers on a job queue guarded by a mutex and a condition
 * variable: main queues four jobs, then tells the pool to stop and
 * broadcasts; each worker takes jobs until the queue is empty and stopping
 * is set, adding each job to the total under the lock.
 * EXPECT: holds */
#include <pthread.h>
#include <assert.h>

#define WORKERS 4
#define JOBS 4

int queue[JOBS];
int head, tail;
int stopping;
int total;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t ready = PTHREAD_COND_INITIALIZER;

void *worker(void *arg) {
    for (;;) {
        pthread_mutex_lock(&lock);
        while (head == tail && !stopping)
            pthread_cond_wait(&ready, &lock);
        if (head == tail) {
            pthread_mutex_unlock(&lock);
            return 0;
        }
        int job = queue[head++];
        total += job;
        pthread_mutex_unlock(&lock);
    }
}

int main(void) {
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int j = 1; j <= JOBS; j++) {
        pthread_mutex_lock(&lock);
        queue[tail++] = j;
        pthread_cond_signal(&ready);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    stopping = 1;
    pthread_cond_broadcast(&ready);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], 0);
    assert(total == JOBS * (JOBS + 1) / 2);
    return 0;
}
