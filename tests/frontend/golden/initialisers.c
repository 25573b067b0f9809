/* Static initialisers: brace lists, nesting, brace elision, designators,
 * strings for char arrays, pointers to globals, functions and strings;
 * local aggregate initialisation; static locals; compound literals. */
struct cfg { int id; char name[8]; int *target; int (*hook)(int); };
int hook(int x) { return x + 1; }
int value = 3;
int squares[] = { 0, 1, 4, 9 };
int grid[2][3] = { { 1, 2 }, { 4 } };
int elided[2][2] = { 1, 2, 3 };
int sparse[6] = { [4] = 40, 50, [1] = 10 };
char text[] = "ab\tc";
char sized[6] = "xy";
const char *greeting = "hello";
int *pv = &value;
int *pmid = &squares[2];
struct cfg config = { .name = "cfg", .id = 7, .hook = hook, .target = &value };
struct cfg configs[2] = { { 1, "a" }, [1].id = 2 };

int locals(void) {
    int a[4] = { 1, 2 };
    struct cfg c = { .id = 9 };
    char s[] = "hi";
    static int calls = 1;
    int *lit = (int[]){ 5, 6 };
    calls++;
    return a[1] + c.id + s[0] + lit[1];
}
