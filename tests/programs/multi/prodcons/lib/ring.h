#ifndef RING_H
#define RING_H

/* A bounded buffer: ring_put waits while it is full, ring_get while it is empty. */
void ring_put(int value);
int ring_get(void);
int ring_size(void);

#endif
