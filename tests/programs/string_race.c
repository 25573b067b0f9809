/* strlen reads its string one byte at a time, each a memory access of the
 * calling thread: the writer may run between two of them, so strlen can see
 * 'a' from before both writes and "bc" from after them and count 3, a length
 * the string never has at any one moment. The copy and the comparison of a
 * local string are exact.
 * VERDICT 27: violated
 * VERDICT 28: holds
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

char buf[4] = {'a', 0, 'c', 0};

void *writer(void *arg) {
    buf[0] = 0;
    buf[1] = 'b';
    return 0;
}

int main(void) {
    pthread_t t;
    char copy[4];
    pthread_create(&t, 0, writer, 0);
    strcpy(copy, "xyz");
    assert(strlen(buf) != 3);
    assert(strcmp(copy, "xyz") == 0 && strlen(copy) == 3);
    pthread_join(t, 0);
    return 0;
}
