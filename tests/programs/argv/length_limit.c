/* An argument read byte by byte: its length is not a number strtol gives, so
 * the proof cannot go past the argument bound. Within it (8 bytes by
 * default) the assertion holds; a longer argument breaks it.
 * VERDICT: bounded
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

unsigned long length;

void *check(void *arg) {
    assert(length <= 8);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2)
        return 1;
    length = strlen(argv[1]);
    pthread_t t;
    pthread_create(&t, 0, check, 0);
    pthread_join(t, 0);
    return 0;
}
