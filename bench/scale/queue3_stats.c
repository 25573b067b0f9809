/* Three workers each take one job from a queue guarded by a mutex and a
 * condition variable (`while` guard), then count it under a second lock;
 * main posts three jobs with a signal each. The scale issue's three-worker
 * queue with a statistics file, as one file.
 * EXPECT: holds */
#include <pthread.h>
#include <assert.h>
#define N 3
int q[N];
int head = 0, tail = 0, count = 0;
int done_jobs = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t sm = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    while (count == 0)
        pthread_cond_wait(&nonempty, &m);
    int job = q[head];
    head = (head + 1) % N;
    count--;
    pthread_mutex_unlock(&m);
    assert(job > 0);
    pthread_mutex_lock(&sm);
    done_jobs++;
    pthread_mutex_unlock(&sm);
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
    assert(done_jobs == N);
    return 0;
}
