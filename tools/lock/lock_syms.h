/* klockstat's symbol questions: a lock's address from its name (-L) and
 * its name from its address (the "Max PID ... Lock" line), both data
 * symbols, which the stack tools' text-only ksyms do not hold; and which
 * stack frames belong to the locking code itself, skipped to reach the
 * caller as libbpf-tools' fentry on mutex_lock sees it. */
#ifndef COREBOX_LOCK_SYMS_H
#define COREBOX_LOCK_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NAME's address, or "0x..." read as one: 0, or -ENOENT. */
int lock_addr_of(const char *name, uint64_t *addr);
/* The symbol exactly at addr into buf, or "no-ksym" (libbpf-tools' word). */
const char *lock_name_at(uint64_t addr, char *buf, size_t size);
/* Is a function of this name part of the lock implementation (mutex,
 * rwsem, rt_mutex, percpu rwsem, the spinlocks under them)? */
bool lock_impl_frame(const char *func);

#endif
