/* Reading numbers from strings, as configuration code does before it starts
 * its threads: atoi and friends on constant text, strtol with bases and an end
 * pointer, clamping on overflow, and abs of a value that depends on argc.
 * The three assertions after argc is read hold for every command line within
 * the argument bound (--sym-args), not a proof for every argc.
 * VERDICT: holds
 * VERDICT 44: bounded
 * VERDICT 45: bounded
 * VERDICT 52: bounded
 * FINDING: none
 */
#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

int workers;

void *work(void *arg) {
    workers--;
    return 0;
}

int main(int argc, char **argv) {
    char *end;
    assert(atoi("12") == 12);
    assert(atoi("  -42xyz") == -42);
    assert(atoi("abc") == 0);
    assert(atol("+9000000000") == 9000000000L);
    assert(atoll("-9000000000000") == -9000000000000LL);
    assert(strtol("0x1F", &end, 0) == 31 && *end == 0);
    assert(strtol("0755", 0, 0) == 493);
    assert(strtol("z", &end, 36) == 35);
    assert(strtol("12abc", &end, 10) == 12 && *end == 'a');
    const char *none = "  q";
    assert(strtol(none, &end, 10) == 0 && end == none);
    assert(strtol("99999999999999999999", 0, 10) == LONG_MAX);
    assert(strtol("-99999999999999999999", 0, 10) == LONG_MIN);
    assert(strtoul("-1", 0, 10) == ULONG_MAX);
    assert(strtoull("18446744073709551615", 0, 10) == ULLONG_MAX);
    assert(strtoll("-0x10", 0, 16) == -16);
    assert(abs(-4) == 4 && labs(-5L) == 5 && llabs(-6LL) == 6);
    int x = argc % 1000 - 500;
    assert(abs(x) >= 0);
    assert(abs(x) == (x < 0 ? -x : x));
    workers = atoi("2");
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, work, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(workers <= 2);
    return 0;
}
