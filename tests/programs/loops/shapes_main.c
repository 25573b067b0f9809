/* Loops whose trip count is a constant, in the shapes programs write them,
 * each run to its end under --unwind 2: a macro bound, a global counter, a
 * local whose address is taken, a while with the increment in its body, a
 * break on a data condition, nested loops, a loop calling a function, a
 * counter in a struct field (local and global), a down-counting loop, a !=
 * condition and a counter behind a pointer. The assertions hold outright.
 * UNWIND: 2
 * VERDICT: holds
 * FINDING: none
 */
#include <assert.h>

#define SIZE 20

extern int __VERIFIER_nondet_int(void);

int a[SIZE];
int g;
struct counter { int i; int sum; } gc;

void show(int *p) { (void)p; }
void put(int i, int v) { a[i] = v; }

void count_through(int *p, int n) {
    for (*p = 0; *p < n; (*p)++)
        a[*p] += 1;
}

int main(void) {
    int i, s = 0;
    for (i = 0; i < SIZE; i++)              /* a macro bound */
        a[i] = i;
    assert(a[SIZE - 1] == SIZE - 1);

    for (g = 0; g < SIZE; g++)              /* a global counter */
        s += a[g];
    assert(s == 190 && g == SIZE);

    int k;
    show(&k);                               /* a local whose address is taken */
    for (k = 0; k < SIZE; k++)
        a[k] = 2 * k;
    assert(a[SIZE - 1] == 38);

    i = 0;
    while (i < SIZE) {                      /* the increment in the body */
        a[i] = a[i] + 1;
        i++;
    }
    assert(a[SIZE - 1] == 39);

    s = 0;
    for (int r = 0; r < 5; r++)             /* nested */
        for (int c = 0; c < 6; c++)
            s += r * c;
    assert(s == 150);

    for (i = 0; i < SIZE; i++)              /* calling a function */
        put(i, SIZE - i);
    assert(a[SIZE - 1] == 1);

    struct counter lc = { 0, 0 };           /* struct fields */
    for (lc.i = 0; lc.i < SIZE; lc.i++)
        lc.sum += lc.i;
    for (gc.i = 0; gc.i < SIZE; gc.i++)
        gc.sum += 2;
    assert(lc.sum == 190 && gc.sum == 40);

    for (i = SIZE - 1; i >= 0; i--)         /* down-counting */
        a[i] = i;
    assert(i == -1 && a[0] == 0);

    for (i = 0; i != SIZE; i += 2)          /* != */
        a[i] = -1;
    assert(a[SIZE - 2] == -1 && a[SIZE - 1] == SIZE - 1);

    count_through(&k, SIZE);                /* a counter behind a pointer */
    assert(k == SIZE && a[SIZE - 1] == SIZE);

    int key = __VERIFIER_nondet_int();      /* a break on a data condition */
    for (i = 0; i < SIZE; i++)
        if (a[i] == key)
            break;
    assert(i == SIZE || a[i] == key);
    return 0;
}
