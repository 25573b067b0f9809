/* A port range from two arguments, each parsed with strtoul and rejected
 * unless the whole argument is a number: two threads claim the ports of
 * their half of the range under a lock, and every port is claimed once,
 * whatever the command line. The arguments are read only as numbers, so
 * the proof is for every command line.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

unsigned long first, last, claimed;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *claim(void *arg) {
    unsigned long half = (last - first + 1) / 2;
    pthread_mutex_lock(&lock);
    claimed += half;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(int argc, char **argv) {
    char *end;
    if (argc < 3)
        return 2;
    first = strtoul(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0')
        return 2;
    last = strtoul(argv[2], &end, 10);
    if (end == argv[2] || *end != '\0' || last < first || last - first > 64 || (last - first) % 2 == 0)
        return 2;
    pthread_t a, b;
    pthread_create(&a, 0, claim, 0);
    pthread_create(&b, 0, claim, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(claimed == last - first + 1);
    return 0;
}
