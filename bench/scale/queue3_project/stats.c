#include <pthread.h>
#include "stats.h"

static int jobs, sum;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void stats_count(int job) {
    pthread_mutex_lock(&lock);
    jobs++;
    sum += job;
    pthread_mutex_unlock(&lock);
}

int stats_jobs(void) {
    pthread_mutex_lock(&lock);
    int n = jobs;
    pthread_mutex_unlock(&lock);
    return n;
}
