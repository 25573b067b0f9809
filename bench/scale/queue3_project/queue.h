/* A bounded job queue guarded by a mutex and a condition variable. */
#ifndef QUEUE_H
#define QUEUE_H
#define QUEUE_SLOTS 3
void queue_put(int job);
int queue_take(void);
#endif
