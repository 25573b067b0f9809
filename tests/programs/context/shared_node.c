/* A heap node shared through the creation argument: main allocates one
 * node, initialises its lock and hands the same pointer to two threads.
 * The first thread updates the node under the node's lock, raising `busy`
 * meanwhile; the second checks under the lock that the node is not busy.
 *
 * From the updater in the middle of its update (it holds the node's lock,
 * taken in this function) and the checker at its lock: the node is the
 * block main allocated once before starting the threads (materialised in
 * the initial state, both arguments point to it), so the checker's lock
 * is the lock the updater holds and it only looks once `busy` is down:
 * the assertion holds. With fresh symbols the two pointers may designate
 * different nodes (primary objects, aliased conditionally) and the lock
 * may be free.
 *
 * FROM: 32 40
 * UNWIND: 2
 * EXPECT: full=holds -RD=violated -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct node {
    pthread_mutex_t lock;
    int busy, value;
};

void *updater(void *arg) {
    struct node *n = arg;
    pthread_mutex_lock(&n->lock);
    n->busy = 1;
    n->value = n->value * 2;                        /* from here (1): updater */
    n->busy = 0;
    pthread_mutex_unlock(&n->lock);
    return 0;
}

void *checker(void *arg) {
    struct node *n = arg;
    pthread_mutex_lock(&n->lock);                   /* from here (2): checker */
    int busy = n->busy;
    pthread_mutex_unlock(&n->lock);
    assert(busy == 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    struct node *n = malloc(sizeof *n);
    if (!n)
        return 1;
    pthread_mutex_init(&n->lock, 0);
    n->busy = 0;
    n->value = 1;
    pthread_create(&a, 0, updater, n);
    pthread_create(&b, 0, checker, n);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
