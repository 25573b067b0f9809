#ifndef STATS_H
#define STATS_H

void stats_add(int amount);
int stats_total(void);

#endif
