/* Defines workers, as defaults.c does too: the two do not link. */
#include "config.h"

int workers = 2;

int configured(void) {
    return workers > 0;
}
