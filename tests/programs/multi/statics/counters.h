#ifndef COUNTERS_H
#define COUNTERS_H

void *fast_run(void *arg);
int fast_count(void);
void *slow_run(void *arg);
int slow_count(void);

#endif
