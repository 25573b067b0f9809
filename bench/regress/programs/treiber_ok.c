/* A Treiber stack with __sync_bool_compare_and_swap on top: two threads each push their own node and
 * then pop one. Invariant: every pop starts after its own thread's push and at most one other pop
 * has finished, so the stack is never empty when popped; nodes are pushed once, so each pop returns
 * a different node and the values 1 and 2 both come back.
 * STYLE: lock-free
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct node {
    int val;
    struct node *next;
};

struct node nodes[2];
struct node *top = NULL;
int got[2];

void push(struct node *n) {
    struct node *old;
    do {
        old = top;
        n->next = old;
    } while (!__sync_bool_compare_and_swap(&top, old, n));
}

struct node *pop(void) {
    struct node *old, *nx;
    do {
        old = top;
        if (old == NULL)
            return NULL;
        nx = old->next;
    } while (!__sync_bool_compare_and_swap(&top, old, nx));
    return old;
}

void *worker(void *arg) {
    int id = *(int *)arg;
    nodes[id].val = id + 1;
    push(&nodes[id]);
    struct node *n = pop();
    assert(n != NULL);
    got[id] = n->val;
    return 0;
}

int main(void) {
    pthread_t t0, t1;
    int id0 = 0, id1 = 1;
    pthread_create(&t0, 0, worker, &id0);
    pthread_create(&t1, 0, worker, &id1);
    pthread_join(t0, 0);
    pthread_join(t1, 0);
    assert(got[0] != got[1]);
    assert(got[0] + got[1] == 3);
    return 0;
}
