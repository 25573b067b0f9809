// expect: holds
// Two threads each run a long loop over constants (a checksum of 300
// values); the main thread compares the results.
#include <pthread.h>
#include <assert.h>

unsigned r1, r2;

unsigned checksum(unsigned seed) {
  unsigned h = seed;
  for (int i = 0; i < 300; i++)
    h = (h * 31u) ^ (unsigned)(i * 7 + 3);
  return h;
}

void *a(void *arg) { r1 = checksum(17); return 0; }
void *b(void *arg) { r2 = checksum(17); return 0; }

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, a, 0);
  pthread_create(&y, 0, b, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(r1 == r2);
  return 0;
}
