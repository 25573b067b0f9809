/* A lock taken only on some paths: the mover locks `books` when `careful`
 * is set, and main set it before starting any thread, so in fact it always
 * does. The reader takes `books` and checks that no move is in flight.
 *
 * From the mover in the middle of its move and the reader at its lock:
 * with reaching definitions `careful` is 1, the branch that skips the lock
 * cannot run, and the mover must hold `books`: the assertion holds. Without
 * them the lock is only maybe held (a may-lockset entry): the lock may be
 * free, and the reader sees the move in flight. Without synchronization
 * invariants the lock may be free as well.
 *
 * FROM: 28 36
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t books;
int careful, moving, left, right;

void *mover(void *unused) {
    int c = careful;
    if (c)
        pthread_mutex_lock(&books);
    moving = 1;
    left = left - 1;
    right = right + 1;                              /* from here (1): mover */
    moving = 0;
    if (c)
        pthread_mutex_unlock(&books);
    return 0;
}

void *reader(void *unused) {
    pthread_mutex_lock(&books);                     /* from here (2): reader */
    int busy = moving;
    pthread_mutex_unlock(&books);
    assert(busy == 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_mutex_init(&books, 0);
    careful = 1;
    pthread_create(&a, 0, mover, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
