/* Bad input: syntax errors and unsupported constructs become findings at
 * their ranges, and the rest of the file is still lowered. */
int g;
__float128 ratio = 0.5;

int broken(int x) {
    x = x + ;
    return x;
}

int unsupported(int x) {
    __float128 d = x * 1.5;
    __asm__("nop");
    return x + (int)d;
}

int fine(void) {
    g = 1;
    return g;
}
