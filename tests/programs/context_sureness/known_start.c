/* From main's first statement every value is known (the initial ones), so
 * the race the whole program has is found from here too, and it is an
 * error: it depends on nothing the context does not know.
 * FROM: 20
 */
#include <pthread.h>
#include <assert.h>

int hits;

void *bump(void *arg) {
  (void)arg;
  int h = hits;
  hits = h + 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  hits = 0;
  pthread_create(&a, 0, bump, 0);
  pthread_create(&b, 0, bump, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hits == 2);
  return 0;
}
