/* Options parsed with getopt before the workers start: -v sets verbose,
 * -n COUNT the number of rounds (at most 3 pass the check). A verbose run
 * with 3 rounds trips the assertion that the two are never asked together;
 * the counterexample shows such a command line (e.g. prog -n3 -v).
 * VERDICT 36: violated
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

int rounds = 1, verbose, done;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *work(void *arg) {
    pthread_mutex_lock(&lock);
    done += rounds;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(int argc, char **argv) {
    int c;
    while ((c = getopt(argc, argv, "vn:")) != -1) {
        if (c == 'v')
            verbose = 1;
        else if (c == 'n')
            rounds = atoi(optarg);
        else
            return 2;
    }
    if (rounds < 1 || rounds > 3)
        return 2;
    pthread_t t;
    assert(!(verbose && rounds == 3));
    pthread_create(&t, 0, work, 0);
    pthread_join(t, 0);
    return 0;
}
