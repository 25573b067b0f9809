/* Statistics the workers add to. The total is read and written back without
   the lock the queue has: two workers adding at once lose an update. */
#include "stats.h"

static int total;

void stats_add(int amount) {
    int seen = total;
    total = seen + amount;
}

int stats_total(void) {
    return total;
}
