// expect: holds
// 6 threads count the values of their slice of a constant array into a
// shared histogram under one lock per bucket.
#include <pthread.h>
#include <assert.h>

#define T 6
#define PER 10
#define BUCKETS 4

int data[T * PER];
int hist[BUCKETS];
pthread_mutex_t lock[BUCKETS];

void *count(void *arg) {
  int id = (int)(long)arg;
  int local[BUCKETS] = {0};
  for (int i = id * PER; i < (id + 1) * PER; i++)
    local[data[i] % BUCKETS]++;
  for (int b = 0; b < BUCKETS; b++) {
    if (local[b] == 0)
      continue;
    pthread_mutex_lock(&lock[b]);
    hist[b] += local[b];
    pthread_mutex_unlock(&lock[b]);
  }
  return 0;
}

int main(void) {
  pthread_t t[T];
  for (int b = 0; b < BUCKETS; b++)
    pthread_mutex_init(&lock[b], 0);
  for (int i = 0; i < T * PER; i++)
    data[i] = (i / PER) % 2 == 0 ? 0 : 1;  // even threads see 0s, odd ones 1s
  for (long i = 0; i < T; i++)
    pthread_create(&t[i], 0, count, (void *)i);
  for (int i = 0; i < T; i++)
    pthread_join(t[i], 0);
  assert(hist[0] + hist[1] == T * PER);
  return 0;
}
