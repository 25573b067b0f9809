/* Pointer arithmetic scaled by element size, pointer difference, casts to
 * and from integers, multi-dimensional arrays, variable-length arrays. */
long table[3][4];

long pointers(int n, long *p, long *q) {
    long *r = p + 2;
    long d = q - p;
    unsigned long addr = (unsigned long)p;
    char *bytes = (char *)addr + 1;
    int vla[n];
    vla[n - 1] = 7;
    table[1][2] = *r + d;
    r = &table[2][0];
    r -= 1;
    return r[1] + *bytes + vla[0] + (p == 0) + (q != p) + (p < q);
}
