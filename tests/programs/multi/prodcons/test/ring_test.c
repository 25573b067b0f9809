/* VERDICT: holds
   The library's own test, a second program with a main: one thread puts two
   values and gets them back in order. */
#include <assert.h>
#include "ring.h"

int main(void) {
    ring_put(7);
    ring_put(8);
    assert(ring_size() == 2);
    int a = ring_get();
    int b = ring_get();
    assert(a == 7 && b == 8);
    return 0;
}
