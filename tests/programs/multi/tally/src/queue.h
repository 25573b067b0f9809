#ifndef QUEUE_H
#define QUEUE_H

void queue_push(int job);
int queue_pop(void); /* the oldest job, or -1 when there is none */

#endif
