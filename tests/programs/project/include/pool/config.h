/* Pool settings; WORKERS comes from the build (-DWORKERS=N). */
#ifndef POOL_CONFIG_H
#define POOL_CONFIG_H

#ifndef WORKERS
#error "build with -DWORKERS=N"
#endif

#define ITEMS_PER_WORKER 1

#endif
