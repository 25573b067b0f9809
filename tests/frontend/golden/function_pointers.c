/* Typedefs of function pointers, calls through variables, parameters,
 * struct fields and arrays; (*fp)(x) and fp(x) alike. */
typedef int (*binop)(int, int);
struct ops { binop combine; int (*unary)(int); };
int add(int a, int b) { return a + b; }
int neg(int a) { return -a; }
binop table[2] = { add, 0 };
struct ops ops = { add, neg };

int apply(binop f, int x) { return f(x, x) + (*f)(1, 2); }

int main(void) {
    binop local = add;
    int r = apply(local, 3);
    r += ops.unary(r) + table[0](r, 1);
    return r;
}
