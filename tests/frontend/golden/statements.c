/* if/else, while, do-while, for, break/continue, switch with fall-through
 * and default, goto forward and backward, labels, return. */
int g;

int control(int n) {
    int s = 0;
    if (n > 0)
        s = 1;
    else if (n < -5)
        s = 2;
    else
        s = 3;
    while (s < 10) {
        s++;
        if (s == 5)
            continue;
        if (g)
            break;
    }
    do
        s--;
    while (s > 3);
    for (int i = 0; i < n; i++)
        s += i;
    for (;;) {
        if (s > 100)
            break;
        s *= 2;
    }
    switch (n) {
    case 0:
        s = 0;
    case 1:
        s++;
        break;
    case 5:
        return 5;
    default:
        s = -1;
    }
again:
    s--;
    if (s > 0)
        goto again;
    goto done;
    s = 99;
done:
    return s;
}
