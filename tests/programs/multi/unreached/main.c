/* VERDICT: holds
   The program's main, which does not call retry.c. */
#include <assert.h>
#include <pthread.h>

int flag;

static void *set(void *arg) {
    flag = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, set, 0);
    pthread_join(t, 0);
    assert(flag == 1);
    return 0;
}
