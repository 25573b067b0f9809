/* Status words written blindly: four workers each publish their id into `owner` and `stage`
 * (no one reads them until the workers are joined), as a "last one wins" diagnostic field does.
 * Every order of the writes is a separate Mazurkiewicz trace; only which write each final read
 * sees matters.
 * EXPECT: true
 */
#include <pthread.h>
#include <assert.h>

int owner, stage, done_count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    int id = (int)(long)arg;
    owner = id;
    stage = id * 10;
    pthread_mutex_lock(&m);
    done_count++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)(i + 1));
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    assert(done_count == 4);
    assert(owner >= 1 && owner <= 4 && stage % 10 == 0);
    return 0;
}
