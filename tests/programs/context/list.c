/* Nodes of a list built in a loop, handed to threads: a real race. main
 * builds a two-item list (its items allocated in a loop, so the initial
 * state has no object for them: pointers to them resolve lazily to primary
 * objects, which alias each other conditionally) and starts two bumpers on
 * the same item, the list's head, with no lock.
 *
 * From both bumpers at their read (the same line twice): both arguments are
 * the value of `head` main left (one term, so one primary object), and the
 * two unlocked read-modify-writes interleave: the assertion can fail, as it
 * can from main. Every configuration must find it (a context never loses a
 * violation a whole-program run has through it).
 *
 * FROM: 26 26
 * UNWIND: 2
 * EXPECT: full=violated -RD=violated -SI=violated naive=violated
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct item { int val; struct item *next; };
struct item *head;

void *bumper(void *arg) {
    struct item *p = arg;
    int old = p->val;                               /* from here (1,2): two bumpers */
    p->val = old + 1;
    assert(p->val == old + 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    for (int i = 0; i < 2; i++) {
        struct item *n = malloc(sizeof *n);
        if (!n)
            return 1;
        n->val = i;
        n->next = head;
        head = n;
    }
    pthread_create(&a, 0, bumper, head);
    pthread_create(&b, 0, bumper, head);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
