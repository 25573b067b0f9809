#ifndef WORKER_H
#define WORKER_H

void *worker(void *arg);

#endif
