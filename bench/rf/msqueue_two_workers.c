/* A Michael-Scott queue whose nodes come from malloc: two threads each enqueue their value and
 * then dequeue one; each dequeue finds a value, and the two values taken differ.
 * EXPECT: true
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct node { int value; struct node *next; };
struct node *head, *tail;

void init_queue(void) {
    struct node *d = malloc(sizeof *d);
    d->next = NULL;
    head = tail = d;
}

void enqueue(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = NULL;
    while (1) {
        struct node *t = tail;
        struct node *next = t->next;
        if (t == tail) {
            if (next == NULL) {
                if (__sync_bool_compare_and_swap(&t->next, next, n)) {
                    __sync_bool_compare_and_swap(&tail, t, n);
                    return;
                }
            } else {
                __sync_bool_compare_and_swap(&tail, t, next);
            }
        }
    }
}

int dequeue(int *out) {
    while (1) {
        struct node *h = head;
        struct node *t = tail;
        struct node *next = h->next;
        if (h == head) {
            if (h == t) {
                if (next == NULL)
                    return 0;
                __sync_bool_compare_and_swap(&tail, t, next);
            } else {
                int v = next->value;
                if (__sync_bool_compare_and_swap(&head, h, next)) {
                    *out = v;
                    return 1;
                }
            }
        }
    }
}

int got[2];

void *worker(void *arg) {
    int id = (int)(long)arg;
    int v = -1;
    enqueue(id + 1);
    int ok = dequeue(&v);
    assert(ok);
    got[id] = v;
    return NULL;
}

int main(void) {
    pthread_t a, b;
    init_queue();
    pthread_create(&a, NULL, worker, (void *)0L);
    pthread_create(&b, NULL, worker, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(got[0] + got[1] == 3 && got[0] != got[1]);
    return 0;
}
