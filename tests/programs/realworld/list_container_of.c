/* An intrusive doubly linked list in the Linux style: items embed a
 * list_head, container_of (a statement expression with typeof of a member
 * through a null pointer) finds an item from its link, and
 * list_for_each_entry walks the items with typeof. Two threads add an item
 * each under a mutex; main walks the list after joining them.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <stddef.h>
#include <assert.h>

struct list_head { struct list_head *next, *prev; };

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define container_of(ptr, type, member) ({ \
    const typeof(((type *)0)->member) *__mptr = (ptr); \
    (type *)((char *)__mptr - offsetof(type, member)); })
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_next_entry(pos, member) list_entry((pos)->member.next, typeof(*(pos)), member)
#define list_for_each_entry(pos, head, member) \
    for (pos = list_first_entry(head, typeof(*pos), member); \
         &pos->member != (head); \
         pos = list_next_entry(pos, member))

static inline void __list_add(struct list_head *new, struct list_head *prev, struct list_head *next) {
    next->prev = new;
    new->next = next;
    new->prev = prev;
    prev->next = new;
}

static inline void list_add_tail(struct list_head *new, struct list_head *head) {
    __list_add(new, head->prev, head);
}

struct job {
    int weight;
    struct list_head node;
    char tag;
};

static struct list_head jobs = LIST_HEAD_INIT(jobs);
static pthread_mutex_t jobs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct job a = { .weight = 1, .tag = 'a' }, b = { .weight = 2, .tag = 'b' };

static void *submit(void *arg) {
    struct job *j = arg;
    pthread_mutex_lock(&jobs_lock);
    list_add_tail(&j->node, &jobs);
    pthread_mutex_unlock(&jobs_lock);
    return NULL;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, NULL, submit, &a);
    pthread_create(&t2, NULL, submit, &b);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    struct job *pos;
    int total = 0, count = 0;
    list_for_each_entry(pos, &jobs, node) {
        total += pos->weight;
        count++;
    }
    assert(count == 2 && total == 3);
    return 0;
}
