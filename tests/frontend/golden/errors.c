/* Bad input: syntax errors and unsupported constructs become findings at
 * their ranges, and the rest of the file is still lowered. */
int g;
long double ratio = 0.5L;

int broken(int x) {
    x = x + ;
    return x;
}

int unsupported(int x) {
    long double d = x * 1.5L;
    __asm__("nop");
    return x + (int)d;
}

int fine(void) {
    g = 1;
    return g;
}
