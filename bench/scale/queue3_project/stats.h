#ifndef STATS_H
#define STATS_H
void stats_count(int job);
int stats_jobs(void);
#endif
