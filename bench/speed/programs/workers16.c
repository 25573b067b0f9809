// expect: holds
// 16 workers, each sums over a constant range into its own cell; main checks
// the total after joining them all.
#include <pthread.h>
#include <assert.h>

#define N 16
#define ITER 40

long partial[N];

void *worker(void *arg) {
  long id = (long)arg;
  long s = 0;
  for (int i = 0; i < ITER; i++)
    s += (i % 7) * id + i;
  partial[id] = s;
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  long total = 0;
  for (int i = 0; i < N; i++)
    total += partial[i];
  // sum over ids of (sum_i (i%7))*id + sum_i i = 115*120 + 16*780
  assert(total == 115 * 120 + 16 * 780);
  return 0;
}
