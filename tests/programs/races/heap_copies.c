/* RACES: heap@27 write@18 read@31
 * A worker fills a heap buffer with memset and copies it to a stack array
 * of main's that main passed by pointer; main reads the array after the
 * join (no race) but peeks at the buffer before it (a race with memset). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

struct job {
    char *buf;
    char *out;
};

void *worker(void *arg)
{
    struct job *j = arg;
    memset(j->buf, 7, 4);
    memcpy(j->out, j->buf, 4);
    return 0;
}

int main(void)
{
    char out[4];
    struct job j;
    j.buf = malloc(4);
    j.out = out;
    pthread_t t;
    pthread_create(&t, 0, worker, &j);
    char peek = j.buf[0];
    pthread_join(t, 0);
    assert(out[3] == 7);
    return peek;
}
