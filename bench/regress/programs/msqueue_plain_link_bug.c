/* A Michael-Scott style lock-free queue whose enqueue links the new node with a plain store to
 * tail->next after seeing it NULL instead of a CAS: both enqueuers can link after the dummy and
 * one node is lost (schedule: both read tail == &dummy and next == NULL, e0 stores dummy.next, e1
 * overwrites it and swings tail), so only one value comes out.
 * STYLE: lock-free
 * EXPECT: false
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct qnode {
    int val;
    struct qnode *next;
};

struct qnode dummy = {0, NULL};
struct qnode cells[2];
struct qnode *head = &dummy;
struct qnode *tail = &dummy;
int taken_sum = 0, taken_cnt = 0;

void enqueue(struct qnode *n) {
    n->next = NULL;
    for (;;) {
        struct qnode *t = tail;
        struct qnode *nx = t->next;
        if (t != tail)
            continue;
        if (nx == NULL) {
            t->next = n;
            __sync_bool_compare_and_swap(&tail, t, n);
            return;
        } else {
            __sync_bool_compare_and_swap(&tail, t, nx);
        }
    }
}

int dequeue(int *out) {
    for (;;) {
        struct qnode *h = head;
        struct qnode *t = tail;
        struct qnode *nx = h->next;
        if (h != head)
            continue;
        if (h == t) {
            if (nx == NULL)
                return 0;
            __sync_bool_compare_and_swap(&tail, t, nx);
        } else {
            if (nx == NULL)
                return 0;
            int v = nx->val;
            if (__sync_bool_compare_and_swap(&head, h, nx)) {
                *out = v;
                return 1;
            }
        }
    }
}

void *enq(void *arg) {
    struct qnode *n = arg;
    enqueue(n);
    return 0;
}

void *deq(void *arg) {
    int v;
    if (dequeue(&v)) {
        taken_sum += v;
        taken_cnt++;
    }
    return 0;
}

int main(void) {
    pthread_t e0, e1, d;
    int v;
    cells[0].val = 3;
    cells[1].val = 4;
    pthread_create(&e0, 0, enq, &cells[0]);
    pthread_create(&e1, 0, enq, &cells[1]);
    pthread_create(&d, 0, deq, 0);
    pthread_join(e0, 0);
    pthread_join(e1, 0);
    pthread_join(d, 0);
    while (dequeue(&v)) {
        taken_sum += v;
        taken_cnt++;
    }
    assert(taken_cnt == 2 && taken_sum == 7);
    return 0;
}
