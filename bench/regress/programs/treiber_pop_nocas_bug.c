/* A Treiber stack whose push uses compare-and-swap but whose pop reads top and writes top->next
 * back with plain accesses: two pops can both take the same node (schedule: both threads push,
 * both pops read the same top, both store its next), so the two popped values are equal.
 * STYLE: lock-free
 * EXPECT: false
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
    struct node *old = top;
    if (old == NULL)
        return NULL;
    top = old->next;
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
