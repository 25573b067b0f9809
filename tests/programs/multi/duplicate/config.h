#ifndef CONFIG_H
#define CONFIG_H

extern int workers;
int configured(void);

#endif
