/* ms_queue.c with an enqueue that links its node with a plain store once
 * it saw the last node's next empty, not with a compare-and-swap: both
 * producers can see it empty, and the second link overwrites the first, so
 * one value never comes out; the tail may then point past the node after
 * the head, and a dequeue reads the value of a node that is not there.
 * VERDICT: violated
 * FINDING: error 58 null pointer dereference
 * UNWIND: 2
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <assert.h>

struct node {
    int value;
    _Atomic(struct node *) next;
};

struct queue {
    _Atomic(struct node *) head;
    _Atomic(struct node *) tail;
};

static struct node dummy, n1 = { .value = 1 }, n2 = { .value = 2 };
static struct queue q = { &dummy, &dummy };
static int taken[3];

static void enqueue(struct queue *q, struct node *node) {
    atomic_store_explicit(&node->next, NULL, memory_order_relaxed);
    for (;;) {
        struct node *tail = atomic_load_explicit(&q->tail, memory_order_acquire);
        struct node *next = atomic_load_explicit(&tail->next, memory_order_acquire);
        if (tail != atomic_load_explicit(&q->tail, memory_order_acquire))
            continue;
        if (next == NULL) {
            atomic_store_explicit(&tail->next, node, memory_order_release);
            atomic_compare_exchange_strong(&q->tail, &tail, node);
            return;
        } else {
            atomic_compare_exchange_strong(&q->tail, &tail, next);
        }
    }
}

static bool dequeue(struct queue *q, int *value) {
    for (;;) {
        struct node *head = atomic_load(&q->head);
        struct node *tail = atomic_load(&q->tail);
        struct node *next = atomic_load(&head->next);
        if (head != atomic_load(&q->head))
            continue;
        if (head == tail) {
            if (next == NULL)
                return false;
            atomic_compare_exchange_strong(&q->tail, &tail, next);
        } else {
            *value = next->value;
            if (atomic_compare_exchange_strong(&q->head, &head, next))
                return true;
        }
    }
}

static void *producer(void *arg) {
    enqueue(&q, arg);
    return NULL;
}

int main(void) {
    pthread_t p1, p2;
    pthread_create(&p1, NULL, producer, &n1);
    pthread_create(&p2, NULL, producer, &n2);
    pthread_join(p1, NULL);
    pthread_join(p2, NULL);
    int v;
    while (dequeue(&q, &v))
        taken[v]++;
    assert(taken[1] == 1 && taken[2] == 1);
    return 0;
}
