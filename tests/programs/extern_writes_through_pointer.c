/* A function without a body may write what its pointer arguments point to:
 * after touch(&x), x is unknown, so the first assertion can fail. y is not
 * passed, so it keeps its value; a string literal is read-only.
 * VERDICT 19: violated
 * VERDICT 20: holds
 * FINDING: none
 */
#include <assert.h>

extern void touch(int *p);
extern void log_text(const char *s);

int x;
int y;

int main(void) {
    touch(&x);
    log_text("hello");
    assert(x == 0);
    assert(y == 0);
    return 0;
}
