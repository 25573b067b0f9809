/* Nested loops, each within the bound on every entry: the inner loop's
 * iterations are counted per entry, not summed over the outer loop's, so with
 * the default bound of 8 nothing is cut.
 * VERDICT: holds
 * RUNS: baseline=1
 */
#include <assert.h>

int grid[4][4];

int main(void) {
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            grid[i][j] = i * 4 + j;
    assert(grid[3][2] == 14);
    return 0;
}
