/* The publisher sets the flag, then takes and gives back the lock; the
 * checker reads the flag inside the lock and again after it. The flag is
 * written outside any critical section, so the checker can read 0 both
 * times. A run the search must not lose: the checker holds the lock while
 * the publisher, having written, waits for it. That attempt, which blocks,
 * orders nothing; taken as an ordering, it would put the write before the
 * checker's second read in every run where the first read came first.
 * VERDICT 29: violated
 */
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int flag;

void *publisher(void *arg) {
  flag = 1;
  pthread_rwlock_wrlock(&lock);
  pthread_rwlock_unlock(&lock);
  return 0;
}

void *checker(void *arg) {
  pthread_rwlock_wrlock(&lock);
  int inside = flag;
  pthread_rwlock_unlock(&lock);
  int after = flag;
  (void)inside;
  assert(after == 1);
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, publisher, 0);
  pthread_create(&c, 0, checker, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
