/* The shape of an SV-COMP preprocessed .i file: glibc-style typedefs and
 * declarations with attributes, __restrict, __extension__, asm labels and
 * inline functions that are never called (and so not lowered). */


typedef unsigned char __u_char;
typedef unsigned int __uint32_t;
typedef unsigned short int __uint16_t;
typedef long int __off_t;
__extension__ typedef long long int __quad_t;
typedef unsigned long int size_t;
typedef struct __pthread_internal_list
{
  struct __pthread_internal_list *__prev;
  struct __pthread_internal_list *__next;
} __pthread_list_t;
struct __pthread_mutex_s
{
  int __lock;
  unsigned int __count;
  int __owner;
  unsigned int __nusers;
  int __kind;
  short __spins;
  short __elision;
  __pthread_list_t __list;
};
typedef unsigned long int pthread_t;
typedef union
{
  char __size[4];
  int __align;
} pthread_mutexattr_t;
union pthread_attr_t
{
  char __size[56];
  long int __align;
};
typedef union pthread_attr_t pthread_attr_t;
typedef union
{
  struct __pthread_mutex_s __data;
  char __size[40];
  long int __align;
} pthread_mutex_t;
typedef struct { int __lock; unsigned int __futex; __extension__ unsigned long long int __total_seq; } __cond_data;
typedef union
{
  __cond_data __data;
  char __size[48];
  __extension__ long long int __align;
} pthread_cond_t;
extern int pthread_create (pthread_t *__restrict __newthread,
      const pthread_attr_t *__restrict __attr,
      void *(*__start_routine) (void *),
      void *__restrict __arg) __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1, 3)));
extern int pthread_join (pthread_t __th, void **__thread_return);
extern int pthread_mutex_lock (pthread_mutex_t *__mutex)
     __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1)));
extern int pthread_mutex_unlock (pthread_mutex_t *__mutex)
     __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1)));
extern void __assert_fail (const char *__assertion, const char *__file,
      unsigned int __line, const char *__function)
     __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
extern double strtod (const char *__restrict __nptr,
        char **__restrict __endptr)
     __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__nonnull__ (1)));
extern __inline __attribute__ ((__gnu_inline__)) double
__attribute__ ((__nothrow__ , __leaf__)) atof (const char *__nptr)
{
  return strtod (__nptr, (char **) ((void *)0));
}
static __inline __uint16_t
__bswap_16 (__uint16_t __bsx)
{
  return ((__uint16_t) ((((__bsx) >> 8) & 0xff) | (((__bsx) & 0xff) << 8)));
}
extern void *malloc (size_t __size) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__malloc__)) ;
extern int __VERIFIER_nondet_int(void);
void reach_error() { ((void) sizeof ((0) ? 1 : 0), __extension__ ({ if (0) ; else __assert_fail ("0", "main.c", 3, __extension__ __PRETTY_FUNCTION__); })); }
extern char *strerror_r (int __errnum, char *__buf, size_t __buflen) __asm__ ("" "__xpg_strerror_r") __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__nonnull__ (2)));
int data = 0;
pthread_mutex_t lock = { { 0, 0, 0, 0, 0, 0, 0, { 0, 0 } } };
void __VERIFIER_atomic_acquire(void) { }
void *thread1(void *arg)
{
  pthread_mutex_lock(&lock);
  data++;
  pthread_mutex_unlock(&lock);
  return ((void *)0);
}
int main()
{
  pthread_t t1, t2;
  pthread_create(&t1, ((void *)0), thread1, ((void *)0));
  pthread_create(&t2, ((void *)0), thread1, ((void *)0));
  pthread_join(t1, ((void *)0));
  pthread_join(t2, ((void *)0));
  ((void) sizeof ((data >= 0) ? 1 : 0), __extension__ ({ if (data >= 0) ; else __assert_fail ("data >= 0", "main.c", 20, __extension__ __PRETTY_FUNCTION__); }));
  if (__builtin_expect(data != 2, 0)) { ERROR: {reach_error();abort();} }
  return 0;
}
