/* main picks the mode (3) before starting the threads; afterwards only the
 * switcher writes it, and only the constant 5. So in every run the mode a
 * reader sees is 3 or 5, never the static 0 nor anything else: the value
 * at the first pthread_create, plus the constants stored after it.
 *
 * FROM: 23 34
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=holds naive=violated
 */
#include <pthread.h>
#include <assert.h>

int mode;

void *switcher(void *arg) {
    (void)arg;
    mode = 5;
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    int m = mode;
    assert(m == 3 || m == 5);
    return 0;
}

int main(void) {
    pthread_t a, b;
    mode = 3;
    pthread_create(&a, 0, switcher, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
