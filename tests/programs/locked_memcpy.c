/* Copies under one mutex do not tear: the pieces of one memcpy all happen
 * while the lock is held (line 30). memset tears like memcpy (line 29).
 * VERDICT 29: violated
 * VERDICT 30: holds
 */
#include <pthread.h>
#include <assert.h>
#include <string.h>

int shared[2];
int flag[2];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
    int n[2] = {1, 1};
    pthread_mutex_lock(&m);
    memcpy(shared, n, sizeof n);
    pthread_mutex_unlock(&m);
    memset(flag, 0xff, sizeof flag);
    return 0;
}

void *reader(void *arg) {
    int c[2], f[2];
    pthread_mutex_lock(&m);
    memcpy(c, shared, sizeof c);
    pthread_mutex_unlock(&m);
    memcpy(f, flag, sizeof f);
    assert(f[0] == f[1]);
    assert(c[0] == c[1]);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
