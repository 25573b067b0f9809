/* A shared message parsed by two readers after the writer is joined:
 * strlen, strcmp, strncmp, strcpy, strncpy, strcat, memcmp, memchr, strchr
 * and strrchr on text the program built.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

char msg[32];

void *writer(void *arg) {
    strcpy(msg, "key=");
    strcat(msg, "value;x");
    return 0;
}

void *reader(void *arg) {
    char *eq = strchr(msg, '=');
    assert(eq == msg + 3);
    assert(strrchr(msg, 'x') == msg + 10);
    assert(strchr(msg, '#') == NULL);
    assert(strchr(msg, 0) == msg + strlen(msg));
    assert(memchr(msg, ';', 4) == NULL && memchr(msg, ';', 11) == msg + 9);
    assert(strncmp(eq + 1, "value", 5) == 0);
    return 0;
}

int main(void) {
    pthread_t w, r1, r2;
    pthread_create(&w, 0, writer, 0);
    pthread_join(w, 0);
    assert(strlen(msg) == 11);
    pthread_create(&r1, 0, reader, 0);
    pthread_create(&r2, 0, reader, 0);
    char copy[8];
    strncpy(copy, msg, 3);
    copy[3] = 0;
    assert(strcmp(copy, "key") == 0 && memcmp(msg, "key", 3) == 0);
    assert(strcmp("abc", "abd") < 0 && strcmp("b", "a") > 0);
    pthread_join(r1, 0);
    pthread_join(r2, 0);
    return 0;
}
