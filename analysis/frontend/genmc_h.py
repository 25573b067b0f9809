"""``<genmc.h>`` as distaff reads it: GenMC's verification API, for programs
written for GenMC (its own header is not read: it declares GenMC's
interpreter's internals).

* The annotations (``__VERIFIER_final_CAS``, ``__VERIFIER_helping_CAS``,
  ``__VERIFIER_local_write`` ...) are hints to GenMC's exploration: the
  statement or expression as written.
* ``__VERIFIER_optional(x)``: GenMC runs ``x`` only in executions it then
  blocks (``__VERIFIER_assume(0)``), so the complete executions are those
  that skip it; so does distaff (``x`` is still read, never run).
* Hazard pointers, with GenMC's meaning: ``__VERIFIER_hp_protect(hp, p)``
  reads ``*p`` and publishes it in ``hp`` in one step (the protection holds
  from the read); ``__VERIFIER_hp_retire(p)`` frees ``p`` at once when no
  hazard pointer holds it, else keeps it, and every retire frees the kept
  ones no hazard pointer holds any more. So an access to a retired node that
  no hazard pointer protected is a use after free, as GenMC reports it. Each
  operation is one atomic step (an SV-COMP ``__VERIFIER_atomic_`` function);
  the lists it walks count against ``--unwind`` like any list walk.
"""

from __future__ import annotations

NAME = "genmc.h"
PATH = "<genmc.h>"

TEXT = r"""#ifndef __DISTAFF_GENMC_H
#define __DISTAFF_GENMC_H
#define __VERIFIER_local_write(s) do { s; } while (0)
#define __VERIFIER_final_write(s) do { s; } while (0)
#define __VERIFIER_helped_CAS(c) do { c; } while (0)
#define __VERIFIER_helping_CAS(c) do { c; } while (0)
#define __VERIFIER_speculative_read(c) (c)
#define __VERIFIER_confirming_read(c) (c)
#define __VERIFIER_confirming_CAS(c) (c)
#define __VERIFIER_final_CAS(c) (c)
#define __VERIFIER_optional(x) do { if (0) { x; } } while (0)

typedef struct __distaff_hp { void *protects; struct __distaff_hp *next; } __VERIFIER_hp_t;
struct __distaff_retired { void *node; struct __distaff_retired *next; };
__VERIFIER_hp_t *__distaff_hps;
struct __distaff_retired *__distaff_retired;

__VERIFIER_hp_t *__VERIFIER_atomic_distaff_hp_alloc(void)
{
	__VERIFIER_hp_t *hp = malloc(sizeof(__VERIFIER_hp_t));
	hp->protects = 0;
	hp->next = __distaff_hps;
	__distaff_hps = hp;
	return hp;
}

void *__VERIFIER_atomic_distaff_hp_protect(__VERIFIER_hp_t *hp, void **p)
{
	void *v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
	hp->protects = v;
	return v;
}

void __VERIFIER_atomic_distaff_hp_clear(__VERIFIER_hp_t *hp)
{
	hp->protects = 0;
}

int __distaff_hp_protected(void *node)
{
	for (__VERIFIER_hp_t *hp = __distaff_hps; hp; hp = hp->next)
		if (hp->protects == node)
			return 1;
	return 0;
}

void __VERIFIER_atomic_distaff_hp_retire(void *node)
{
	struct __distaff_retired **at = &__distaff_retired;
	while (*at) {
		struct __distaff_retired *r = *at;
		if (__distaff_hp_protected(r->node)) {
			at = &r->next;
		} else {
			*at = r->next;
			free(r->node);
			free(r);
		}
	}
	if (__distaff_hp_protected(node)) {
		struct __distaff_retired *r = malloc(sizeof(struct __distaff_retired));
		r->node = node;
		r->next = __distaff_retired;
		__distaff_retired = r;
	} else {
		free(node);
	}
}

#define __VERIFIER_hp_alloc() __VERIFIER_atomic_distaff_hp_alloc()
#define __VERIFIER_hp_protect(hp, p) __VERIFIER_atomic_distaff_hp_protect((hp), (void **)(p))
#define __VERIFIER_hp_clear(hp) __VERIFIER_atomic_distaff_hp_clear(hp)
#define __VERIFIER_hp_free(hp) __VERIFIER_atomic_distaff_hp_clear(hp)
#define __VERIFIER_hp_retire(p) __VERIFIER_atomic_distaff_hp_retire(p)
#endif
"""
