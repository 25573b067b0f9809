/* One worker inside the critical section before its first write, another
 * waiting at the lock. Main starts three workers in a loop, so a third may
 * already have added to both counters: the context does not know their
 * values, and what fails from here with some of them is possible from the
 * context only. Each such finding says so, names the values it depends on,
 * and is a warning.
 * FROM: 20 19
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;
int total = 0;

void *worker(void *arg) {
  (void)arg;
  // the lock's line is the second thread's position, the read the first's
  pthread_mutex_lock(&m);
  int c = count;
  count = c + 1;
  total = total + 2;
  assert(total == 2 * count);
  pthread_mutex_unlock(&m);
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
