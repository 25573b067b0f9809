/* VERDICT 17: holds
   VERDICT 18: violated
   Each thread bumps its own file's static counter: fast ends at 1 and slow
   at 4, never anything else, whatever the interleaving. The second assertion
   claims slow's counter is still at 2 after the join: it fails. */
#include <assert.h>
#include <pthread.h>
#include "counters.h"

int main(void) {
    pthread_t f, s;
    pthread_create(&f, 0, fast_run, 0);
    pthread_create(&s, 0, slow_run, 0);
    pthread_join(f, 0);
    pthread_join(s, 0);
    int total = fast_count() + slow_count();
    assert(fast_count() == 1 && total == 5);
    assert(slow_count() == 2);
    return 0;
}
