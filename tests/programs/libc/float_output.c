/* A report thread formats floating results as a logger would: printf's
 * %f %e %g %a with flags, width and precision, and snprintf into a buffer,
 * whose lengths and bytes the program then checks.
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

double mean = 3.14159;
float spread = -0.5f;

void *report(void *arg) {
    char line[64];
    int n = printf("%f|%.2e|%g|%a|%10.3f|%-8g|%+.0f|%A|%G\n", mean, mean, 1e-5, 3.0, mean, 2.5, 2.5, 0.1,
                   spread);
    assert(n == 82);
    int m = snprintf(line, sizeof line, "%.3f", spread);
    assert(m == 6 && line[0] == '-' && line[5] == '0');
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, report, 0);
    pthread_join(t, 0);
    return 0;
}
