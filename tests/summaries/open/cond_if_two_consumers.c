/* Open bug (dpor-ag). VIOLATED: 30 */
/* STATUS: STILL BROKEN at 1a78f59 (re-checked): dpor-ag says holds, 57 runs, 18 pruned.
 * Found at HEAD 2438e7f.
 *
 * BUG (severity: critical -- wrong "holds", a violation missed) -- mode dpor-ag only
 *
 * Command:  cd /work/main && python -m server.cli check --mode dpor-ag /tmp/qa/bugs/ag_cond_if_missed_violation.c
 * distaff:  "assertion holds (all interleavings, unwind 8): 57 runs, 18 pruned", exit 0
 * --mode dpor and --mode baseline: "assertion can fail: items > 0", exit 1 (correct)
 * --mode dpor-ag --disable summaries  -> violated (correct)
 * --mode dpor-ag --disable rvar_wvar  -> violated (correct)
 * --mode dpor-ag --disable slicing    -> holds (still wrong)
 * So the bug is in summary pruning + the RVar/WVar backtrack update.
 *
 * Truth: violated. Both consumers block in pthread_cond_wait (items == 0);
 * main sets items = 1 and broadcasts, waking both; cons#1 takes the lock,
 * sees items == 1, decrements to 0, unlocks; cons#2 (it waited with `if`,
 * not `while`) takes the lock and asserts items > 0 with items == 0.
 * (dpor prints exactly this schedule.)  Main's second critical section is
 * needed to trigger it: without it, or with `items = 2` instead of
 * `items = items + 1`, or without the second broadcast, dpor-ag finds it.
 */
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int items;
void *cons(void *a) {
  pthread_mutex_lock(&m);
  if (items == 0) pthread_cond_wait(&c, &m);
  assert(items > 0);
  items--;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, cons, 0); pthread_create(&b, 0, cons, 0);
  pthread_mutex_lock(&m); items = 1; pthread_cond_broadcast(&c); pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m); items = items + 1; pthread_cond_broadcast(&c); pthread_mutex_unlock(&m);
  return 0;
}
