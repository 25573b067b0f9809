/* A second definition of workers (config.c has the first). */
#include "config.h"

int workers = 4;
