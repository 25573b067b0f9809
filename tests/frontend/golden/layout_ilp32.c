/* The same declarations under ILP32: long and pointers are 4 bytes. */
#include <stdint.h>
typedef unsigned long ulong_t;
struct mixed { char c; int i; long l; short s; };
struct nested { struct mixed m; char tail[3]; };
union overlay { int i; char bytes[6]; long l; };
enum level { LOW, MID = 10, HIGH };
typedef struct { int a; char b; } pair_t;

unsigned long sizes[] = {
    sizeof(char), sizeof(short), sizeof(int), sizeof(long), sizeof(long long),
    sizeof(void *), sizeof(size_t), sizeof(struct mixed), sizeof(struct nested),
    sizeof(union overlay), sizeof(pair_t), sizeof(ulong_t), sizeof(_Bool),
    _Alignof(struct mixed), sizeof(int8_t), sizeof(uint64_t), sizeof(pthread_mutex_t),
};

int levels[3] = { LOW, MID, HIGH };

int widths(signed char sc, unsigned char uc, short s, unsigned short us, unsigned u, long l) {
    int a = sc + uc;
    unsigned b = u + s;
    long c = l + us;
    unsigned long long d = (unsigned long long)l * u;
    return a + b + c + d;
}
