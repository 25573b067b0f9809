/* Arithmetic, bitwise, shift, comparison and unary operators with the
 * usual arithmetic conversions made explicit. */
int g;
unsigned ug;

int arith(int a, int b, unsigned u, char c, long l) {
    int r = a + b * 3 - a / b % 7;
    r = (a & b) | (a ^ ~b);
    r = a << 2;
    r = u >> b;
    r = -a + !b + +c;
    r = a < b && u >= 4;
    r = a == u;
    r = l > a;
    r = c * c;
    r = (short)a + (unsigned char)b;
    r = g + ug;
    g = g + 1;
    return r;
}
