/* A loop of 5 iterations: within the default bound of 8, explored completely.
 * VERDICT: holds
 * RUNS: baseline=1
 */
#include <assert.h>

int main(void) {
    int sum = 0;
    for (int i = 0; i < 5; i++)
        sum = sum + i;
    assert(sum == 10);
    return 0;
}
