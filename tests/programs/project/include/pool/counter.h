#ifndef POOL_COUNTER_H
#define POOL_COUNTER_H

#include <pthread.h>

struct counter {
    pthread_mutex_t lock;
    int value;
};

static inline void counter_add(struct counter *c, int k) {
#ifdef POOL_UNLOCKED
    c->value += k;
#else
    pthread_mutex_lock(&c->lock);
    c->value += k;
    pthread_mutex_unlock(&c->lock);
#endif
}

#endif
