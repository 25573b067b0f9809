/* RACES: level write@12 read@18; level write@13 read@18; level write@12 read@19; level write@13 read@19
 * A publisher raises a level twice and a watcher samples it twice, without
 * synchronization: the watcher's check holds (the level only rises), and
 * dpor-ag would prune some of the runs -- each of the four write/read pairs
 * races all the same. */
#include <pthread.h>
#include <assert.h>

int level;

void *publisher(void *unused) {
    level = 1;
    level = 2;
    return 0;
}

void *watcher(void *unused) {
    int before = level;
    int after = level;
    assert(before <= after);
    return 0;
}

int main(void) {
    pthread_t p, w;
    pthread_create(&p, 0, publisher, 0);
    pthread_create(&w, 0, watcher, 0);
    pthread_join(p, 0);
    pthread_join(w, 0);
    return 0;
}
