/* Logging from threads: printf, fprintf to stderr, puts and putchar change no
 * program state; snprintf and sprintf build the text a thread then checks.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done;

void *logger(void *arg) {
    long id = (long)arg;
    char line[32];
    int n = snprintf(line, sizeof line, "worker %ld: %s", id, "up");
    assert(n == 12);
    assert(strcmp(line, id == 1 ? "worker 1: up" : "worker 2: up") == 0);
    fprintf(stderr, "%s\n", line);
    pthread_mutex_lock(&m);
    done++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    char buf[16];
    assert(printf("start %d\n", 7) == 8);
    assert(fprintf(stdout, "%5d|%-3s|%c\n", 42, "ab", 'z') == 12);
    assert(puts("plain") >= 0);
    assert(putchar('x') == 'x');
    putchar('\n');
    assert(fflush(stdout) == 0);
    assert(stdout != stderr && stderr != NULL);
    snprintf(buf, sizeof buf, "%d", 7);
    assert(buf[0] == '7' && buf[1] == 0);
    assert(snprintf(buf, 4, "%x-%X", 255, 171) == 5 && strcmp(buf, "ff-") == 0);
    assert(sprintf(buf, "%u%%%03d", 4000000000u, 5) == 14);
    assert(strcmp(buf, "4000000000%005") == 0);
    assert(sprintf(buf, "%ld/%lu/%c", -3L, 3UL, 65) == 6 && memcmp(buf, "-3/3/A", 7) == 0);
    pthread_t a, b;
    pthread_create(&a, 0, logger, (void *)1L);
    pthread_create(&b, 0, logger, (void *)2L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(done == 2);
    return 0;
}
