#ifndef POOL_H
#define POOL_H

/* Start n threads running routine; wait for all of them. */
void pool_start(int n, void *(*routine)(void *));
void pool_join(void);
/* The next task number, from 0 on, each handed out once. */
int pool_next_task(void);

#endif
