/* Version numbers move by 2, so that the low bit stays free for a flag
 * kept beside them: every version a reader sees is even, however many
 * writers have bumped it and in whatever order. From a reader about to read
 * it, with main waiting for the writers, the version is unknown but even.
 *
 * FROM: 26 37
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int version = 0;

void *writer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    version = version + 2;
    pthread_mutex_unlock(&m);
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    int v = version;
    assert(v % 2 == 0);
    return 0;
}

int main(void) {
    pthread_t w[2], r;
    for (int i = 0; i < 2; i++)
        pthread_create(&w[i], 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], 0);
    pthread_join(r, 0);
    return 0;
}
