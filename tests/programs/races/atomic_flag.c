/* RACES: none
 * Message passing: the writer publishes `data` by an atomic store to `ready`;
 * the reader reads `data` only after an atomic load saw the flag set. */
#include <pthread.h>
#include <assert.h>

int data;
int ready;

void *writer(void *arg)
{
    (void)arg;
    data = 42;
    __atomic_store_n(&ready, 1, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    if (__atomic_load_n(&ready, __ATOMIC_SEQ_CST))
        assert(data == 42);
    pthread_join(t, 0);
    return 0;
}
