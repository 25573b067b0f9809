/* ++/--, compound assignment and assignment as a value, on registers,
 * globals and memory reached through pointers; f(a++, b) argument order. */
int g, arr[4];
int f(int x, int y);

int update(int *p) {
    int x = 0, y;
    x++;
    ++x;
    y = x--;
    y = --x;
    g++;
    y = g--;
    *p += 2;
    arr[1] <<= 1;
    y = (x = 5) + 1;
    g = g * 2;
    f(g++, y);
    p++;
    return y;
}
