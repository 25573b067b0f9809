/* Four workers each take one job from a queue of four slots; a worker
 * waits for a job with `if` instead of `while`, so a worker woken by a
 * signal meant for another (or spuriously, as POSIX allows) takes from
 * an empty queue and gets slot 0's stale value, 0.
 * VERDICT: violated
 * The search for deadlocks after the violation has hundreds of thousands of
 * runs to go: with the default flags it stops at its budget and says so. */
#include <pthread.h>
#include <assert.h>

#define N 4

int q[N];
int head = 0, tail = 0, count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    if (count == 0)
        pthread_cond_wait(&nonempty, &m);
    int job = q[head];
    head = (head + 1) % N;
    count--;
    pthread_mutex_unlock(&m);
    assert(job > 0);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < N; i++) {
        pthread_mutex_lock(&m);
        q[tail] = i + 1;
        tail = (tail + 1) % N;
        count++;
        pthread_cond_signal(&nonempty);
        pthread_mutex_unlock(&m);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
