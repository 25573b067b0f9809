#include <assert.h>
#if 1
int main(void) {
    const char *s = "no end;
    /* no end either
    assert(s != 0);
