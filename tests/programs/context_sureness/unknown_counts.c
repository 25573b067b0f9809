/* One worker inside the critical section before its first write, the other
 * waiting at the lock. In the program both counters still hold 0 there, but
 * the context does not know it yet: it gives them unknown values, and what
 * fails from here with some of those values is possible from the context
 * only. Each such finding says so, names the values it depends on, and is a
 * warning.
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
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
