/* Blind writes that a thread reads while the others still write: the reader may see any
 * writer's value, or the initial one, and its second read may see a later write.
 */
#include <pthread.h>
#include <assert.h>

int flag;
int first, second;

void *writer(void *arg) {
    flag = (int)(long)arg;
    flag = (int)(long)arg + 10;
    return 0;
}

void *reader(void *arg) {
    first = flag;
    second = flag;
    return 0;
}

int main(void) {
    pthread_t a, b, r;
    pthread_create(&a, 0, writer, (void *)1L);
    pthread_create(&b, 0, writer, (void *)2L);
    pthread_create(&r, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(r, 0);
    assert(first != 11 || second != 2);  /* violated: a ends, r reads 11, b writes 2, r reads 2 */
    assert(first == 0 || first == 1 || first == 2 || first == 11 || first == 12);  /* holds */
    return 0;
}
