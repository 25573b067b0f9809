/* Field access with . and ->, nested structs, unions at offset 0, struct
 * copy, self-referential structs, anonymous members. */
struct point { int x, y; };
struct rect { struct point lo, hi; char tag; };
union num { int i; unsigned char b[4]; };
struct list { int v; struct list *next; };
struct wrap { int kind; union { int i; long l; }; };

struct rect box;
struct list *head;

int shapes(struct rect *r, struct list *n) {
    struct rect local = box;
    union num u;
    struct wrap w;
    u.i = 258;
    w.l = 5;
    local.hi.y = r->lo.x + n->next->v;
    n->next = head;
    head = n;
    box = local;
    return u.b[0] + local.tag + (int)w.i;
}
