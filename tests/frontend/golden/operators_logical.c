/* Short-circuit operators and ?: stay pure when the skipped side emits no
 * instruction, and become control flow when it reads memory or has effects. */
int g, h;
int f(int);

int logical(int a, int b) {
    int pure = a && b;
    int pure_or = a || b > 2;
    int reads = a && g;
    int calls = a || f(b);
    int pick = a ? b : 3;
    int pick_mem = a ? g : h;
    int both = (a, b);
    if (a && g > 1)
        return 1;
    if (!(b || h))
        return 2;
    return pure + pure_or + reads + calls + pick + pick_mem + both;
}
