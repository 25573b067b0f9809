/* A Treiber stack with nodes from malloc: two threads each push their value and then pop one;
 * each pop finds a node, and the two values popped differ.
 * EXPECT: true
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct node { int value; struct node *next; };
struct node *top;

void push(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    for (;;) {
        struct node *t = top;
        n->next = t;
        if (__sync_bool_compare_and_swap(&top, t, n))
            return;
    }
}

int pop(int *out) {
    for (;;) {
        struct node *t = top;
        if (t == NULL)
            return 0;
        struct node *nx = t->next;
        if (__sync_bool_compare_and_swap(&top, t, nx)) {
            *out = t->value;
            return 1;
        }
    }
}

int got[2];
void *worker(void *arg) {
    int id = (int)(long)arg, v = -1;
    push(id + 1);
    int ok = pop(&v);
    assert(ok);
    got[id] = v;
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)0L);
    pthread_create(&b, NULL, worker, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(got[0] + got[1] == 3 && got[0] != got[1]);
    return 0;
}
