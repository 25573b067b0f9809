// expect: holds
// 8 threads multiply an 8x8 matrix by a vector, one row each.
#include <pthread.h>
#include <assert.h>

#define N 8

int a[N][N];
int v[N];
int out[N];

void *row(void *arg) {
  int r = *(int *)arg;
  int s = 0;
  for (int j = 0; j < N; j++)
    s += a[r][j] * v[j];
  out[r] = s;
  return 0;
}

int main(void) {
  pthread_t t[N];
  int ids[N];
  for (int i = 0; i < N; i++) {
    v[i] = i + 1;
    for (int j = 0; j < N; j++)
      a[i][j] = (i == j) ? 2 : 0;
  }
  for (int i = 0; i < N; i++) {
    ids[i] = i;
    pthread_create(&t[i], 0, row, &ids[i]);
  }
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  for (int i = 0; i < N; i++)
    assert(out[i] == 2 * (i + 1));
  return 0;
}
