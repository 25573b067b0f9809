/* A stack of two nodes popped by two threads that read a node's value
 * under GenMC's hazard pointers (<genmc.h>): a node is retired after its
 * pop, and freed only once no hazard pointer protects it, so the popper
 * that lost the race still reads its protected node safely.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <genmc.h>

struct node { int value; struct node *next; };
_Atomic(struct node *) top;

void *pop(void *arg) {
    __VERIFIER_hp_t *hp = __VERIFIER_hp_alloc();
    struct node *t = __VERIFIER_hp_protect(hp, &top);
    if (t == NULL)
        return 0;
    int v = t->value;
    struct node *next = t->next;
    if (__VERIFIER_final_CAS(atomic_compare_exchange_strong(&top, &t, next))) {
        __VERIFIER_hp_clear(hp);
        __VERIFIER_hp_retire(t);
    }
    assert(v == 1 || v == 2);
    return 0;
}

int main(void) {
    struct node *a = malloc(sizeof(struct node));
    struct node *b = malloc(sizeof(struct node));
    b->value = 2; b->next = NULL;
    a->value = 1; a->next = b;
    atomic_init(&top, a);
    pthread_t t1, t2;
    pthread_create(&t1, 0, pop, 0);
    pthread_create(&t2, 0, pop, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
