/* Uses workers; config.c and defaults.c both define it, so linking them
   fails: a duplicate definition, named with both places. */
#include <assert.h>
#include "config.h"

int main(void) {
    assert(configured());
    assert(workers == 2);
    return 0;
}
