/* The softirq vectors' names, as the kernel's softirq_to_name[] (stable
 * since 2.6.37, irq_poll since 4.5): softirqs and softirqslower print
 * them. */
#ifndef COREBOX_SOFTIRQ_NAMES_H
#define COREBOX_SOFTIRQ_NAMES_H

#define SOFTIRQ_NR_VECS 10 /* the kernel's NR_SOFTIRQS */

/* The name of vector VEC; NULL for a number past the known ones. */
const char *softirq_name(unsigned vec);

#endif
