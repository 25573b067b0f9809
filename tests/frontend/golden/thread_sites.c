/* pthread_create sites: direct, in a loop, through a function-pointer
 * variable, a parameter, a struct field, and a pointer nobody assigns. */
#include <pthread.h>
typedef void *(*routine)(void *);
struct task { routine run; int arg; };
void *reader(void *arg) { return arg; }
void *writer(void *arg) { return 0; }
void *logger(void *arg) { return 0; }
struct task tasks[2] = { { reader, 0 }, { .run = writer } };

void start(routine r, pthread_t *t) { pthread_create(t, 0, r, 0); }

int main(int argc, char **argv) {
    pthread_t ts[4];
    routine chosen = argc > 1 ? reader : writer;
    routine *unknown = (routine *)argv;
    pthread_create(&ts[0], 0, reader, 0);
    for (int i = 0; i < 2; i++)
        pthread_create(&ts[i], 0, writer, &i);
    pthread_create(&ts[1], 0, chosen, 0);
    start(logger, &ts[2]);
    pthread_create(&ts[3], 0, tasks[1].run, 0);
    pthread_create(&ts[3], 0, *unknown, 0);
    int n = 0;
again:
    pthread_create(&ts[0], 0, reader, 0);
    if (++n < 2)
        goto again;
    return 0;
}
