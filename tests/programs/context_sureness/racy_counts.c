/* Like unknown_counts.c without the lock: two workers can interleave their
 * additions, so the assertion fails from main too. From the context (one
 * worker at the read, another a line before it) the violation found relies
 * on values the context does not know: it stays possible from the context,
 * and the check from main that confirms it says it fails from main too.
 * FROM: 19 18
 */
#include <pthread.h>
#include <assert.h>

int count = 0;
int total = 0;

void *worker(void *arg) {
  (void)arg;
  // the next line is the second thread's position, the read the first's
  // (no lock: nothing orders the workers' additions)
  int step = 2;
  int c = count;
  count = c + 1;
  total = total + step;
  assert(total == 2 * count);
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
